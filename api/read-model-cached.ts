/**
 * Cache-aside for the read model's reference data (STYLE practice 11): routers, assets and pools change
 * only when the processors write, and every simulation needs them, so they are read as whole lists at most
 * once per `ttlMs` and the per-key lookups are answered from those lists (the same rows the store would
 * return: the list and key queries select the same facts). Everything else passes through. Errors are
 * never cached: a failed refresh throws to the caller (the API answers 503) and the next call retries.
 * Pool states used for simulation still come first from the processors' hot cache (api/deps.ts).
 */
import type { AssetRecord, DexReadModel, PoolRecord, RawAddress, RouterRecord } from "./read-model.ts";

type Snapshot = { routers: RouterRecord[]; assets: AssetRecord[]; pools: PoolRecord[]; at: number };

const norm = (a: RawAddress): RawAddress => a.toUpperCase();

export function cachedReadModel(
  inner: DexReadModel,
  options: { ttlMs: number; now?: () => number },
): DexReadModel {
  const now = options.now ?? Date.now;
  let snapshot: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  const load = async (): Promise<Snapshot> => {
    const [routers, assets, pools] = await Promise.all([
      inner.listRouters(),
      inner.listAssets(),
      inner.listPools(),
    ]);
    return { routers, assets, pools, at: now() };
  };
  /** One refresh at a time; concurrent callers share it. */
  const fresh = async (): Promise<Snapshot> => {
    if (snapshot !== null && now() - snapshot.at < options.ttlMs) return snapshot;
    loading ??= load().finally(() => {
      loading = null;
    });
    snapshot = await loading;
    return snapshot;
  };
  const cached: Partial<DexReadModel> = {
    listRouters: async () => [...(await fresh()).routers],
    getRouter: async (address) => (await fresh()).routers.find((r) => r.address === norm(address)) ?? null,
    listAssets: async () => [...(await fresh()).assets],
    getAssets: async (addresses) => {
      const wanted = new Set(addresses.map(norm));
      return (await fresh()).assets.filter((a) => wanted.has(a.address));
    },
    listPools: async () => [...(await fresh()).pools],
    getPool: async (address) => (await fresh()).pools.find((p) => p.address === norm(address)) ?? null,
    getPoolsByAssets: async (a, b) => {
      const pair = new Set([norm(a), norm(b)]);
      return (await fresh()).pools.filter((p) => pair.size === 2 && pair.has(p.token0) && pair.has(p.token1));
    },
  };
  return new Proxy(inner, {
    get(target, key, receiver) {
      const own = cached[key as keyof DexReadModel];
      if (own !== undefined) return own;
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
