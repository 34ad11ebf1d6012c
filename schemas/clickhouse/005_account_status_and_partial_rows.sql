-- Account status and previous transaction, as the chain records them on every transaction (null when the
-- source did not record them: older rows, recorded traces without the previous transaction).
ALTER TABLE transactions ADD COLUMN IF NOT EXISTS orig_status Nullable(Enum8('uninit' = 1, 'frozen' = 2, 'active' = 3, 'nonexist' = 4)) COMMENT 'account status before the transaction; null when not recorded';
ALTER TABLE transactions ADD COLUMN IF NOT EXISTS end_status Nullable(Enum8('uninit' = 1, 'frozen' = 2, 'active' = 3, 'nonexist' = 4)) COMMENT 'account status after the transaction; null when not recorded';
ALTER TABLE transactions ADD COLUMN IF NOT EXISTS prev_trans_hash Nullable(String) COMMENT 'the account''s previous transaction (lowercase hex; zeros for its first); null when not recorded';
ALTER TABLE transactions ADD COLUMN IF NOT EXISTS prev_trans_lt Nullable(UInt64) COMMENT 'lt of that transaction (0 for its first); null when not recorded';

-- Unknown is not zero: a pool or router named by operations is stored with what they reveal, and null for
-- the rest (a pool already active before the first transaction seen, without chain access to read it).
ALTER TABLE pools MODIFY COLUMN IF EXISTS router Nullable(String) COMMENT 'router address; null when not known';
ALTER TABLE pools MODIFY COLUMN IF EXISTS pool_type Nullable(Enum8('v1_constant_product' = 1, 'v2_constant_product' = 2, 'v2_stableswap' = 3, 'v2_weighted_const_product' = 4, 'v2_weighted_stableswap' = 5, 'v2_constant_sum' = 6)) COMMENT 'AMM curve; null when not known';
ALTER TABLE pools MODIFY COLUMN IF EXISTS token0_wallet Nullable(String) COMMENT 'router wallet of token0 (the pool''s stored order); null when not known';
ALTER TABLE pools MODIFY COLUMN IF EXISTS token1_wallet Nullable(String) COMMENT 'router wallet of token1; null when not known';
ALTER TABLE pools MODIFY COLUMN IF EXISTS created_lt Nullable(UInt64) COMMENT 'lt of the transaction that deployed the pool; null when the deployment was not seen';
ALTER TABLE pools MODIFY COLUMN IF EXISTS created_utime Nullable(DateTime('UTC')) COMMENT 'time of that transaction; null when the deployment was not seen';
ALTER TABLE routers MODIFY COLUMN IF EXISTS pool_type Nullable(Enum8('v1_constant_product' = 1, 'v2_constant_product' = 2, 'v2_stableswap' = 3, 'v2_weighted_const_product' = 4, 'v2_weighted_stableswap' = 5, 'v2_constant_sum' = 6)) COMMENT 'curve of the pools it deploys (v2 dex_type); null when not known';
ALTER TABLE routers MODIFY COLUMN IF EXISTS minor Nullable(UInt16) COMMENT 'get_router_version minor; null when not known';
ALTER TABLE routers MODIFY COLUMN IF EXISTS development Nullable(String) COMMENT 'get_router_version development tag; null when not known';
ALTER TABLE routers MODIFY COLUMN IF EXISTS is_locked Nullable(Bool) COMMENT 'router lock flag; null when not known';
