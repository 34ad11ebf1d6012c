-- The day rows of the pool rollups sorted by time first, for the whole days of reads of every pool
-- (/v1/stats/pool without a pool; measured on the 10M-swap bulk store: infra/README.md "Rollups").
--
-- pool_rollup_1d is sorted by (pool, bucket): a pool's run of day rows is shorter than a granule, so a
-- 30-day window of every pool read nearly the whole table (every day of every pool, each rewrite of a day
-- not yet merged away), and FINAL deduplicated all of it. pool_rollup_1d_by_bucket holds the same rows
-- sorted by (bucket, pool), so the window's days are one contiguous range. Filled by a view copying each
-- inserted row as it is (same key, same version), as 015 copies the hour rows: it counts nothing, so a
-- re-delivered rewrite leaves what FINAL reads equal in both tables. Readers use FINAL. Reads of one pool
-- keep the table sorted by pool. Re-running this file after an interruption is harmless: the copy
-- re-inserts equal rows, which the ReplacingMergeTree collapses.

CREATE TABLE IF NOT EXISTS pool_rollup_1d_by_bucket AS pool_rollup_1d
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY (bucket, pool)
SETTINGS index_granularity = 256
COMMENT 'pool_rollup_1d sorted by time first, for reads of every pool (a copy: pool_rollup_1d_copy)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_rollup_1d_copy TO pool_rollup_1d_by_bucket
AS SELECT * FROM pool_rollup_1d;

INSERT INTO pool_rollup_1d_by_bucket SELECT * FROM pool_rollup_1d;
