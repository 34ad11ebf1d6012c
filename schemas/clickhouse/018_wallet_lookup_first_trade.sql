-- Cheaper window edges, DEX-wide minute/hour reads and candles (measured on the 10M-swap bulk store:
-- infra/README.md "Rollups").
--
-- * wallet_id_lookup: wallet_ids again in an EmbeddedRocksDB table keyed by address. A window's raw edges (and
--   each minute rebuild) named their makers' ids by joining wallet_ids on the makers of a second read of the
--   same swaps (~20 ms of a ~30 ms edge read); a LEFT JOIN on this table's primary key is a key lookup per
--   maker (the `direct` join algorithm). On disk (18 MiB for the 10M-swap bulk store's 246,363 makers): a
--   Join table, as fast, held every maker in memory, about 200 bytes each (~1.1 GiB at STON.fi's ~5.7M).
--   RocksDB writes through its log, so an insert that returned is kept. Only copied from wallet_ids
--   (infra/store/rollups.ts `assignWalletIds` copies the ids it assigns, and any id of the makers it meets
--   that the lookup lacks, e.g. after a crash between the two inserts; an insert of a key that is there
--   replaces it with the same id), so it never holds an id that wallet_ids does not.
-- * dex_rollup_1m / dex_rollup_1h with 64-row granules: a window's partial hours (≤ 2 × 59 minute rows) and
--   partial days (≤ 2 × 23 hour rows) read one or two granules instead of two 8,192-row granules of bitmaps.
--   Copied (rows unchanged) and swapped in, as 017 did for wallet_ids.
-- * first_trade: each pool rollup row's open as plain (amount_a, amount_b), as last_trade is its close (015),
--   so candles take a group's first and last trade from its earliest and latest rows with trades instead of
--   merging argMin/argMax states keyed by the leg id.
-- Re-running this file after an interruption: the lookup and the copies are dropped and made again from the
-- tables in place; MATERIALIZE COLUMN recomputes the same values.

DROP TABLE IF EXISTS wallet_id_lookup;

CREATE TABLE IF NOT EXISTS wallet_id_lookup
(
  wallet String COMMENT 'maker address, as wallet_ids',
  id UInt32 COMMENT 'its dense id, as wallet_ids'
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY wallet
COMMENT 'wallet_ids by key on disk, joined by the leg reads (copied by infra/store/rollups.ts assignWalletIds)';

INSERT INTO wallet_id_lookup SELECT wallet, id FROM wallet_ids;

DROP TABLE IF EXISTS dex_rollup_1m_next;

CREATE TABLE dex_rollup_1m_next
(
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  trades UInt64 COMMENT 'executed swap legs over every pool',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
  wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs over every pool, as wallet_ids ids',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY bucket
SETTINGS index_granularity = 64
COMMENT 'every pool per minute, recomputed from swaps FINAL';

INSERT INTO dex_rollup_1m_next SELECT bucket, trades, not_executed, wallet_bitmap, volume_usd, untracked_volume_usd, lp_fee_usd, volume_usd_unknown, version FROM dex_rollup_1m;

EXCHANGE TABLES dex_rollup_1m AND dex_rollup_1m_next;

DROP TABLE dex_rollup_1m_next;

DROP TABLE IF EXISTS dex_rollup_1h_next;

CREATE TABLE dex_rollup_1h_next
(
  bucket DateTime('UTC') COMMENT 'start of the bucket (UTC, epoch aligned)',
  trades UInt64 COMMENT 'executed swap legs over every pool',
  not_executed UInt64 COMMENT 'swap legs refunded, refused or not decided',
  wallet_bitmap AggregateFunction(groupBitmap, UInt32) COMMENT 'distinct makers of executed legs over every pool, as wallet_ids ids',
  volume_usd Float64 COMMENT 'tracked USD volume of executed legs',
  untracked_volume_usd Float64 COMMENT 'untracked USD estimate of executed legs',
  lp_fee_usd Float64 COMMENT 'LP fees in USD of executed legs',
  volume_usd_unknown UInt64 COMMENT 'executed legs whose volume_usd is null',
  version UInt64 COMMENT 'rewrite counter: the newest rewrite of a bucket wins'
)
ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(bucket)
ORDER BY bucket
SETTINGS index_granularity = 64
COMMENT 'every pool per hour, recomputed from dex_rollup_1m FINAL';

INSERT INTO dex_rollup_1h_next SELECT bucket, trades, not_executed, wallet_bitmap, volume_usd, untracked_volume_usd, lp_fee_usd, volume_usd_unknown, version FROM dex_rollup_1h;

EXCHANGE TABLES dex_rollup_1h AND dex_rollup_1h_next;

DROP TABLE dex_rollup_1h_next;

ALTER TABLE pool_rollup_1m ADD COLUMN IF NOT EXISTS first_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(open) COMMENT 'the open as plain (amount_a, amount_b): the first executed leg of the bucket; (0, 0) without trades' AFTER open;
ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS first_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(open) COMMENT 'the open as plain (amount_a, amount_b): the first executed leg of the bucket; (0, 0) without trades' AFTER open;
ALTER TABLE pool_rollup_1h_by_bucket ADD COLUMN IF NOT EXISTS first_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(open) COMMENT 'the open as plain (amount_a, amount_b): the first executed leg of the bucket; (0, 0) without trades' AFTER open;
ALTER TABLE pool_rollup_1d ADD COLUMN IF NOT EXISTS first_trade Tuple(UInt256, UInt256) MATERIALIZED finalizeAggregation(open) COMMENT 'the open as plain (amount_a, amount_b): the first executed leg of the bucket; (0, 0) without trades' AFTER open;

ALTER TABLE pool_rollup_1h MATERIALIZE COLUMN first_trade SETTINGS mutations_sync = 2;
ALTER TABLE pool_rollup_1d MATERIALIZE COLUMN first_trade SETTINGS mutations_sync = 2;
ALTER TABLE pool_rollup_1m MATERIALIZE COLUMN first_trade SETTINGS mutations_sync = 2;
