-- USD value of each referral-fee accrual and vault withdrawal at its own transaction: the amount times the
-- fee asset's valuation price (dex/pricing, analytics.md §7.3–§7.4) with the pool states of the instant
-- before the anchoring transaction, as swaps are valued (migration 010). Float64: approximate by nature.
-- Null when the asset is not known or nothing prices it, and on rows written before this migration
-- (unknown, never 0).
ALTER TABLE referral_fees ADD COLUMN IF NOT EXISTS amount_usd Nullable(Float64) COMMENT 'USD value of the fee at its anchoring transaction; null: asset unknown, not priced, or written before migration 019';
ALTER TABLE vault_withdrawals ADD COLUMN IF NOT EXISTS amount_usd Nullable(Float64) COMMENT 'USD value of the withdrawal at its anchoring transaction; null: asset unknown, not priced, or written before migration 019';
-- USD sums in the referral rollups, with counts of the events without a USD value so a reader knows when a
-- sum is partial. Rows rolled up before this migration read their unknown counts as every event (the
-- defaults are computed from the counts): their facts have no USD value, and a rewrite of the bucket from
-- the facts says the same. No backfill is needed.
ALTER TABLE referral_rollup_1m ADD COLUMN IF NOT EXISTS accrued_usd Float64 DEFAULT 0 COMMENT 'USD value of the accruals (referral_fees.amount_usd)';
ALTER TABLE referral_rollup_1m ADD COLUMN IF NOT EXISTS accrued_usd_unknown UInt64 DEFAULT accruals COMMENT 'accruals whose amount_usd is null (not in accrued_usd)';
ALTER TABLE referral_rollup_1m ADD COLUMN IF NOT EXISTS withdrawn_usd Float64 DEFAULT 0 COMMENT 'USD value of the withdrawals (vault_withdrawals.amount_usd)';
ALTER TABLE referral_rollup_1m ADD COLUMN IF NOT EXISTS withdrawn_usd_unknown UInt64 DEFAULT withdrawals COMMENT 'withdrawals whose amount_usd is null (not in withdrawn_usd)';
ALTER TABLE referral_rollup_1h ADD COLUMN IF NOT EXISTS accrued_usd Float64 DEFAULT 0 COMMENT 'USD value of the accruals (referral_fees.amount_usd)';
ALTER TABLE referral_rollup_1h ADD COLUMN IF NOT EXISTS accrued_usd_unknown UInt64 DEFAULT accruals COMMENT 'accruals whose amount_usd is null (not in accrued_usd)';
ALTER TABLE referral_rollup_1h ADD COLUMN IF NOT EXISTS withdrawn_usd Float64 DEFAULT 0 COMMENT 'USD value of the withdrawals (vault_withdrawals.amount_usd)';
ALTER TABLE referral_rollup_1h ADD COLUMN IF NOT EXISTS withdrawn_usd_unknown UInt64 DEFAULT withdrawals COMMENT 'withdrawals whose amount_usd is null (not in withdrawn_usd)';
ALTER TABLE referral_rollup_1d ADD COLUMN IF NOT EXISTS accrued_usd Float64 DEFAULT 0 COMMENT 'USD value of the accruals (referral_fees.amount_usd)';
ALTER TABLE referral_rollup_1d ADD COLUMN IF NOT EXISTS accrued_usd_unknown UInt64 DEFAULT accruals COMMENT 'accruals whose amount_usd is null (not in accrued_usd)';
ALTER TABLE referral_rollup_1d ADD COLUMN IF NOT EXISTS withdrawn_usd Float64 DEFAULT 0 COMMENT 'USD value of the withdrawals (vault_withdrawals.amount_usd)';
ALTER TABLE referral_rollup_1d ADD COLUMN IF NOT EXISTS withdrawn_usd_unknown UInt64 DEFAULT withdrawals COMMENT 'withdrawals whose amount_usd is null (not in withdrawn_usd)';
