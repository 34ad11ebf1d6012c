/** The processors' hot-cache entries (`pool_states` rows) as the API's `PoolStateCache` (dex/amm state). */
import { poolStateOfColumns } from "../dex/pool-state-row.ts";
import type { CacheNamespace } from "../infra/cache/types.ts";
import type { PoolStateRow } from "../schemas/facts.ts";
import type { PoolStateCache } from "./deps.ts";

export function poolStateCache(ns: CacheNamespace<PoolStateRow>): PoolStateCache {
  return {
    async getPoolState(pool) {
      const row = await ns.get(pool);
      return row === undefined ? null : poolStateOfColumns(row);
    },
  };
}
