/**
 * USD figures of the asset and pool catalogue (api/README.md "Pricing"), computed from the latest pool
 * states with dex/pricing (analytics.md §7) and the pools' USD volume and LP fees over recent windows:
 *
 * - asset `dex_price_usd`: the token's price per whole token (`usdPerUnit · 10^decimals`); absent when
 *   the methodology gives none (no deep enough quote pool, jetton/jetton pools only) or decimals are unknown.
 * - asset liquidity L = Σ TVL_p / 2 over the non-deprecated pools holding it (the pools' tracked TVL, §7.6);
 *   `popularity_index` = L in USD (to the cent); tags `asset:liquidity:{no,low,medium,high,very_high}` by L (thresholds
 *   below) with the legacy `no_liquidity` / `low_liquidity` / `high_liquidity` — `no` also for an asset no
 *   pool values (in no pool, or only in pools of known state where nothing prices it), none when a pool
 *   holding it has an unknown state and none values it; `asset:popular` by L or the 24 h USD volume of its
 *   pools.
 * - pool `lp_total_supply_usd` = TVL_p; `lp_price_usd` = TVL_p / (lp_total_supply / 10^9) per whole LP
 *   token; `volume_24h_usd`; `apy_Nd` = LP fees in USD over the window / the pool's mean TVL over the window
 *   × (365 days / window), a fraction; absent while the indexed history is shorter than the window (no
 *   extrapolation). The mean TVL is the mean of the pool's TVL at the window's sample instants where it is
 *   known (`apySamples`): the current TVL and every hour (1 day) or day (7 and 30 days) boundary inside the
 *   window, each priced with the states and prices of that instant, as the TVL history.
 * - every TVL above (pool, asset liquidity, APY samples, TVL history) values a low/medium-confidence price
 *   clamped to the token's VWAP of the hour before the instant (§7.4, `vwapsAt`), when the caller read it.
 * Pure but for `readVwaps`: the caller supplies the records, the windows, the VWAP trades (read with it)
 * and the pricing configuration.
 */
import type { CurveState } from "../dex/amm/index.ts";
import {
  type DexTvl,
  dexTvl,
  PriceBook,
  type PriceBookOptions,
  type PricingConfig,
  type PricingPool,
  poolIndex,
  quoteCandidates,
  type VwapSample,
  vwapSamples,
} from "../dex/pricing/index.ts";
import type {
  AssetRecord,
  DexReadModel,
  PoolRecord,
  PoolStatePoint,
  PoolStats,
  PoolUsdWindow,
  PoolUsdWindows,
  QuoteTradesAt,
  QuoteTradesQuery,
  RawAddress,
} from "./read-model.ts";

/** Asset liquidity (USD) from which each `asset:liquidity:*` tag holds; below the first: `no`. */
export const LIQUIDITY_TAG_THRESHOLDS_USD = {
  low: 100,
  medium: 10_000,
  high: 100_000,
  very_high: 1_000_000,
} as const;
/** `asset:popular`: liquidity at least this, or 24 h USD volume across its pools at least the second. */
export const POPULAR_LIQUIDITY_USD = 1_000_000;
export const POPULAR_VOLUME_24H_USD = 100_000;

const LIQUIDITY_TAGS = [
  "asset:liquidity:no",
  "asset:liquidity:low",
  "asset:liquidity:medium",
  "asset:liquidity:high",
  "asset:liquidity:very_high",
  "no_liquidity",
  "low_liquidity",
  "high_liquidity",
  "asset:popular",
];

const DAY = 86_400;
const YEAR = 365 * DAY;

/** A USD amount or a fraction as a plain decimal string (about 12 significant digits, no exponent); undefined: not finite. */
export function plainDecimal(v: number): string | undefined {
  if (!Number.isFinite(v) || v < 0) return undefined;
  if (v === 0) return "0";
  const digits = Math.min(40, Math.max(2, 11 - Math.floor(Math.log10(v))));
  return v
    .toFixed(digits)
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

/** A USD score rounded to cents (popularity_index is a JSON number). */
const cents = (usd: number): number => Math.round(usd * 100) / 100;

/** The `asset:liquidity:*` tag and its legacy twin for a liquidity of `usd` (null: none known). */
export function liquidityTags(usd: number | null): string[] {
  const t = LIQUIDITY_TAG_THRESHOLDS_USD;
  if (usd === null || usd < t.low) return ["asset:liquidity:no", "no_liquidity"];
  if (usd < t.medium) return ["asset:liquidity:low", "low_liquidity"];
  if (usd < t.high) return ["asset:liquidity:medium", "low_liquidity"];
  if (usd < t.very_high) return ["asset:liquidity:high", "high_liquidity"];
  return ["asset:liquidity:very_high", "high_liquidity"];
}

export type PricedCatalogue = { assets: AssetRecord[]; pools: PoolRecord[] };

/** The pools pricing can use: both tokens and a state known. */
export function pricingPools(pools: readonly PoolRecord[]): PricingPool[] {
  const priced: PricingPool[] = [];
  for (const p of pools) {
    if (p.token0 === null || p.token1 === null || p.state === null) continue;
    priced.push({
      address: p.address,
      token0: p.token0,
      token1: p.token1,
      state: p.state,
      deprecated: p.deprecated,
    });
  }
  return priced;
}

/** TVL history (queries/tvl.ts): one point per interval boundary `at` (unix seconds). */
export type TvlInterval = "hour" | "day";
export type TvlPoint = { at: number; tvlUsd: number | null; untrackedTvlUsd: number | null };
export type TvlHistory = { since: number; until: number; interval: TvlInterval; points: TvlPoint[] };

const byAddress = (x: RawAddress, y: RawAddress): number => (x < y ? -1 : x > y ? 1 : 0);

/** Boundaries `first`, `first + step`, … ≤ `last` (unix seconds), as `getPoolStateTimeline` reads them. */
export type Boundaries = { readonly first: number; readonly last: number; readonly step: number };

/**
 * Per boundary, each token's VWAP over the trades of the window before it (analytics.md §7.4, the clamp of
 * low- and medium-confidence prices wherever they value TVL). Absent boundary or token: no recent trade.
 */
export type VwapsAt = ReadonlyMap<number, ReadonlyMap<RawAddress, VwapSample>>;
/** What pricing asks of the VWAPs: a boundary's samples by token (a `VwapsAt`, or `vwapRecorder`'s). */
export type VwapLookup = {
  get(at: number): { get(token: RawAddress): VwapSample | undefined } | undefined;
};

/**
 * A lookup that has no VWAP and records the tokens asked for: pricing asks only for the tokens whose price
 * the clamp may bind (low or medium confidence, from pools), so a pass with it tells whether, and for which
 * tokens, the trades need to be read at all.
 */
export function vwapRecorder(): { lookup: VwapLookup; asked: Set<RawAddress> } {
  const asked = new Set<RawAddress>();
  const samples = {
    get(token: RawAddress): undefined {
      asked.add(token);
      return undefined;
    },
  };
  return { lookup: { get: () => samples }, asked };
}

/** The read of the VWAP trades at the boundaries `b` (`tokens`: only the prices of these are valued). */
export function vwapQuery(
  pricing: PricingConfig,
  b: Boundaries,
  tokens?: readonly RawAddress[],
): QuoteTradesQuery {
  return {
    first: b.first,
    last: b.last,
    step: b.step,
    windowSeconds: pricing.vwapWindowSeconds,
    quotes: quoteCandidates(pricing),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

/** The VWAP samples of each boundary from its trades, with the quotes of that instant (time-limited anchors). */
export function vwapsAt(trades: readonly QuoteTradesAt[], pricing: PricingConfig): VwapsAt {
  const byAt = new Map<number, QuoteTradesAt[]>();
  for (const t of trades) {
    const list = byAt.get(t.at);
    if (list === undefined) byAt.set(t.at, [t]);
    else list.push(t);
  }
  const out = new Map<number, ReadonlyMap<RawAddress, VwapSample>>();
  for (const [at, list] of byAt) {
    const quotes = new PriceBook(poolIndex([]), pricing, { at });
    out.set(
      at,
      vwapSamples(list, (token) => quotes.isQuote(token)),
    );
  }
  return out;
}

/** Reads the clamp's VWAPs at the boundaries `b` from `data` (null: it keeps no swap history). */
export async function readVwaps(
  data: Pick<DexReadModel, "getQuoteTrades">,
  pricing: PricingConfig,
  b: Boundaries,
  tokens?: readonly RawAddress[],
): Promise<VwapsAt | null> {
  const trades = await data.getQuoteTrades?.(vwapQuery(pricing, b, tokens));
  return trades === undefined ? null : vwapsAt(trades, pricing);
}

/** PriceBook options at `at`: the instant, and the clamp's VWAPs when they were read. */
export function bookOptions(at: number, vwaps: VwapLookup | null): PriceBookOptions {
  const samples = vwaps?.get(at);
  return samples === undefined ? { at } : { at, vwap: (token) => samples.get(token) ?? null };
}

/**
 * The DEX TVL at each boundary: every pool's state after its last transaction at or before it (`timeline`:
 * the read model's `getPoolStateTimeline` of these boundaries, in the order it gave them), priced with the
 * prices of that instant (§7.6); null when no pool with both tokens known has a state then.
 */
export function* tvlAtBoundaries(
  pools: ReadonlyMap<RawAddress, PoolRecord>,
  timeline: readonly PoolStatePoint[],
  b: Boundaries,
  pricing: PricingConfig,
  vwaps: VwapLookup | null,
): Generator<{ at: number; tvl: DexTvl | null }> {
  const sorted = [...timeline].sort((x, y) => x.at - y.at);
  const states = new Map<RawAddress, CurveState>();
  // The pools are priced in address order at every boundary, whatever the window's first boundary: a float
  // sum in another order can differ in its last bits, and a point must not depend on the window it was
  // asked in (a DEX TVL point is kept once computed: ./queries/tvl.ts).
  let order: RawAddress[] = [];
  let next = 0;
  for (let at = b.first; at <= b.last; at += b.step) {
    const known = states.size;
    while (next < sorted.length && sorted[next]!.at <= at) {
      const p = sorted[next++]!;
      states.set(p.pool, p.state);
    }
    if (states.size !== known) order = [...states.keys()].sort(byAddress);
    const priced: PricingPool[] = [];
    for (const address of order) {
      const state = states.get(address)!;
      const p = pools.get(address);
      if (p === undefined || p.token0 === null || p.token1 === null) continue;
      priced.push({ address, token0: p.token0, token1: p.token1, state, deprecated: p.deprecated });
    }
    const tvl =
      priced.length === 0
        ? null
        : dexTvl(new PriceBook(poolIndex(priced), pricing, bookOptions(at, vwaps)), priced);
    yield { at, tvl };
  }
}

const HOUR = 3_600;

/**
 * The sample instants of the mean TVL behind `apy_Nd` besides `until` (the current TVL), for the windows
 * (until − N days, until]: the hour boundaries strictly inside the last day; the day boundaries strictly
 * inside the last 30 days (the 7-day mean takes those inside the last 7).
 */
export function apySamples(until: number): { hourly: Boundaries; daily: Boundaries } {
  const inside = (step: number, span: number): Boundaries => ({
    first: Math.floor((until - span) / step) * step + step,
    last: Math.ceil(until / step) * step - step,
    step,
  });
  return { hourly: inside(HOUR, DAY), daily: inside(DAY, 30 * DAY) };
}

/** A sum of TVL samples and how many there are. */
export type SampleSum = { sum: number; n: number };
/** Per pool, its known TVLs at the `apySamples` instants of each window (the current TVL not included). */
export type TvlSamples = ReadonlyMap<
  RawAddress,
  { readonly d1: SampleSum; readonly d7: SampleSum; readonly d30: SampleSum }
>;

/**
 * The pools' TVL at the `apySamples` instants of `until`, summed per window: `hourly` and `daily` are the
 * read model's state timelines of those boundaries. A sample where a pool's TVL is not known (no state yet,
 * no price) is left out, not counted as 0.
 */
export function tvlSamples(
  pools: readonly PoolRecord[],
  hourly: readonly PoolStatePoint[],
  daily: readonly PoolStatePoint[],
  until: number,
  pricing: PricingConfig,
  /** The clamp's VWAPs at the boundaries of both (null: not read). */
  vwaps: VwapsAt | null,
): TvlSamples {
  const b = apySamples(until);
  const byAddress = new Map(pools.map((p) => [p.address, p]));
  const out = new Map<RawAddress, { d1: SampleSum; d7: SampleSum; d30: SampleSum }>();
  const entry = (pool: RawAddress) => {
    let e = out.get(pool);
    if (e === undefined) {
      e = { d1: { sum: 0, n: 0 }, d7: { sum: 0, n: 0 }, d30: { sum: 0, n: 0 } };
      out.set(pool, e);
    }
    return e;
  };
  const add = (s: SampleSum, v: number) => {
    s.sum += v;
    s.n += 1;
  };
  for (const { tvl } of tvlAtBoundaries(byAddress, hourly, b.hourly, pricing, vwaps)) {
    for (const [pool, v] of tvl?.pools ?? []) if (v !== null) add(entry(pool).d1, v);
  }
  for (const { at, tvl } of tvlAtBoundaries(byAddress, daily, b.daily, pricing, vwaps)) {
    for (const [pool, v] of tvl?.pools ?? []) {
      if (v === null) continue;
      const e = entry(pool);
      add(e.d30, v);
      if (at > until - 7 * DAY) add(e.d7, v);
    }
  }
  return out;
}

export function priceCatalogue(
  assets: readonly AssetRecord[],
  pools: readonly PoolRecord[],
  pricing: PricingConfig,
  windows: PoolUsdWindows | null,
  samples: TvlSamples | null = null,
  /** The clamp's VWAPs at `windows.until` (null: not read). */
  vwaps: VwapsAt | null = null,
): PricedCatalogue {
  const priced = pricingPools(pools);
  const book = new PriceBook(
    poolIndex(priced),
    pricing,
    windows === null ? {} : bookOptions(windows.until, vwaps),
  );
  const tvl = dexTvl(book, priced).pools;
  const liquidity = new Map<RawAddress, number>();
  /** Tokens held by a pool whose state is not known: their liquidity is unknown unless some pool values it. */
  const stateUnknown = new Set<RawAddress>();
  const volume24h = new Map<RawAddress, number>();
  const outPools = pools.map((p): PoolRecord => {
    const poolTvl = tvl.get(p.address) ?? null;
    const w = windows?.pools.get(p.address);
    if (!p.deprecated && p.token0 !== null && p.token1 !== null) {
      for (const token of new Set([p.token0, p.token1])) {
        if (poolTvl !== null) liquidity.set(token, (liquidity.get(token) ?? 0) + poolTvl / 2);
        if (p.state === null) stateUnknown.add(token);
        if (w !== undefined) volume24h.set(token, (volume24h.get(token) ?? 0) + w.volume1d);
      }
    }
    const stats = poolStats(p, poolTvl, windows, w, samples?.get(p.address));
    return stats === undefined ? p : { ...p, stats: { ...p.stats, ...stats } };
  });
  const outAssets = assets.map((a): AssetRecord => {
    const price = book.price(a.address);
    const L = liquidity.get(a.address) ?? null;
    const popular =
      (L ?? 0) >= POPULAR_LIQUIDITY_USD || (volume24h.get(a.address) ?? 0) >= POPULAR_VOLUME_24H_USD;
    // No valued pool: `no` when every pool holding the asset has a known state (none priced: not liquid,
    // §7.6), no liquidity tag at all when some pool's state is unknown (unknown is not zero).
    const liquidityTag = L === null && stateUnknown.has(a.address) ? [] : liquidityTags(L);
    const tags = [...a.tags.filter((t) => !LIQUIDITY_TAGS.includes(t)), ...liquidityTag];
    if (popular) tags.push("asset:popular");
    // A quote's decimals are configuration (USD₮ 6, TON 9) when the metadata is not known.
    const decimals = a.decimals ?? book.quoteDecimals(a.address) ?? null;
    const usd =
      price === null || decimals === null ? undefined : plainDecimal(price.usdPerUnit * 10 ** decimals);
    const { dexPriceUsd: _, popularityIndex: __, ...rest } = a;
    return {
      ...rest,
      tags,
      ...(usd === undefined ? {} : { dexPriceUsd: usd }),
      ...(L === null ? {} : { popularityIndex: cents(L) }),
    };
  });
  return { assets: outAssets, pools: outPools };
}

function poolStats(
  p: PoolRecord,
  tvl: number | null,
  windows: PoolUsdWindows | null,
  w: PoolUsdWindow | undefined,
  sampled: { readonly d1: SampleSum; readonly d7: SampleSum; readonly d30: SampleSum } | undefined,
): PoolStats | undefined {
  const stats: PoolStats = {};
  if (tvl !== null) {
    stats.lpTotalSupplyUsd = plainDecimal(tvl);
    stats.popularityIndex = cents(tvl);
    const supply = p.state?.lpSupply ?? 0n;
    if (supply > 0n) stats.lpPriceUsd = plainDecimal(tvl / (Number(supply) / 1e9));
  }
  if (windows !== null) {
    stats.volume24hUsd = plainDecimal(w?.volume1d ?? 0);
    if (tvl !== null && tvl > 0) {
      const history = windows.until - windows.firstIndexed;
      // A window longer than the indexed history is not known (no APY rather than an extrapolation).
      // The mean of the known TVLs at the window's samples, the current one included (> 0: it is).
      const mean = (s: SampleSum | undefined) => (tvl + (s?.sum ?? 0)) / (1 + (s?.n ?? 0));
      const apy = (fees: number, days: number, s: SampleSum | undefined): string | undefined =>
        history >= days * DAY ? plainDecimal(((fees / mean(s)) * YEAR) / (days * DAY)) : undefined;
      stats.apy1d = apy(w?.lpFee1d ?? 0, 1, sampled?.d1);
      stats.apy7d = apy(w?.lpFee7d ?? 0, 7, sampled?.d7);
      stats.apy30d = apy(w?.lpFee30d ?? 0, 30, sampled?.d30);
    }
  }
  for (const k of Object.keys(stats) as (keyof PoolStats)[]) if (stats[k] === undefined) delete stats[k];
  return Object.keys(stats).length === 0 ? undefined : stats;
}
