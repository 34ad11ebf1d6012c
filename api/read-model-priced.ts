/**
 * The read model with the catalogue's USD fields filled in (./pricing.ts): asset prices, liquidity tags and
 * popularity, pool TVL, LP price, 24 h volume and APYs, computed from the pools' latest states as the inner
 * model lists them and the pools' USD windows (`getPoolUsdWindows`). Everything else passes through.
 *
 * One computation serves the asset and the pool lookups: it is reused while `version()` (the indexed
 * data's version, bin/pipeline.ts `dataVersion`) is unchanged and younger than `ttlMs`, and shared by
 * concurrent callers; without a version source every call recomputes (tests see each write at once). The
 * USD windows (a rollup read) are reused for `windowsTtlMs` at most: volumes and APYs move slowly.
 */
import type { PricingConfig } from "../dex/pricing/index.ts";
import { type PricedCatalogue, priceCatalogue } from "./pricing.ts";
import type { DexReadModel, PoolUsdWindows, RawAddress } from "./read-model.ts";

export type PricedOptions = {
  pricing: PricingConfig;
  version?: () => number;
  ttlMs?: number;
  windowsTtlMs?: number;
  now?: () => number;
};

const norm = (a: RawAddress): RawAddress => a.toUpperCase();

export function pricedReadModel(inner: DexReadModel, options: PricedOptions): DexReadModel {
  const now = options.now ?? Date.now;
  let kept: { at: number; version: number; value: PricedCatalogue } | null = null;
  let inflight: Promise<PricedCatalogue> | null = null;
  let windows: { at: number; value: Promise<PoolUsdWindows | null> } | null = null;

  const usdWindows = (): Promise<PoolUsdWindows | null> => {
    if (inner.getPoolUsdWindows === undefined) return Promise.resolve(null);
    const ttl = options.version === undefined ? 0 : (options.windowsTtlMs ?? 30_000);
    if (windows === null || now() - windows.at >= ttl) {
      const value = inner.getPoolUsdWindows().catch((e: unknown) => {
        windows = null;
        throw e;
      });
      windows = { at: now(), value };
    }
    return windows.value;
  };
  const compute = async (): Promise<PricedCatalogue> => {
    const [assets, pools, w] = await Promise.all([inner.listAssets(), inner.listPools(), usdWindows()]);
    return priceCatalogue(assets, pools, options.pricing, w);
  };
  const catalogue = (): Promise<PricedCatalogue> => {
    const version = options.version?.();
    if (
      kept !== null &&
      version !== undefined &&
      kept.version === version &&
      now() - kept.at < (options.ttlMs ?? 1_000)
    )
      return Promise.resolve(kept.value);
    inflight ??= compute()
      .then((value) => {
        if (version !== undefined) kept = { at: now(), version, value };
        return value;
      })
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };
  const own: Partial<DexReadModel> = {
    listAssets: async () => [...(await catalogue()).assets],
    getAssets: async (addresses) => {
      const wanted = new Set(addresses.map(norm));
      return (await catalogue()).assets.filter((a) => wanted.has(a.address));
    },
    listPools: async () => [...(await catalogue()).pools],
    getPool: async (address) => {
      const found = await inner.getPool(address);
      if (found === null) return null;
      const priced = (await catalogue()).pools.find((p) => p.address === found.address);
      return priced?.stats === undefined ? found : { ...found, stats: priced.stats };
    },
    getPoolsByAssets: async (a, b) => {
      const found = await inner.getPoolsByAssets(a, b);
      const byAddress = new Map((await catalogue()).pools.map((p) => [p.address, p]));
      return found.map((p) => {
        const stats = byAddress.get(p.address)?.stats;
        return stats === undefined ? p : { ...p, stats };
      });
    },
  };
  return new Proxy(inner, {
    get(target, key, receiver) {
      const mine = own[key as keyof DexReadModel];
      if (mine !== undefined) return mine;
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
