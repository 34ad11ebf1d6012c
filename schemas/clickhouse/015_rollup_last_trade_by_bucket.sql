-- Rollup reads of every pool at once (/v1/stats/pool without a pool; measured on the 10M-swap bulk store:
-- infra/README.md "Rollups").
--
-- * last_trade: each pool rollup row's close as plain (amount_a, amount_b), computed from `close` by the
--   engine on every insert and merge (MATERIALIZED: no writer names it, so it cannot disagree with close).
--   A window's last trade of a pool is the last_trade of its latest row with trades (a pool's trades are in
--   chain order in time), so the all-pools read reads 64 bytes a row instead of merging argMax states,
--   whose key holds the leg id. Existing parts get it by the MATERIALIZE mutations below (until then the
--   engine computes it when reading).
-- * pool_rollup_1h_by_bucket: the hour rows again, sorted by (bucket, pool). A window's partial days are
--   hour ranges of every pool: sorted by pool first they lie in ~2 granules per pool and part (1.3M rows
--   read for 16,000 wanted), sorted by bucket first they are one contiguous range. Filled from
--   pool_rollup_1h by a view that copies each inserted row as it is (same key, same version): it counts
--   nothing, so a re-delivered rewrite leaves what FINAL reads equal in both tables. Readers use FINAL.
-- Re-running this file after an interruption is harmless: the copy re-inserts equal rows, which the
-- ReplacingMergeTree collapses.

ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS last_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(close) COMMENT 'the close as plain (amount_a, amount_b): the last executed leg of the bucket; (0, 0) without trades' AFTER close;
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS last_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(close) COMMENT 'the close as plain (amount_a, amount_b): the last executed leg of the bucket; (0, 0) without trades' AFTER close;
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS last_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(close) COMMENT 'the close as plain (amount_a, amount_b): the last executed leg of the bucket; (0, 0) without trades' AFTER close;

ALTER TABLE pool_rollup_1h MATERIALIZE COLUMN last_trade SETTINGS mutations_sync = 2;
ALTER TABLE pool_rollup_1d MATERIALIZE COLUMN last_trade SETTINGS mutations_sync = 2;
ALTER TABLE pool_rollup_1m MATERIALIZE COLUMN last_trade SETTINGS mutations_sync = 2;

CREATE TABLE IF NOT EXISTS pool_rollup_1h_by_bucket AS pool_rollup_1h
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (bucket, pool)
COMMENT 'pool_rollup_1h sorted by time first, for reads of every pool (a copy: pool_rollup_1h_copy)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_rollup_1h_copy TO pool_rollup_1h_by_bucket
AS SELECT * FROM pool_rollup_1h;

INSERT INTO pool_rollup_1h_by_bucket SELECT * FROM pool_rollup_1h;
