-- The export feed's maker and reserves, stored on the operation when the processor writes it, so a block
-- range is served from `swaps` and `liquidity` alone, without a pool_states lookup per event and a walk up
-- every trace (api/queries/sql/feed.ts). Null on rows written before this migration, and when the
-- processor did not know the value: the feed then reads it as before (pool_states at the lt, the trace
-- root), so an existing data directory keeps its answers.
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS maker Nullable(String) COMMENT 'the user: the wallet whose external message started the trace (else the route sender, else the sender); null: not known when written';
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS reserve0_after Nullable(UInt256) COMMENT 'pool token0 reserve after the pool transaction (its pool_states row); null: not known when written';
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS reserve1_after Nullable(UInt256) COMMENT 'pool token1 reserve after the pool transaction; null: not known when written';
ALTER TABLE liquidity ADD COLUMN IF NOT EXISTS maker Nullable(String) COMMENT 'the user: the wallet whose external message started the trace (else the owner); null: not known when written';
ALTER TABLE liquidity ADD COLUMN IF NOT EXISTS reserve0_after Nullable(UInt256) COMMENT 'pool token0 reserve after the pool transaction (its pool_states row); null: not known when written';
ALTER TABLE liquidity ADD COLUMN IF NOT EXISTS reserve1_after Nullable(UInt256) COMMENT 'pool token1 reserve after the pool transaction; null: not known when written';
