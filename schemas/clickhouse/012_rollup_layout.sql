-- Rollup layout for time-range reads (measured on the 10M-swap bulk store: a DEX-wide window read the
-- minute and hour rows of every pool, sorted by pool first, across whole months).
-- * pool rollups are re-created with granules of 256 rows, so a bucket range prunes inside every pool's
--   run of the (pool, bucket) key even without a pool filter (8192-row granules hold several pools, whose
--   boundaries defeat the key analysis); minutes are partitioned by day (a window's partial hours read one
--   or two days), hours and days by month; the columns are those of 009 + 011;
-- * dex_rollup_{1m,1h,1d}: every pool together, keyed by bucket alone, for DEX-wide figures
--   (/v1/stats/dex, the distinct wallets of /v1/stats/pool).
-- infra/store/rollups.ts backfills them at the next start (its status name moves to backfilled:3).
-- Re-running this file after an interruption drops the new tables again: the backfill rebuilds them.

DROP TABLE IF EXISTS pool_rollup_1m;

CREATE TABLE IF NOT EXISTS pool_rollup_1m
(
  pool String COMMENT 'pool address',
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address (any row of the bucket)',
  token_a String COMMENT 'the lesser of the pool''s two router wallets (as strings)',
  token_b String COMMENT 'the greater one',
  trades UInt64 COMMENT 'executed swap legs (the pool paid an output); a multi-hop route counts once per pool it crosses',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
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
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs (swaps.volume_usd)',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs (swaps.untracked_volume_usd)',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs (swaps.lp_fee_usd)',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null (not in volume_usd)',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMMDD(bucket)
ORDER BY (pool, bucket)
SETTINGS index_granularity = 256
COMMENT 'per pool per minute, recomputed from swaps FINAL (infra/store/rollups.ts)';

DROP TABLE IF EXISTS pool_rollup_1h;

CREATE TABLE IF NOT EXISTS pool_rollup_1h
(
  pool String COMMENT 'pool address',
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address (any row of the bucket)',
  token_a String COMMENT 'the lesser of the pool''s two router wallets (as strings)',
  token_b String COMMENT 'the greater one',
  trades UInt64 COMMENT 'executed swap legs (the pool paid an output); a multi-hop route counts once per pool it crosses',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
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
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs (swaps.volume_usd)',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs (swaps.untracked_volume_usd)',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs (swaps.lp_fee_usd)',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null (not in volume_usd)',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (pool, bucket)
SETTINGS index_granularity = 256
COMMENT 'per pool per hour, recomputed from pool_rollup_1m FINAL';

DROP TABLE IF EXISTS pool_rollup_1d;

CREATE TABLE IF NOT EXISTS pool_rollup_1d
(
  pool String COMMENT 'pool address',
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address (any row of the bucket)',
  token_a String COMMENT 'the lesser of the pool''s two router wallets (as strings)',
  token_b String COMMENT 'the greater one',
  trades UInt64 COMMENT 'executed swap legs (the pool paid an output); a multi-hop route counts once per pool it crosses',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
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
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs (swaps.volume_usd)',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs (swaps.untracked_volume_usd)',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs (swaps.lp_fee_usd)',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null (not in volume_usd)',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (pool, bucket)
SETTINGS index_granularity = 256
COMMENT 'per pool per day, recomputed from pool_rollup_1h FINAL';

CREATE TABLE IF NOT EXISTS dex_rollup_1m
(
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  trades UInt64 COMMENT 'executed swap legs over every pool',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
  wallets AggregateFunction(uniqExact, String) COMMENT 'distinct makers of executed legs over every pool',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY bucket
COMMENT 'every pool per minute, recomputed from swaps FINAL';

CREATE TABLE IF NOT EXISTS dex_rollup_1h
(
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  trades UInt64 COMMENT 'executed swap legs over every pool',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
  wallets AggregateFunction(uniqExact, String) COMMENT 'distinct makers of executed legs over every pool',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY bucket
COMMENT 'every pool per hour, recomputed from dex_rollup_1m FINAL';

CREATE TABLE IF NOT EXISTS dex_rollup_1d
(
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  trades UInt64 COMMENT 'executed swap legs over every pool',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
  wallets AggregateFunction(uniqExact, String) COMMENT 'distinct makers of executed legs over every pool',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY bucket
COMMENT 'every pool per day, recomputed from dex_rollup_1h FINAL';
