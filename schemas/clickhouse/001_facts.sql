-- Chain facts: masterchain blocks, transactions, their message edges, and the processed cursor.
--
-- Conventions for every fact table (DESIGN.md "Facts"):
-- * ReplacingMergeTree keyed by a deterministic id, so a re-delivered batch changes nothing after
--   deduplication; reads go through FINAL / argMax (infra/store/facts-reader.ts), never raw.
-- * Raw amounts UInt256, lt and query_id UInt64, times DateTime('UTC') written as unix seconds.
-- * Addresses raw `wc:HEX` (uppercase hex); transaction and message hashes lowercase hex.
-- * Every statement is IF NOT EXISTS: a migration interrupted half-way re-runs whole.

CREATE TABLE IF NOT EXISTS blocks
(
  mc_seqno UInt32 COMMENT 'masterchain block seqno',
  utime DateTime('UTC') COMMENT 'masterchain block time',
  tx_count UInt32 COMMENT 'transactions newly committed by this masterchain block (all shards)',
  shard_blocks Array(String) COMMENT 'shard blocks it newly commits, as wc:SHARD:seqno; empty when the source does not know them'
)
ENGINE = ReplacingMergeTree
ORDER BY mc_seqno
COMMENT 'one row per masterchain block read from the source';

CREATE TABLE IF NOT EXISTS transactions
(
  hash String COMMENT 'transaction hash, lowercase hex',
  lt UInt64 COMMENT 'logical time',
  account String COMMENT 'raw address of the account, wc:HEX',
  mc_seqno UInt32 COMMENT 'masterchain block that committed it',
  shard Nullable(String) COMMENT 'wc:SHARD (16 hex digits); null when the source does not know it',
  block_seqno Nullable(UInt32) COMMENT 'shard block seqno; null when the source does not know it',
  utime DateTime('UTC') COMMENT 'transaction time (now)',
  aborted Bool COMMENT 'the transaction was aborted',
  compute_success Bool COMMENT 'compute phase succeeded',
  compute_exit_code Nullable(Int32) COMMENT 'compute phase exit code; null when the phase was skipped',
  action_success Nullable(Bool) COMMENT 'action phase succeeded; null when it did not run or is not recorded',
  action_result_code Nullable(Int32) COMMENT 'action phase result code; null when it did not run or is not recorded',
  in_msg_hash Nullable(String) COMMENT 'hash of the inbound message (edge to messages.msg_hash); null for none',
  out_msg_hashes Array(String) COMMENT 'hashes of the outbound messages in order (edges to the transactions they start)',
  INDEX transactions_hash hash TYPE bloom_filter GRANULARITY 1,
  INDEX transactions_in_msg in_msg_hash TYPE bloom_filter GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (account, lt, hash)
COMMENT 'transactions the processors kept (at least every one touching a STON.fi contract)';

CREATE TABLE IF NOT EXISTS messages
(
  msg_hash String COMMENT 'cell hash of the whole message, lowercase hex: the edge between two transactions',
  direction Enum8('in' = 1, 'out' = 2) COMMENT 'in: consumed by tx_hash; out: sent by tx_hash',
  tx_hash String COMMENT 'the transaction that consumed (in) or sent (out) it',
  tx_lt UInt64 COMMENT 'logical time of that transaction',
  msg_index UInt16 COMMENT '0 for the inbound message, else the position among the outbound messages',
  mc_seqno UInt32 COMMENT 'masterchain block of that transaction',
  utime DateTime('UTC') COMMENT 'time of that transaction',
  source Nullable(String) COMMENT 'sender, raw address; null for external-in messages',
  destination Nullable(String) COMMENT 'receiver, raw address; null for external-out messages (logs)',
  opcode Nullable(UInt32) COMMENT 'first 32 bits of the body; null when the body is shorter',
  value Nullable(UInt256) COMMENT 'attached nanoton; null for external messages',
  fwd_fee Nullable(UInt256) COMMENT 'forwarding fee, nanoton; null for external messages',
  bounce Nullable(Bool) COMMENT 'bounce flag; null for external messages',
  bounced Nullable(Bool) COMMENT 'this message is a bounce; null for external messages',
  created_lt Nullable(UInt64) COMMENT 'logical time of creation; null for external-in messages',
  created_at Nullable(DateTime('UTC')) COMMENT 'creation time set by the sender; null for external-in messages',
  body_boc String COMMENT 'message body as a base64 BOC, exactly as the source gave it (the API re-runs the classifier on it)',
  init_boc Nullable(String) COMMENT 'StateInit carried by the message as a base64 BOC; null when it carries none',
  INDEX messages_tx tx_hash TYPE bloom_filter GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (msg_hash, direction, tx_hash)
COMMENT 'messages of the stored transactions (edges, bodies and init), enough to rebuild each RawTransaction for action trees and transaction queries';

CREATE TABLE IF NOT EXISTS cursor
(
  consumer String COMMENT 'consumer group of the processor that wrote the batch',
  partition_id UInt32 COMMENT 'bus partition the batch came from',
  mc_seqno UInt32 COMMENT 'highest masterchain seqno with stored records of this partition; a restart resumes from it inclusive',
  next_offset UInt64 COMMENT 'bus offset to resume this partition from (last processed + 1)',
  written_at DateTime('UTC') COMMENT 'when the batch was written'
)
ENGINE = ReplacingMergeTree(mc_seqno)
ORDER BY (consumer, partition_id)
COMMENT 'processed position, inserted after the facts of the same batch; the highest mc_seqno per partition wins';
