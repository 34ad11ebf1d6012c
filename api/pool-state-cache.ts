/** The processors' hot-cache entries (`pool_states` rows) as the API's `PoolStateCache` (dex/amm state). */
import { type PoolState, poolState } from "../dex/amm/index.ts";
import type { CacheNamespace } from "../infra/cache/types.ts";
import type { PoolStateRow } from "../schemas/facts.ts";
import type { PoolStateCache } from "./deps.ts";

export function poolStateFromRow(row: PoolStateRow): PoolState {
  return poolState({
    type: row.pool_type,
    reserve0: row.reserve0,
    reserve1: row.reserve1,
    lpSupply: row.lp_supply,
    lpFeeBps: BigInt(row.lp_fee_bps),
    protocolFeeBps: BigInt(row.protocol_fee_bps),
    refFeeBps: BigInt(row.ref_fee_bps),
    collectedProtocolFee0: row.collected_protocol_fee0,
    collectedProtocolFee1: row.collected_protocol_fee1,
    isLocked: row.is_locked,
    amp: row.amp,
    rate: row.rate,
    w0: row.w0,
  });
}

export function poolStateCache(ns: CacheNamespace<PoolStateRow>): PoolStateCache {
  return {
    async getPoolState(pool) {
      const row = await ns.get(pool);
      return row === undefined ? null : poolStateFromRow(row);
    },
  };
}
