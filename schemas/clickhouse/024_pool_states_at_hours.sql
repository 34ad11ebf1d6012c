-- Every pool's state at each hour boundary, dense: one row per pool and boundary, the pool's last state at or
-- before that instant (whenever it happened), so the state of every pool at an instant is one boundary's rows
-- plus the raw states since it.
--
-- The state at an instant of every pool read, per pool, the day rows of a 7-day look-back, the hour rows since
-- the last day boundary and the raw states since the last hour boundary (about 43,000 rows on the 10M-swap
-- bulk store for 1,200 pools), and the pools quiet for the whole look-back apart: /v1/stats/dex and the TVL
-- history spent most of their time there. Here it is 1,200 rows and the raw states of at most one hour.
--
-- Written by the rollup writer (infra/store/rollups.ts `advanceStateSnapshots`) from the hour rows, in chain
-- order: the rows of a boundary are those of the boundary before it, each replaced by the pool's hour row at
-- this boundary when it has one. rollup_status `state_snapshots` holds the last boundary written in full; a
-- late or re-delivered state rewrites every boundary from its own up to that one. ReplacingMergeTree(lt): a
-- rewrite only ever brings a state with an lt at least as great (states are never removed), so the rows kept
-- are the newest computation's. Filled for existing data at the next start (a progress line).
--
-- A rewrite of a boundary counts as a change of state at that boundary for the kept DEX TVL points
-- (migration 020: pool_state_hours_written), as a rewrite of its hour rows does.

CREATE TABLE IF NOT EXISTS pool_state_at_hour AS pool_state_rollup_1h
ENGINE = ReplacingMergeTree(lt)
PARTITION BY toYYYYMM(at)
ORDER BY (at, pool)
COMMENT 'per hour boundary and pool: the pool''s last state at or before the boundary, dense (infra/store/rollups.ts)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_state_at_hour_written_mv TO pool_state_hours_written AS
SELECT at, max(toUInt64(toUnixTimestamp64Micro(now64(6)))) AS written FROM pool_state_at_hour GROUP BY at;
