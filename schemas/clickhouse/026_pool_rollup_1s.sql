-- The pool rollups at a fourth level, the second: per pool and second with a swap leg, the sums the pool
-- statistics read, the makers' bitmap and the last executed leg, sorted by (bucket, pool).
--
-- A statistics window has bounds at any second, so the parts of it no minute, hour or day row covers (the
-- partial hours of the pool statistics, the partial minutes of the DEX totals) were aggregated from the
-- legs at read time (`swapLegsSql`: swaps FINAL, the legs' orientation, the makers' ids looked up). On the
-- embedded engine most of that cost is analysing the statement, not reading the few thousand legs, and it
-- was paid by every request. These rows are the same aggregates written once by the rollup writer, so a
-- window's edges are a plain range of rows like the other levels (api/queries/sql/stats.ts).
--
-- Written by the rollup writer (infra/store/rollups.ts `rebuildSeconds`) for the minutes a batch's swaps
-- fall in, from the deduplicated legs, with the very aggregates of the minute rows; a re-delivered or
-- retried batch rewrites its seconds and ReplacingMergeTree(version) keeps the newest rewrite. A data dir
-- from before this file fills the table at its next start (rollup_status `pool_seconds:1`).
-- 256-row granules: a window's sub-minute edges are a few dozen rows.

CREATE TABLE IF NOT EXISTS pool_rollup_1s
(
  pool String COMMENT 'pool address',
  bucket DateTime('UTC') COMMENT 'the second of the legs',
  trades UInt64 COMMENT 'executed swap legs (as pool_rollup_1m.trades)',
  not_executed UInt64 COMMENT 'swap legs that failed, were refunded or are not decided',
  volume_a UInt256 COMMENT 'executed legs: token_a amount moved, raw units',
  volume_b UInt256 COMMENT 'executed legs: token_b amount moved, raw units',
  protocol_fee_a UInt256 COMMENT 'protocol fee of executed legs paid in token_a, raw units',
  protocol_fee_b UInt256 COMMENT 'protocol fee of executed legs paid in token_b, raw units',
  protocol_fee_unknown UInt64 COMMENT 'executed legs whose protocol fee is not known',
  referral_fee_a UInt256 COMMENT 'referral fee of executed legs paid in token_a, raw units',
  referral_fee_b UInt256 COMMENT 'referral fee of executed legs paid in token_b, raw units',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'dense ids (wallet_ids) of the makers of executed legs',
  last_trade Tuple(UInt256, UInt256) COMMENT 'the last executed leg of the second by chain order (amount_a, amount_b); (0, 0) without trades',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a second wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMMDD(bucket)
ORDER BY (bucket, pool)
SETTINGS index_granularity = 256
COMMENT 'per pool and second: the swap legs'' statistics sums, makers and last trade (infra/store/rollups.ts)';
