-- The priced swap legs per hour boundary, for the VWAP clamp of the API's prices (analytics.md §7.4,
-- api/queries/sql/pricing.ts): the clamp of a price at t reads each token's trades against a quote in
-- (t − 1 h, t]. Read from the raw legs, the windows of a 30-day history (one per point) cost 40-60 ms on the
-- 10M-swap bulk store; these rows answer an hour-aligned window with one key range.
--
-- A row sums the executed legs with utime in (at − 1 h, at] of one (offer, ask) pair of jetton masters whose
-- amounts are both positive and whose volume_usd is positive (the quote side at its price when one side is a
-- quote); which side is the quote is the reader's pricing configuration. Rows are rewritten from `swaps FINAL`
-- for every boundary a batch touches (infra/store/rollups.ts), so re-delivery counts nothing twice; a pair
-- whose legs left a boundary (a batch retried with other contents) is rewritten with zeros. Existing data
-- dirs are filled at the next start (prepareRollups, with progress lines).

CREATE TABLE IF NOT EXISTS priced_pairs_1h
(
  at DateTime('UTC') COMMENT 'hour boundary: the legs with utime in (at − 1 h, at]',
  offer_master String COMMENT 'jetton master of the offered asset (pTON master for TON)',
  ask_master String COMMENT 'jetton master of the asked asset',
  amount_in UInt256 COMMENT 'Σ amount_in, raw units of the offer asset',
  amount_out UInt256 COMMENT 'Σ amount_out, raw units of the ask asset',
  volume_usd Float64 COMMENT 'Σ volume_usd',
  trades UInt64 COMMENT 'legs summed; 0: the pair has none at this boundary any more',
  version UInt64 COMMENT 'engine clock in microseconds at the rewrite (the newest wins)'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(at)
ORDER BY (at, offer_master, ask_master)
COMMENT 'priced executed swap legs per hour boundary and asset pair (infra/store/rollups.ts)';
