/**
 * Mapper: RawTransaction (the bus record) → `transactions` and `messages` rows (schemas/facts.ts).
 *
 * Lossless on purpose: api/queries/sql/transactions.ts rebuilds the RawTransaction from these rows
 * (`rawTransactionFromRows`), and the API's action tree re-runs the classifier on the rebuilt bodies, so
 * every field of the record has a column. The one exception is the optional whole-transaction `boc`: no
 * reader needs it (the classifier works on message bodies) and it would roughly double the table size.
 * test/integration/read-model-clickhouse-transactions.test.ts checks the round trip on the mainnet traces.
 */
import type { BlockRow, MessageRow, TransactionRow } from "../../schemas/facts.ts";
import type { RawMessage, RawTransaction } from "../../schemas/raw-transaction.ts";

export type TransactionRows = { transaction: TransactionRow; messages: MessageRow[] };

/** Decimal string → bigint, keeping null. */
const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function messageRow(tx: RawTransaction, m: RawMessage, direction: "in" | "out", index: number): MessageRow {
  return {
    msg_hash: m.hash,
    direction,
    tx_hash: tx.hash,
    tx_lt: BigInt(tx.lt),
    msg_index: index,
    mc_seqno: tx.mc_seqno,
    utime: tx.now,
    source: m.source,
    destination: m.destination,
    opcode: m.opcode,
    value: big(m.value),
    fwd_fee: big(m.fwd_fee),
    bounce: m.bounce,
    bounced: m.bounced,
    created_lt: big(m.created_lt),
    created_at: m.created_at,
    body_boc: m.body_boc,
    init_boc: m.init_boc ?? null,
  };
}

export function transactionRows(tx: RawTransaction): TransactionRows {
  const transaction: TransactionRow = {
    hash: tx.hash,
    lt: BigInt(tx.lt),
    account: tx.account,
    mc_seqno: tx.mc_seqno,
    shard: tx.shard,
    block_seqno: tx.block_seqno,
    utime: tx.now,
    aborted: tx.aborted,
    compute_success: tx.compute.success,
    compute_exit_code: tx.compute.exit_code,
    // A recorded action phase always has both fields; null in both columns means "no action phase".
    action_success: tx.action?.success ?? null,
    action_result_code: tx.action?.result_code ?? null,
    in_msg_hash: tx.in_msg?.hash ?? null,
    out_msg_hashes: tx.out_msgs.map((m) => m.hash),
    // Absent in the record (the source did not say) is null in the row, and back.
    orig_status: tx.orig_status ?? null,
    end_status: tx.end_status ?? null,
    prev_trans_hash: tx.prev_trans_hash ?? null,
    prev_trans_lt: big(tx.prev_trans_lt ?? null),
  };
  const messages = [
    ...(tx.in_msg === null ? [] : [messageRow(tx, tx.in_msg, "in", 0)]),
    // msg_index of an outbound message is its position in out_msgs (0-based): the order is kept.
    ...tx.out_msgs.map((m, i) => messageRow(tx, m, "out", i)),
  ];
  return { transaction, messages };
}

/**
 * The `blocks` row of a masterchain block: its shard blocks are those its transactions name (as
 * `wc:SHARD:seqno`, sorted); empty when the source does not know them (recorded traces).
 */
export function blockRow(block: {
  mc_seqno: number;
  utime: number;
  transactions: readonly RawTransaction[];
}): BlockRow {
  const shardBlocks = new Set<string>();
  for (const tx of block.transactions) {
    if (tx.shard !== null && tx.block_seqno !== null) shardBlocks.add(`${tx.shard}:${tx.block_seqno}`);
  }
  return {
    mc_seqno: block.mc_seqno,
    utime: block.utime,
    tx_count: block.transactions.length,
    shard_blocks: [...shardBlocks].sort(),
  };
}

/** Rows of many transactions, flattened per table (what one `writeBatch` takes). */
export function transactionsRows(txs: readonly RawTransaction[]): {
  transactions: TransactionRow[];
  messages: MessageRow[];
} {
  const transactions: TransactionRow[] = [];
  const messages: MessageRow[] = [];
  for (const tx of txs) {
    const rows = transactionRows(tx);
    transactions.push(rows.transaction);
    for (const m of rows.messages) messages.push(m);
  }
  return { transactions, messages };
}
