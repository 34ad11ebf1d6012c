-- Distinct makers as bitmaps of dense wallet ids, and the pools' states per hour and day.
--
-- * wallet_ids: every maker (swapLegsSql's `wallet`) gets a dense UInt32 id the first time a rollup rebuild
--   meets it (infra/store/rollups.ts `assignWalletIds`: only wallets without an id get the next ids, so a
--   re-delivered batch gives nobody a second id; the processor is the only writer, processors/README.md).
-- * The rollups' distinct makers become AggregateFunction(groupBitmap, UInt32) (`wallet_bitmap`, replacing
--   the uniqExact hash sets `wallets`): still exact, and a 30-day window merges about 30 roaring bitmaps
--   instead of 30 hash sets of 128-bit string hashes (measured on the 10M-swap bulk store: infra/README.md).
-- * pool_state_rollup_{1h,1d}: per pool and boundary `at` (epoch aligned), the pool's last state with
--   utime in (at − step, at], i.e. its state at the instant `at` when it had a transaction in that step;
--   recomputed from pool_states FINAL for the buckets a batch touches. The TVL history reads them instead
--   of scanning pool_states.
-- infra/store/rollups.ts backfills all of it at the next start (its status name moves to backfilled:4).

CREATE TABLE IF NOT EXISTS wallet_ids
(
  wallet String COMMENT 'maker address (maker, else route sender, else sender), raw',
  id UInt32 COMMENT 'dense id from 1, in order of first assignment'
)
ENGINE = ReplacingMergeTree
ORDER BY wallet
COMMENT 'dense ids of the makers, for exact distinct counts as bitmaps in the rollups';

ALTER TABLE pool_rollup_1m DROP COLUMN IF EXISTS wallets;
ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs, as wallet_ids ids' AFTER referral_fee_b;
ALTER TABLE pool_rollup_1h DROP COLUMN IF EXISTS wallets;
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs, as wallet_ids ids' AFTER referral_fee_b;
ALTER TABLE pool_rollup_1d DROP COLUMN IF EXISTS wallets;
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs, as wallet_ids ids' AFTER referral_fee_b;
ALTER TABLE dex_rollup_1m DROP COLUMN IF EXISTS wallets;
ALTER TABLE dex_rollup_1m ADD COLUMN IF NOT EXISTS wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs over every pool, as wallet_ids ids' AFTER not_executed;
ALTER TABLE dex_rollup_1h DROP COLUMN IF EXISTS wallets;
ALTER TABLE dex_rollup_1h ADD COLUMN IF NOT EXISTS wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs over every pool, as wallet_ids ids' AFTER not_executed;
ALTER TABLE dex_rollup_1d DROP COLUMN IF EXISTS wallets;
ALTER TABLE dex_rollup_1d ADD COLUMN IF NOT EXISTS wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs over every pool, as wallet_ids ids' AFTER not_executed;

CREATE TABLE IF NOT EXISTS pool_state_rollup_1h
(
  pool String COMMENT 'pool address',
  at DateTime('UTC') COMMENT 'the boundary (epoch aligned): this row is the pool''s state at this instant',
  lt UInt64 COMMENT 'logical time of the pool transaction that produced the state (the last one in (at - step, at])',
  utime DateTime('UTC') COMMENT 'time of that transaction',
  pool_type Enum8('v1_constant_product' = 1, 'v2_constant_product' = 2, 'v2_stableswap' = 3, 'v2_weighted_const_product' = 4, 'v2_weighted_stableswap' = 5, 'v2_constant_sum' = 6) COMMENT 'AMM curve (dex/amm/types.ts)',
  reserve0 UInt256 COMMENT 'token0 reserve, raw units',
  reserve1 UInt256 COMMENT 'token1 reserve, raw units',
  lp_supply UInt256 COMMENT 'LP total supply, raw units',
  lp_fee_bps UInt16 COMMENT 'LP fee, basis points',
  protocol_fee_bps UInt16 COMMENT 'protocol fee, basis points',
  ref_fee_bps UInt16 COMMENT 'v1 stored referral fee, basis points (0 for v2)',
  collected_protocol_fee0 UInt256 COMMENT 'token0 protocol fees collected and not yet withdrawn',
  collected_protocol_fee1 UInt256 COMMENT 'token1 protocol fees collected and not yet withdrawn',
  is_locked Bool COMMENT 'v2 pool lock (false for v1)',
  amp UInt256 COMMENT 'stableswap amplification; else 0',
  rate UInt256 COMMENT 'weighted_stableswap price rate, 18-decimal fixed point; else 0',
  w0 UInt256 COMMENT 'weighted pools: token0 weight, 18-decimal fixed point; else 0'
)
ENGINE = ReplacingMergeTree(lt)
PARTITION BY toYYYYMM(at)
ORDER BY (pool, at)
SETTINGS index_granularity = 256
COMMENT 'per pool per hour: the last state, recomputed from pool_states FINAL (infra/store/rollups.ts)';

CREATE TABLE IF NOT EXISTS pool_state_rollup_1d AS pool_state_rollup_1h
ENGINE = ReplacingMergeTree(lt)
PARTITION BY toYear(at)
ORDER BY (pool, at)
SETTINGS index_granularity = 256
COMMENT 'per pool per day: the last state, recomputed from pool_state_rollup_1h FINAL';
