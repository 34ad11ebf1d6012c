/**
 * Cache-aside for the read model's reference data (STYLE practice 11): routers, assets and pools change
 * only when the processors write, and every simulation needs them, so they are read as whole lists and the
 * per-key lookups are answered from indexes over those lists (the same rows the store would return: the
 * list and key queries select the same facts). Everything else passes through.
 *
 * Freshness: a snapshot answers for `ttlMs`, and for as long as `version()` (the indexed data's version,
 * when the caller has one: bin/pipeline.ts `dataVersion`) still has the value it had when the snapshot's
 * read began — nothing was written since, so there is nothing to re-read. Past both, it is refreshed in
 * the background while it keeps
 * answering (reading the lists takes tens of milliseconds, which callers should not wait for each
 * second), for at most another `ttlMs`; a snapshot older than 2·`ttlMs` is not used: the caller waits for
 * the refresh. One refresh runs at a time. Errors are never cached: a failed refresh is dropped (the
 * next call tries again), and a caller that has to wait gets the error (the API answers 503).
 * Pool states used for simulation still come first from the processors' hot cache (api/deps.ts).
 */
import type {
  AssetRecord,
  DexReadModel,
  FeedReference,
  PoolRecord,
  RawAddress,
  ReferenceNow,
  RouterRecord,
} from "./read-model.ts";

type Snapshot = {
  routers: RouterRecord[];
  assets: AssetRecord[];
  pools: PoolRecord[];
  at: number;
  /** `version()` when the read began (undefined without a version source). */
  version: number | undefined;
  /** With each asset's position in `assets`, so lookups answer in list order. */
  assetBy: Map<RawAddress, { asset: AssetRecord; index: number }>;
  poolBy: Map<RawAddress, PoolRecord>;
  /** The per-key lookups over this snapshot (pools by unordered pair `pairKey`, in list order). */
  lookups: ReferenceNow;
};

const norm = (a: RawAddress): RawAddress => a.toUpperCase();
const pairKey = (a: RawAddress, b: RawAddress): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

function snapshotOf(
  routers: RouterRecord[],
  assets: AssetRecord[],
  pools: PoolRecord[],
  at: number,
  version: number | undefined,
): Snapshot {
  const poolsByPair = new Map<string, PoolRecord[]>();
  for (const p of pools) {
    if (p.token0 === null || p.token1 === null || p.token0 === p.token1) continue;
    const key = pairKey(p.token0, p.token1);
    const list = poolsByPair.get(key);
    if (list === undefined) poolsByPair.set(key, [p]);
    else list.push(p);
  }
  const first = <T extends { address: RawAddress }, V>(items: T[], value: (item: T, i: number) => V) => {
    const map = new Map<RawAddress, V>();
    items.forEach((item, i) => {
      if (!map.has(item.address)) map.set(item.address, value(item, i));
    });
    return map;
  };
  const routerBy = first(routers, (r) => r);
  const assetBy = first(assets, (asset, index) => ({ asset, index }));
  const poolBy = first(pools, (p) => p);
  const lookups: ReferenceNow = {
    getRouter: (address) => routerBy.get(norm(address)) ?? null,
    getAssets: (addresses) => {
      const found = new Map<RawAddress, { asset: AssetRecord; index: number }>();
      for (const a of addresses) {
        const hit = assetBy.get(norm(a));
        if (hit !== undefined) found.set(hit.asset.address, hit);
      }
      const hits = [...found.values()];
      if (hits.length > 1) hits.sort((x, y) => x.index - y.index);
      return hits.map((x) => x.asset);
    },
    getPool: (address) => poolBy.get(norm(address)) ?? null,
    getPoolsByAssets: (a, b) => {
      const [x, y] = [norm(a), norm(b)];
      return x === y ? [] : (poolsByPair.get(pairKey(x, y)) ?? []);
    },
  };
  return { routers, assets, pools, at, version, assetBy, poolBy, lookups };
}

const referenceOf = (s: Snapshot): FeedReference => ({
  pool: (address) => s.poolBy.get(norm(address)),
  asset: (address) => s.assetBy.get(norm(address))?.asset,
});

export function cachedReadModel(
  inner: DexReadModel,
  options: { ttlMs: number; now?: () => number; version?: () => number },
): DexReadModel {
  const now = options.now ?? Date.now;
  let snapshot: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  const load = async (): Promise<Snapshot> => {
    const version = options.version?.();
    const [routers, assets, pools] = await Promise.all([
      inner.listRouters(),
      inner.listAssets(),
      inner.listPools(),
    ]);
    return snapshotOf(routers, assets, pools, now(), version);
  };
  /** One refresh at a time; concurrent callers share it. */
  const refresh = (): Promise<Snapshot> => {
    loading ??= load()
      .then((s) => {
        snapshot = s;
        return s;
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };
  /** The snapshot to answer from without waiting, if there is one (else the caller waits: `fresh`). */
  const current = (): Snapshot | undefined => {
    if (snapshot === null) return undefined;
    const age = now() - snapshot.at;
    if (age < options.ttlMs) return snapshot;
    if (snapshot.version !== undefined && options.version?.() === snapshot.version) return snapshot;
    if (age < 2 * options.ttlMs) {
      // Dropped on failure: the next call past the TTL tries again.
      refresh().catch(() => undefined);
      return snapshot;
    }
    return undefined;
  };
  const fresh = async (): Promise<Snapshot> => current() ?? refresh();
  const cached: Partial<DexReadModel> = {
    // The export feed reads the pools' tokens and the assets' descriptions with its events; the lists
    // answer for what they know for good (FeedReference), whatever their age, so the feed never waits for
    // them: a missing or old snapshot is refreshed in the background.
    getFeedEvents: (from, to) => {
      const current = snapshot;
      if (current === null || now() - current.at >= options.ttlMs) refresh().catch(() => undefined);
      return inner.getFeedEvents(from, to, current === null ? undefined : referenceOf(current));
    },
    referenceNow: () => current()?.lookups,
    listRouters: async () => [...(await fresh()).routers],
    getRouter: async (address) => (await fresh()).lookups.getRouter(address),
    listAssets: async () => [...(await fresh()).assets],
    getAssets: async (addresses) => (await fresh()).lookups.getAssets(addresses),
    listPools: async () => [...(await fresh()).pools],
    getPool: async (address) => (await fresh()).lookups.getPool(address),
    getPoolsByAssets: async (a, b) => [...(await fresh()).lookups.getPoolsByAssets(a, b)],
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
