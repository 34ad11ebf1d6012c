-- Rollups for the statistics and candle routes: per pool (and per referrer) per minute, hour and day.
--
-- Design: "recompute dirty buckets" (infra/README.md "Rollups"), not materialized views. A view counts
-- what is INSERTED, and the pipeline inserts a row more than once (a batch re-delivered after a crash, an
-- operation re-emitted in a differently composed batch with other contents: shared/reference/analytics.md
-- §5.2). Here a rollup row is a pure function of the deduplicated facts (`swaps FINAL`, ...) of its bucket:
-- infra/store/rollups.ts rewrites every bucket a batch touched, after the batch's facts and before its
-- cursor, and ReplacingMergeTree(version) keeps the newest rewrite. Hours are rebuilt from minutes, days
-- from hours. Readers use FINAL (the key is (pool, bucket)).
--
-- Columns: token_a / token_b are the two router wallets of the pool ordered as strings (a swap row names
-- both), so a bucket is self-contained without a join on `pools`; the API maps them to token0/token1.
-- Amounts are UInt256 and exact. Candle open/close keep the first/last executed trade's (amount_a, amount_b)
-- by chain order (mc_seqno, lt, id); high/low are Float64 prices (token_b units per token_a unit, raw).

CREATE TABLE IF NOT EXISTS pool_rollup_1m
(
  pool String COMMENT 'pool address',
  bucket DateTime('UTC') COMMENT 'start of the minute (UTC, epoch aligned)',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address (any row of the bucket)',
  token_a String COMMENT 'the lesser of the pool''s two router wallets (as strings)',
  token_b String COMMENT 'the greater one',
  trades UInt64 COMMENT 'executed swap legs (success = true); a multi-hop route counts once per pool it crosses',
  not_executed UInt64 COMMENT 'swap legs that failed, were refunded or are not decided',
  volume_a UInt256 COMMENT 'executed legs: token_a amount moved (amount_in when token_a was offered, else amount_out), raw units',
  volume_b UInt256 COMMENT 'executed legs: token_b amount moved, raw units',
  protocol_fee_a UInt256 COMMENT 'protocol fee of executed legs paid in token_a (the ask side), raw units',
  protocol_fee_b UInt256 COMMENT 'protocol fee of executed legs paid in token_b, raw units',
  protocol_fee_unknown UInt64 COMMENT 'executed legs whose protocol fee is not known (not in the sums above)',
  referral_fee_a UInt256 COMMENT 'referral fee of executed legs paid in token_a, raw units',
  referral_fee_b UInt256 COMMENT 'referral fee of executed legs paid in token_b, raw units',
  wallets AggregateFunction(uniqExact, String) COMMENT 'distinct makers of executed legs (maker, else route sender, else sender)',
  open AggregateFunction(argMin, Tuple(UInt256, UInt256), Tuple(UInt32, UInt64, String)) COMMENT 'first executed leg (amount_a, amount_b) by (mc_seqno, lt, id)',
  close AggregateFunction(argMax, Tuple(UInt256, UInt256), Tuple(UInt32, UInt64, String)) COMMENT 'last executed leg (amount_a, amount_b) by (mc_seqno, lt, id)',
  high Nullable(Float64) COMMENT 'highest amount_b / amount_a of an executed leg; null: no priced leg',
  low Nullable(Float64) COMMENT 'lowest amount_b / amount_a of an executed leg; null: no priced leg',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (pool, bucket)
COMMENT 'per pool per minute, recomputed from swaps FINAL (infra/store/rollups.ts)';

CREATE TABLE IF NOT EXISTS pool_rollup_1h AS pool_rollup_1m
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (pool, bucket)
COMMENT 'per pool per hour, recomputed from pool_rollup_1m FINAL';

CREATE TABLE IF NOT EXISTS pool_rollup_1d AS pool_rollup_1m
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(bucket)
ORDER BY (pool, bucket)
COMMENT 'per pool per day, recomputed from pool_rollup_1h FINAL';

CREATE TABLE IF NOT EXISTS referral_rollup_1m
(
  referrer String COMMENT 'referral address (v1 payee, v2 vault owner)',
  bucket DateTime('UTC') COMMENT 'start of the minute',
  asset_router_wallet String COMMENT 'router wallet of the fee asset ('''' when not known)',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  asset_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'fee asset kind',
  asset_master Nullable(String) COMMENT 'jetton master of the fee asset when known',
  accrued UInt256 COMMENT 'referral fees accrued (v1 direct payments and v2 vault deposits that happened), raw units',
  accruals UInt64 COMMENT 'number of those accruals',
  withdrawn UInt256 COMMENT 'v2 vault withdrawals that happened, raw units',
  withdrawals UInt64 COMMENT 'number of those withdrawals',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (referrer, bucket, asset_router_wallet)
COMMENT 'per referrer and fee asset per minute, recomputed from referral_fees FINAL and vault_withdrawals FINAL';

CREATE TABLE IF NOT EXISTS referral_rollup_1h AS referral_rollup_1m
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (referrer, bucket, asset_router_wallet)
COMMENT 'per referrer and fee asset per hour';

CREATE TABLE IF NOT EXISTS referral_rollup_1d AS referral_rollup_1m
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(bucket)
ORDER BY (referrer, bucket, asset_router_wallet)
COMMENT 'per referrer and fee asset per day';

-- Whether the rollups cover every fact written before they existed: infra/store/rollups.ts backfills them
-- once at start (a data dir from an older schema) and then records `backfilled`.
CREATE TABLE IF NOT EXISTS rollup_status
(
  name String COMMENT 'what is recorded (backfilled)',
  value UInt64 COMMENT '1: done',
  written_at DateTime('UTC') COMMENT 'when'
)
ENGINE = ReplacingMergeTree(written_at)
ORDER BY name
COMMENT 'rollup bookkeeping';
