-- The export feed reads operations by masterchain block (`mc_seqno BETWEEN from AND to`), which is not a
-- prefix of their sorting keys; mc_seqno grows with utime, so a minmax skip index per granule lets a block
-- range skip most of the table. Parts written before this migration are read whole until merged.
ALTER TABLE swaps ADD INDEX IF NOT EXISTS swaps_mc_seqno mc_seqno TYPE minmax GRANULARITY 1;
ALTER TABLE liquidity ADD INDEX IF NOT EXISTS liquidity_mc_seqno mc_seqno TYPE minmax GRANULARITY 1;
