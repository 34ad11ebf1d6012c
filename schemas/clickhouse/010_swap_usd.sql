-- USD value of each executed swap leg, priced with the pool states of the instant before it
-- (dex/pricing, shared/reference/analytics.md §7.5; api/README.md "Pricing"). Float64: approximate by nature.
-- Null when the leg did not execute (refused, refunded, or not decided in its batch), and on rows written
-- before this migration (unknown, never 0).
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS volume_usd Nullable(Float64) COMMENT 'tracked USD volume of the executed leg (§7.5); 0 when untracked; null: not executed or not priced (rows before migration 010)';
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS untracked_volume_usd Nullable(Float64) COMMENT 'untracked leg: its low-confidence USD estimate (null: no price at all); 0 for a tracked leg; null when not executed';
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS lp_fee_usd Nullable(Float64) COMMENT 'LP fee in USD: volume_usd × the pool''s lp_fee_bps / 10^4 at the swap; null with volume_usd or when the pool fee is unknown';
