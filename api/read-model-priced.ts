/**
 * The read model with the catalogue's USD fields filled in (./pricing.ts): asset prices, liquidity tags and
 * popularity, pool TVL, LP price, 24 h volume and APYs, computed from the pools' latest states as the inner
 * model lists them and the pools' USD windows (`getPoolUsdWindows`). Everything else passes through.
 *
 * One computation serves the asset and the pool lookups: it is reused while `version()` (the indexed
 * data's version, bin/pipeline.ts `dataVersion`) is unchanged and younger than `ttlMs`, and shared by
 * concurrent callers; without a version source every call recomputes (tests see each write at once). The
 * USD windows (a rollup read) and the pools' TVL at the APY windows' sample instants (`tvlSamples`: two
 * state-timeline reads, priced) are read again after `windowsTtlMs`: volumes and APYs move slowly, so
 * the previous read is answered while the next is made (only the first read is waited for).
 */
import type { PricingConfig } from "../dex/pricing/index.ts";
import {
  apySamples,
  type Boundaries,
  type PricedCatalogue,
  priceCatalogue,
  readVwaps,
  type TvlSamples,
  tvlSamples,
  type VwapsAt,
} from "./pricing.ts";
import type { DexReadModel, PoolUsdWindows, RawAddress } from "./read-model.ts";

/**
 * The USD windows, the TVL samples of the APYs' mean TVL (null: no state history is kept) and the VWAPs of
 * the clamp at the windows' end (null: no swap history is kept).
 */
type Activity = { windows: PoolUsdWindows | null; samples: TvlSamples | null; vwaps: VwapsAt | null };

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
  let keptActivity: { at: number; value: Promise<Activity> } | null = null;

  const timeline = (b: Boundaries, listed: RawAddress[]) =>
    inner.getPoolStateTimeline?.({ first: b.first, until: b.last, step: b.step, listed }) ??
    Promise.resolve(null);
  const vwaps = (b: Boundaries) => readVwaps(inner, options.pricing, b);
  const read = async (): Promise<Activity> => {
    const windows = (await inner.getPoolUsdWindows?.()) ?? null;
    if (windows === null) return { windows, samples: null, vwaps: null };
    const b = apySamples(windows.until);
    const pools = await inner.listPools();
    // Only listed pools are valued (a pool quiet for the whole look-back is searched among them).
    const listed = pools.map((p) => p.address);
    const now = { first: windows.until, last: windows.until, step: 1 };
    const [hourly, daily, atNow, atHours, atDays] = await Promise.all([
      timeline(b.hourly, listed),
      timeline(b.daily, listed),
      vwaps(now),
      vwaps(b.hourly),
      vwaps(b.daily),
    ]);
    if (hourly === null || daily === null) return { windows, samples: null, vwaps: atNow };
    // A day boundary is an hour boundary too: the same window, the same samples.
    const atSamples = atHours === null || atDays === null ? null : new Map([...atDays, ...atHours]);
    return {
      windows,
      samples: tvlSamples(pools, hourly, daily, windows.until, options.pricing, atSamples),
      vwaps: atNow,
    };
  };
  /** The last activity read that succeeded: answered while a newer one is read (no request waits for it). */
  let settled: Activity | null = null;
  const activity = (): Promise<Activity> => {
    const ttl = options.version === undefined ? 0 : (options.windowsTtlMs ?? 30_000);
    if (keptActivity === null || now() - keptActivity.at >= ttl) {
      const value = read().then(
        (a) => {
          settled = a;
          return a;
        },
        (e: unknown) => {
          keptActivity = null;
          throw e;
        },
      );
      // A caller answered from `settled` does not await it: a failed refresh is read again on the next
      // call, and until one succeeds the last good one is used.
      value.catch(() => undefined);
      keptActivity = { at: now(), value };
    }
    return ttl > 0 && settled !== null ? Promise.resolve(settled) : keptActivity.value;
  };
  const compute = async (): Promise<PricedCatalogue> => {
    const [assets, pools, a] = await Promise.all([inner.listAssets(), inner.listPools(), activity()]);
    return priceCatalogue(assets, pools, options.pricing, a.windows, a.samples, a.vwaps);
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
    // Simulations read the records without the USD fields added here (no catalogue to wait for).
    referenceNow: () => inner.referenceNow?.(),
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
