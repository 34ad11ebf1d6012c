-- The pool states sorted by time first, for the raw edge of reads of every pool at once (the DEX TVL at an
-- instant: the states after its last hour boundary; measured on the 10M-state bulk store: infra/README.md
-- "Rollups").
--
-- pool_states is sorted by (pool, lt): the states of every pool in one hour lie at the end of each pool's
-- range, so reading them decompresses the state columns of nearly every granule of the month (27 ms for the
-- 4,400 states of one hour). pool_states_by_utime holds the same rows sorted by (utime, pool, lt), so such a
-- range is contiguous. Filled by a view copying each inserted row as it is: rows are only ever inserted, and
-- a copy of a (pool, lt) row is the same state (processors/README.md, batch-independence), so the readers,
-- which keep the greatest lt per pool, answer alike from either table. Reads of a few pools stay on
-- pool_states (by key). Re-running this file after an interruption is harmless: the copies re-insert equal rows.

CREATE TABLE IF NOT EXISTS pool_states_by_utime AS pool_states
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (utime, pool, lt)
COMMENT 'pool_states sorted by time first (a copy: pool_states_copy)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_states_copy TO pool_states_by_utime
AS SELECT * FROM pool_states;

INSERT INTO pool_states_by_utime SELECT * FROM pool_states;
