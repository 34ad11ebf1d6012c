-- Every pool's running totals at each hour boundary, dense: per pool and boundary, the sums of every swap leg
-- before that instant (trades, volumes, fees, USD), so the totals of a window's whole hours are two
-- boundaries' rows subtracted.
--
-- The statistics of every pool (/v1/stats/pool without a pool) summed, per pool, the hour rows of the window's
-- partial days and the day rows of the rest: about 36,000 day rows and up to 46 hours of hour rows for 1,200
-- pools over 30 days, deduplicated by FINAL. Here it is two boundaries' rows, about 2,400, and the partial
-- hours at both ends from the legs as before. The distinct makers cannot be subtracted: a read that counts
-- them keeps the hour and day rows.
--
-- Written by the rollup writer (infra/store/rollups.ts `advancePoolSums`) from the hour rows, in time order:
-- the row of a boundary is the pool's row at the boundary before plus its hour row ending at this boundary.
-- rollup_status `pool_sums` holds the last boundary written in full; a late or re-delivered leg rewrites
-- every boundary after its hour up to that one. ReplacingMergeTree(version): the newest rewrite wins.
--
-- Units as in the rollups (009, 011): raw amounts UInt256, exact. The USD sums are Float64, as the hour rows'
-- (no fixed-point type holds them: the bulk store has legs of 1e137 USD). Each boundary's sum is the one
-- before plus one float addition per hour row (`hours` counts them), so the difference of two boundaries is
-- off by at most (the additions between them + 1) · 2^-53 · the later sum; the reader takes a pool's window
-- from its hour and day rows instead when that bound is not below 1e-9 of the window's value plus 1e-6 USD
-- (a leg of absurd USD value before the window, months of millions before a few cents).

CREATE TABLE IF NOT EXISTS pool_sums_at_hour
(
  at DateTime('UTC') COMMENT 'hour boundary: the sums are of the legs with utime before it',
  pool String COMMENT 'pool address',
  trades UInt64 COMMENT 'executed swap legs (as pool_rollup_1m.trades)',
  not_executed UInt64 COMMENT 'swap legs that failed, were refunded or are not decided',
  volume_a UInt256 COMMENT 'executed legs: token_a amount moved, raw units',
  volume_b UInt256 COMMENT 'executed legs: token_b amount moved, raw units',
  protocol_fee_a UInt256 COMMENT 'protocol fee of executed legs paid in token_a, raw units',
  protocol_fee_b UInt256 COMMENT 'protocol fee of executed legs paid in token_b, raw units',
  protocol_fee_unknown UInt64 COMMENT 'executed legs whose protocol fee is not known',
  referral_fee_a UInt256 COMMENT 'referral fee of executed legs paid in token_a, raw units',
  referral_fee_b UInt256 COMMENT 'referral fee of executed legs paid in token_b, raw units',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  last_trade Tuple(UInt256, UInt256) COMMENT 'the last executed leg before the boundary (amount_a, amount_b); (0, 0) without trades',
  last_trade_hour DateTime('UTC') COMMENT 'start of the hour of that leg; 0 without trades',
  hours UInt32 COMMENT 'hour rows added up to this boundary: the float additions behind each USD sum',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a boundary wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(at)
ORDER BY (at, pool)
COMMENT 'per hour boundary and pool: the sums of the pool''s legs before it, dense (infra/store/rollups.ts)';
