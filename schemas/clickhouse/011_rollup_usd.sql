-- USD figures in the pool rollups, from the swaps' USD columns (migration 010). Float64 sums: approximate
-- by nature (the raw amounts beside them stay exact). `volume_usd_unknown` counts executed legs without a
-- USD value (rows written before migration 010, or not priced), so a reader knows when a sum is partial.
-- infra/store/rollups.ts re-runs its backfill once (its status name carries the rollup schema), so rows
-- rolled up before this migration get these columns too.
ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS volume_usd Float64 COMMENT 'tracked USD volume of executed legs (swaps.volume_usd)';
ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs (swaps.untracked_volume_usd)';
ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs (swaps.lp_fee_usd)';
ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null (not in volume_usd)';
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS volume_usd Float64 COMMENT 'tracked USD volume of executed legs (swaps.volume_usd)';
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs (swaps.untracked_volume_usd)';
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs (swaps.lp_fee_usd)';
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null (not in volume_usd)';
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS volume_usd Float64 COMMENT 'tracked USD volume of executed legs (swaps.volume_usd)';
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs (swaps.untracked_volume_usd)';
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs (swaps.lp_fee_usd)';
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null (not in volume_usd)';
