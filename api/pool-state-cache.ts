/** The processors' hot-cache entries (`pool_states` rows) as the API's `PoolStateCache` (dex/amm state). */
import type { PoolState } from "../dex/amm/index.ts";
import { poolStateOfColumns } from "../dex/pool-state-row.ts";
import type { CacheNamespace } from "../infra/cache/types.ts";
import type { PoolStateRow } from "../schemas/facts.ts";
import type { PoolStateCache } from "./deps.ts";
import type { RawAddress } from "./read-model.ts";

/**
 * An in-process cache hands out the same row until the pool changes: it maps to the same PoolState object,
 * so what dex/amm keeps per state (invariants, spot prices, curve constants) is reused across requests.
 */
export function poolStateCache(ns: CacheNamespace<PoolStateRow>): PoolStateCache {
  const states = new WeakMap<PoolStateRow, PoolState>();
  const stateOf = (row: PoolStateRow | undefined): PoolState | null => {
    if (row === undefined) return null;
    let state = states.get(row);
    if (state === undefined) {
      state = poolStateOfColumns(row);
      states.set(row, state);
    }
    return state;
  };
  const getNow = ns.getNow?.bind(ns);
  return {
    getPoolState: async (pool) => stateOf(await ns.get(pool)),
    // A quote whose every read is in memory is answered without waiting (api/quote-lane.ts).
    ...(getNow === undefined ? {} : { getPoolStateNow: (pool: RawAddress) => stateOf(getNow(pool)) }),
  };
}
