-- The DEX TVL at hour boundaries, kept once computed (api/queries/tvl.ts), and what tells a kept value from a
-- stale one.
--
-- /v1/stats/tvl priced every pool's state at each boundary of its window on every request (30 daily points:
-- ~35,000 state rows read and priced, ~245 ms on the 10M-swap bulk store). A point is a function of the
-- pools' states at that instant, the pricing configuration and the listed pools' tokens: the API keeps each
-- point it computes, with fingerprints of the configuration and of the listed pools, and the engine time it
-- read the states at; a kept point answers again while nothing it depends on changed since.
--
-- A change of state is seen through the hour rows of the state rollups: every state a batch writes rewrites
-- its hour row (infra/store/rollups.ts), whose boundary `at` is the first one the state is part of. A view
-- keeps, per hour boundary, the last time such a row was written: a point at t computed at c is stale once an
-- hour row with at <= t was written after c (a late or re-delivered state, a backfill). Which listed pools
-- a point depends on comes from each pool's first day row (a view too; the minimum never changes under
-- re-delivery).
-- Re-running this file after an interruption is harmless: the first-day copy re-inserts equal minima.

CREATE TABLE IF NOT EXISTS dex_tvl_1h
(
  pricing String COMMENT 'fingerprint of the pricing configuration and of the TVL rules (api/queries/tvl.ts)',
  at DateTime('UTC') COMMENT 'hour boundary: the DEX TVL at this instant',
  catalogue UInt64 COMMENT 'fingerprint of the listed pools (address, tokens, deprecated) with a day row at or before the end of at''s day',
  tvl_usd Nullable(Float64) COMMENT 'tracked DEX TVL, USD; null when no pool could be valued',
  untracked_tvl_usd Nullable(Float64) COMMENT 'value left out by the jetton/jetton guard, USD; null as tvl_usd',
  computed UInt64 COMMENT 'engine clock in microseconds before the states were read'
)
ENGINE = ReplacingMergeTree(computed)
ORDER BY (pricing, at)
COMMENT 'the DEX TVL per hour boundary as the API computed it (api/queries/tvl.ts)';

CREATE TABLE IF NOT EXISTS pool_state_hours_written
(
  at DateTime('UTC') COMMENT 'hour boundary of pool_state_rollup_1h rows',
  written SimpleAggregateFunction(max, UInt64) COMMENT 'engine clock in microseconds when a row of that boundary was last written'
)
ENGINE = AggregatingMergeTree
ORDER BY at
COMMENT 'when each hour of the state rollups was last rewritten (kept DEX TVL points older than that are stale)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_state_hours_written_mv TO pool_state_hours_written AS
SELECT at, max(toUInt64(toUnixTimestamp64Micro(now64(6)))) AS written FROM pool_state_rollup_1h GROUP BY at;

CREATE TABLE IF NOT EXISTS pool_first_state_day
(
  pool String COMMENT 'pool address',
  first_day SimpleAggregateFunction(min, DateTime('UTC')) COMMENT 'its earliest pool_state_rollup_1d boundary'
)
ENGINE = AggregatingMergeTree
ORDER BY pool
COMMENT 'the first day each pool has a state (which pools a kept DEX TVL point depends on)';

CREATE MATERIALIZED VIEW IF NOT EXISTS pool_first_state_day_mv TO pool_first_state_day AS
SELECT pool, min(at) AS first_day FROM pool_state_rollup_1d GROUP BY pool;

INSERT INTO pool_first_state_day SELECT pool, min(at) AS first_day FROM pool_state_rollup_1d GROUP BY pool;
