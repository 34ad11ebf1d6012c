-- The pools' states per hour and day sorted by time first, for reads of every pool at once (the DEX TVL at
-- an instant and its history; measured on the 10M-swap bulk store: infra/README.md "Rollups").
--
-- pool_state_rollup_{1h,1d} are sorted by (pool, at): a time range of every pool lies in pieces spread over
-- the whole table (the 7-day look-back of the state at an instant read all 110,000 day rows for 8,400).
-- pool_state_rollup_{1h,1d}_by_at hold the same rows sorted by (at, pool), so such a range is contiguous.
-- Filled by views copying each inserted row as it is (same key, same lt): they count nothing, and the readers
-- keep the greatest lt per pool and boundary either way, so both tables answer alike under re-delivery.
-- Reads of a few pools (one pool's TVL history) stay on the tables sorted by pool.
-- Re-running this file after an interruption is harmless: the copies re-insert equal rows.

CREATE TABLE IF NOT EXISTS pool_state_rollup_1h_by_at AS pool_state_rollup_1h
ENGINE = ReplacingMergeTree(lt)
PARTITION BY toYYYYMM(at)
ORDER BY (at, pool)
COMMENT 'pool_state_rollup_1h sorted by time first (a copy: pool_state_rollup_1h_copy)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_state_rollup_1h_copy TO pool_state_rollup_1h_by_at
AS SELECT * FROM pool_state_rollup_1h;

INSERT INTO pool_state_rollup_1h_by_at SELECT * FROM pool_state_rollup_1h;

CREATE TABLE IF NOT EXISTS pool_state_rollup_1d_by_at AS pool_state_rollup_1d
ENGINE = ReplacingMergeTree(lt)
PARTITION BY toYear(at)
ORDER BY (at, pool)
COMMENT 'pool_state_rollup_1d sorted by time first (a copy: pool_state_rollup_1d_copy)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_state_rollup_1d_copy TO pool_state_rollup_1d_by_at
AS SELECT * FROM pool_state_rollup_1d;

INSERT INTO pool_state_rollup_1d_by_at SELECT * FROM pool_state_rollup_1d;
