-- State and reference facts: pool state history, pools, assets, routers.
-- Slowly changing rows (pools, assets, routers) carry `version`: ReplacingMergeTree keeps the row with
-- the highest version per key (e.g. the lt of the transaction that revealed it).

CREATE TABLE IF NOT EXISTS pool_states
(
  pool String COMMENT 'pool address',
  lt UInt64 COMMENT 'logical time of the pool transaction that produced this state',
  tx_hash String COMMENT 'that transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of that transaction',
  utime DateTime('UTC') COMMENT 'time of that transaction',
  pool_type Enum8('v1_constant_product' = 1, 'v2_constant_product' = 2, 'v2_stableswap' = 3, 'v2_weighted_const_product' = 4, 'v2_weighted_stableswap' = 5, 'v2_constant_sum' = 6) COMMENT 'AMM curve (dex/amm/types.ts)',
  reserve0 UInt256 COMMENT 'token0 reserve, raw units',
  reserve1 UInt256 COMMENT 'token1 reserve, raw units',
  lp_supply UInt256 COMMENT 'LP total supply, raw units',
  lp_fee_bps UInt16 COMMENT 'LP fee, basis points',
  protocol_fee_bps UInt16 COMMENT 'protocol fee, basis points',
  ref_fee_bps UInt16 COMMENT 'v1 stored referral fee, basis points (0 for v2)',
  collected_protocol_fee0 UInt256 COMMENT 'token0 protocol fees collected and not yet withdrawn',
  collected_protocol_fee1 UInt256 COMMENT 'token1 protocol fees collected and not yet withdrawn',
  is_locked Bool COMMENT 'v2 pool lock (false for v1)',
  amp UInt256 COMMENT 'stableswap amplification (plain integer; 18-decimal fixed point for weighted_stableswap); else 0',
  rate UInt256 COMMENT 'weighted_stableswap price rate, 18-decimal fixed point; else 0',
  w0 UInt256 COMMENT 'weighted pools: token0 weight, 18-decimal fixed point; else 0'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (pool, lt)
COMMENT 'pool state history, versioned by lt: the current state is argMax(..., lt) per pool';

CREATE TABLE IF NOT EXISTS pools
(
  pool String COMMENT 'pool address (also its LP jetton master)',
  router String COMMENT 'router address',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  pool_type Enum8('v1_constant_product' = 1, 'v2_constant_product' = 2, 'v2_stableswap' = 3, 'v2_weighted_const_product' = 4, 'v2_weighted_stableswap' = 5, 'v2_constant_sum' = 6) COMMENT 'AMM curve',
  token0_wallet String COMMENT 'router wallet of token0 (the pool''s stored order)',
  token1_wallet String COMMENT 'router wallet of token1',
  token0_master Nullable(String) COMMENT 'jetton master of token0 (pTON master for TON); null until known',
  token1_master Nullable(String) COMMENT 'jetton master of token1; null until known',
  created_lt UInt64 COMMENT 'lt of the first transaction that revealed the pool',
  created_utime DateTime('UTC') COMMENT 'time of that transaction',
  version UInt64 COMMENT 'ReplacingMergeTree version: the row with the highest version wins'
)
ENGINE = ReplacingMergeTree(version)
ORDER BY pool
COMMENT 'pools and their tokens';

CREATE TABLE IF NOT EXISTS assets
(
  address String COMMENT 'jetton master address; native TON is 0:000...0 with kind ton',
  kind Enum8('jetton' = 1, 'ton' = 2, 'pton' = 3, 'lp' = 4) COMMENT 'jetton, native TON, a pTON master, or a pool LP token',
  symbol Nullable(String) COMMENT 'metadata symbol (TEP-64 jetton content)',
  name Nullable(String) COMMENT 'metadata name',
  decimals UInt8 COMMENT 'metadata decimals (TEP-64 default 9)',
  image Nullable(String) COMMENT 'metadata image URL (or image_data as a data: URL)',
  description Nullable(String) COMMENT 'metadata description',
  metadata_uri Nullable(String) COMMENT 'off-chain metadata URI of the jetton content, when it has one',
  total_supply Nullable(UInt256) COMMENT 'total supply from get_jetton_data, raw units',
  version UInt64 COMMENT 'ReplacingMergeTree version: the row with the highest version wins'
)
ENGINE = ReplacingMergeTree(version)
ORDER BY address
COMMENT 'asset metadata from jetton content';

CREATE TABLE IF NOT EXISTS routers
(
  address String COMMENT 'router address',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  pool_type Enum8('v1_constant_product' = 1, 'v2_constant_product' = 2, 'v2_stableswap' = 3, 'v2_weighted_const_product' = 4, 'v2_weighted_stableswap' = 5, 'v2_constant_sum' = 6) COMMENT 'curve of the pools it deploys (v2 dex_type)',
  major UInt16 COMMENT 'get_router_version major (1 for v1)',
  minor UInt16 COMMENT 'get_router_version minor',
  development String COMMENT 'get_router_version development tag',
  pton_master Nullable(String) COMMENT 'pTON master the router uses for TON, when known',
  pton_wallet Nullable(String) COMMENT 'the router''s pTON wallet, when known',
  is_locked Bool COMMENT 'router lock flag',
  admin Nullable(String) COMMENT 'router admin address',
  version UInt64 COMMENT 'ReplacingMergeTree version: the row with the highest version wins'
)
ENGINE = ReplacingMergeTree(version)
ORDER BY address
COMMENT 'STON.fi routers';
