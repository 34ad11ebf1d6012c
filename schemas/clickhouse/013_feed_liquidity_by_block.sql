-- The export feed reads a block range of joins and exits (api/queries/sql/feed.ts). `liquidity` is sorted by
-- pool first, so its granules span months and the mc_seqno skip index (007) skips almost none: a
-- 1,000-block range read most of the table (75 ms of the feed's ~100 ms on 0.9M rows). This copy of the
-- mints and withdrawals is sorted by block. Same rows, same deduplication: a materialized view copies every
-- inserted mint/withdraw row as it is inserted (no filter on anything that can change), so for each `id`
-- (whose pool, time and block never change) the last insert wins here as in `liquidity`, and FINAL gives
-- the same row. Existing rows are copied from `liquidity FINAL` (as every migration, at startup, before
-- the processors write; a re-run copies the same rows again, which deduplication removes).
CREATE TABLE IF NOT EXISTS liquidity_by_block
(
  id String COMMENT 'liquidity.id',
  tx_hash String COMMENT 'liquidity.tx_hash: the anchoring pool transaction',
  lt UInt64 COMMENT 'liquidity.lt',
  mc_seqno UInt32 COMMENT 'liquidity.mc_seqno',
  utime DateTime('UTC') COMMENT 'liquidity.utime',
  kind Enum8('provide' = 1, 'mint' = 2, 'withdraw' = 3) COMMENT 'liquidity.kind (mint or withdraw only)',
  pool String COMMENT 'liquidity.pool',
  owner Nullable(String) COMMENT 'liquidity.owner',
  withdraw_kind Nullable(Enum8('burn' = 1, 'lp_refund' = 2)) COMMENT 'liquidity.withdraw_kind',
  amount0 UInt256 COMMENT 'liquidity.amount0',
  amount1 UInt256 COMMENT 'liquidity.amount1',
  asset0_kind Nullable(Enum8('jetton' = 1, 'ton' = 2)) COMMENT 'liquidity.asset0_kind',
  asset0_master Nullable(String) COMMENT 'liquidity.asset0_master',
  asset0_router_wallet Nullable(String) COMMENT 'liquidity.asset0_router_wallet',
  asset1_kind Nullable(Enum8('jetton' = 1, 'ton' = 2)) COMMENT 'liquidity.asset1_kind',
  asset1_master Nullable(String) COMMENT 'liquidity.asset1_master',
  asset1_router_wallet Nullable(String) COMMENT 'liquidity.asset1_router_wallet',
  success Nullable(Bool) COMMENT 'liquidity.success',
  maker Nullable(String) COMMENT 'liquidity.maker (008)',
  reserve0_after Nullable(UInt256) COMMENT 'liquidity.reserve0_after (008)',
  reserve1_after Nullable(UInt256) COMMENT 'liquidity.reserve1_after (008)'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (mc_seqno, id)
COMMENT 'mints and withdrawals of liquidity, sorted by block for the export feed (filled by liquidity_by_block_mv)';

CREATE MATERIALIZED VIEW IF NOT EXISTS liquidity_by_block_mv TO liquidity_by_block AS
SELECT id, tx_hash, lt, mc_seqno, utime, kind, pool, owner, withdraw_kind, amount0, amount1, asset0_kind,
  asset0_master, asset0_router_wallet, asset1_kind, asset1_master, asset1_router_wallet, success, maker,
  reserve0_after, reserve1_after
FROM liquidity
WHERE kind IN ('mint', 'withdraw');

INSERT INTO liquidity_by_block
SELECT id, tx_hash, lt, mc_seqno, utime, kind, pool, owner, withdraw_kind, amount0, amount1, asset0_kind,
  asset0_master, asset0_router_wallet, asset1_kind, asset1_master, asset1_router_wallet, success, maker,
  reserve0_after, reserve1_after
FROM liquidity FINAL
WHERE kind IN ('mint', 'withdraw');
