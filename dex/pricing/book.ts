/**
 * USD prices from pool states, as shared/reference/analytics.md §7.1–§7.4 define them:
 *
 * - USD anchors are worth exactly 1 USD; TON aliases are worth `P_TON`; an LSD with a known rate is worth
 *   `P_TON × rate` (§7.1). These three are the *quotes*.
 * - `P_TON` = depth-weighted median of the spot prices of every TON-alias/USD-anchor pool whose USD side
 *   holds ≥ `tonPoolMinDepthUsd`; none → the last known value, flagged `stale` (§7.2).
 * - Any other token X: one hop through quotes only — pools (X, Q) with both reserves > 0, quote depth
 *   `D = R_Q·P_Q ≥ minDepthUsd`, kept when `D ≥ depthShareOfMax · max D`; the price is the D-weighted
 *   median of `spot(X→Q)·P_Q`, its confidence set by `max D` (§7.3). Jetton/jetton pools never price, and a
 *   token without a deep enough quote pool has no price (`null`, never 0).
 *
 * Prices are USD per raw unit of the token (Float64, approximate by nature); a whole token's price is
 * `usdPerUnit · 10^decimals`. Spot prices come from dex/amm (the curve's marginal price, so stable and
 * weighted pools are read on their own curve). Pure: the pools come from a `PoolView`.
 */
import { spotPrice } from "../amm/price.ts";
import type { Ratio } from "../amm/ratio.ts";
import type { CurveState } from "../amm/types.ts";
import { type PricingConfig, TON_DECIMALS, type UsdAnchor } from "./config.ts";
import { weightedMedian } from "./median.ts";

export type Confidence = "high" | "medium" | "low";
export type PriceSource = "usd_anchor" | "ton" | "lsd" | "pools";

export type TokenPrice = {
  /** USD per raw unit of the token. */
  readonly usdPerUnit: number;
  readonly confidence: Confidence;
  readonly source: PriceSource;
  /** Set from TON/USD's last value: no deep TON/USD pool at this instant. */
  readonly stale: boolean;
  /** `pools`: the deepest eligible candidate's quote depth in USD; otherwise null. */
  readonly depthUsd: number | null;
};

/** A pool as pricing reads it: its tokens (raw addresses, pool order) and its state. */
export type PricingPool = {
  readonly address: string;
  readonly token0: string;
  readonly token1: string;
  readonly state: CurveState;
  readonly deprecated?: boolean;
};

/**
 * Where pricing finds pools: every pool holding a token (either side); optionally the pools of one pair,
 * which TON/USD asks for (faster than filtering every TON pool when there are thousands).
 */
export type PoolView = {
  poolsWith(token: string): Iterable<PricingPool>;
  poolsOfPair?(a: string, b: string): Iterable<PricingPool>;
};

/** The key of an unordered token pair. */
export const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** A `PoolView` over a fixed list of pools. */
export function poolIndex(
  pools: Iterable<PricingPool>,
): PoolView & { readonly pools: readonly PricingPool[] } {
  const byToken = new Map<string, PricingPool[]>();
  const byPair = new Map<string, PricingPool[]>();
  const all: PricingPool[] = [];
  const add = (m: Map<string, PricingPool[]>, key: string, p: PricingPool) => {
    const list = m.get(key);
    if (list === undefined) m.set(key, [p]);
    else list.push(p);
  };
  for (const p of pools) {
    all.push(p);
    add(byToken, p.token0, p);
    if (p.token1 !== p.token0) add(byToken, p.token1, p);
    add(byPair, pairKey(p.token0, p.token1), p);
  }
  return {
    pools: all,
    poolsWith: (token) => byToken.get(token) ?? [],
    poolsOfPair: (a, b) => byPair.get(pairKey(a, b)) ?? [],
  };
}

/** A token's volume-weighted price over recent quote-pool trades (§7.4), for the clamp. */
export type VwapSample = { readonly usdPerUnit: number; readonly trades: number };

export type PriceBookOptions = {
  /** The instant priced (unix seconds): decides time-limited anchors. Absent: the present. */
  readonly at?: number;
  /** USD per whole TON to fall back on when no deep TON/USD pool exists (§7.2 "last value"). */
  readonly lastTonUsd?: number | null;
  /** TON per whole LSD token, from the LSD's own contract state; an LSD without one is priced as any token. */
  readonly lsdRates?: ReadonlyMap<string, number>;
  /** Recent VWAP of a token, for the clamp of low/medium prices (§7.4). */
  readonly vwap?: (token: string) => VwapSample | null;
};

const FINITE = 1n << 1000n;

/** An exact ratio as a float, without overflowing for very large numerators and denominators. */
export function ratioToNumber(r: Ratio): number {
  // Below 2^1000 both convert to finite doubles (the usual case: no bit count needed).
  if (r.num < FINITE && r.den < FINITE) return Number(r.num) / Number(r.den);
  const bits = Math.max(r.num.toString(2).length, r.den.toString(2).length);
  const shift = BigInt(Math.max(0, bits - 1000));
  return Number(r.num >> shift) / Number(r.den >> shift);
}

/** Price of `token`'s raw unit in units of the pool's other token (the curve's marginal price, no fee). */
export function spotInOther(pool: PricingPool, token: string): number {
  return ratioToNumber(spotPrice(pool.state, pool.token0 === token ? "0to1" : "1to0"));
}

const otherToken = (pool: PricingPool, token: string): string =>
  pool.token0 === token ? pool.token1 : pool.token0;
const reserveOf = (pool: PricingPool, token: string): bigint =>
  pool.token0 === token ? pool.state.reserve0 : pool.state.reserve1;

/**
 * Prices at one instant over one view of the pools. Results are memoised: build one book per instant
 * (per swap in the processor, per pool-state snapshot in the API).
 */
export class PriceBook {
  readonly #view: PoolView;
  readonly #config: PricingConfig;
  readonly #options: PriceBookOptions;
  readonly #at: number;
  readonly #aliases: ReadonlySet<string>;
  readonly #lsds: ReadonlyMap<string, number>;
  readonly #blacklist: ReadonlySet<string>;
  readonly #prices = new Map<string, TokenPrice | null>();
  #ton: { usdPerTon: number; stale: boolean } | null | undefined;

  constructor(view: PoolView, config: PricingConfig, options: PriceBookOptions = {}) {
    this.#view = view;
    this.#config = config;
    this.#options = options;
    this.#at = options.at ?? Number.POSITIVE_INFINITY;
    this.#aliases = new Set(config.tonAliases);
    this.#lsds = new Map(config.lsds.map((l) => [l.address, l.decimals]));
    this.#blacklist = new Set(config.blacklist);
  }

  get config(): PricingConfig {
    return this.#config;
  }

  /** The USD anchor `token` is at this instant, if any. */
  usdAnchor(token: string): UsdAnchor | undefined {
    return this.#config.usdAnchors.find(
      (a) =>
        a.address === token &&
        (a.from === undefined || this.#at >= a.from) &&
        (a.until === undefined || this.#at < a.until),
    );
  }

  /** The decimals the configuration states for a quote (anchor, TON alias, LSD); undefined for others. */
  quoteDecimals(token: string): number | undefined {
    if (this.#aliases.has(token)) return TON_DECIMALS;
    return this.#config.usdAnchors.find((a) => a.address === token)?.decimals ?? this.#lsds.get(token);
  }

  isTonAlias(token: string): boolean {
    return this.#aliases.has(token);
  }

  /** A quote (§7.3: USD anchor, TON alias, LSD with a rate), whether or not its price is known now. */
  isQuote(token: string): boolean {
    return (
      this.usdAnchor(token) !== undefined ||
      this.#aliases.has(token) ||
      (this.#lsds.has(token) && this.#options.lsdRates?.has(token) === true)
    );
  }

  /** USD per whole TON (§7.2); null when no deep pool ever priced it. */
  tonUsd(): { usdPerTon: number; stale: boolean } | null {
    if (this.#ton === undefined) this.#ton = this.#computeTonUsd();
    return this.#ton;
  }

  #usable(pool: PricingPool): boolean {
    return (
      pool.deprecated !== true &&
      pool.state.reserve0 > 0n &&
      pool.state.reserve1 > 0n &&
      !this.#blacklist.has(pool.address) &&
      !this.#blacklist.has(pool.token0) &&
      !this.#blacklist.has(pool.token1)
    );
  }

  /** The pools holding a TON alias and a USD anchor. */
  *#tonUsdPools(): Iterable<[alias: string, pool: PricingPool]> {
    const pairs = this.#view.poolsOfPair?.bind(this.#view);
    for (const alias of this.#config.tonAliases) {
      if (pairs === undefined) {
        for (const pool of this.#view.poolsWith(alias)) yield [alias, pool];
        continue;
      }
      for (const anchor of this.#config.usdAnchors) {
        for (const pool of pairs(alias, anchor.address)) yield [alias, pool];
      }
    }
  }

  #computeTonUsd(): { usdPerTon: number; stale: boolean } | null {
    const seen = new Set<string>();
    const items = [];
    for (const [alias, pool] of this.#tonUsdPools()) {
      if (seen.has(pool.address) || !this.#usable(pool)) continue;
      seen.add(pool.address);
      const anchor = this.usdAnchor(otherToken(pool, alias));
      if (anchor === undefined) continue;
      const depth = Number(reserveOf(pool, anchor.address)) / 10 ** anchor.decimals;
      if (depth < this.#config.tonPoolMinDepthUsd) continue;
      const value = spotInOther(pool, alias) * 10 ** (TON_DECIMALS - anchor.decimals);
      items.push({ value, weight: depth, key: pool.address });
    }
    const median = weightedMedian(items);
    if (median !== null) return { usdPerTon: median, stale: false };
    const last = this.#options.lastTonUsd;
    return last === null || last === undefined ? null : { usdPerTon: last, stale: true };
  }

  /** The price of a quote token (anchor, TON alias, LSD with a rate); null for anything else. */
  quotePrice(token: string): TokenPrice | null {
    const anchor = this.usdAnchor(token);
    if (anchor !== undefined) return fixed(10 ** -anchor.decimals, "usd_anchor", false);
    if (this.#aliases.has(token) || this.isQuote(token)) {
      const ton = this.tonUsd();
      if (ton === null) return null;
      const perTonUnit = ton.usdPerTon / 10 ** TON_DECIMALS;
      if (this.#aliases.has(token)) return fixed(perTonUnit, "ton", ton.stale);
      const rate = this.#options.lsdRates?.get(token) ?? 0;
      const decimals = this.#lsds.get(token) ?? TON_DECIMALS;
      return fixed(ton.usdPerTon * rate * 10 ** -decimals, "lsd", ton.stale);
    }
    return null;
  }

  /** §7.1–§7.3: the token's USD price, or null (no quote pool deep enough, blacklisted, jetton/jetton only). */
  price(token: string): TokenPrice | null {
    if (this.#prices.has(token)) return this.#prices.get(token) ?? null;
    const p = this.#blacklist.has(token)
      ? null
      : this.isQuote(token)
        ? this.quotePrice(token)
        : this.#oneHop(token);
    this.#prices.set(token, p);
    return p;
  }

  #oneHop(token: string): TokenPrice | null {
    const candidates: { value: number; depth: number; key: string; stale: boolean }[] = [];
    for (const pool of this.#view.poolsWith(token)) {
      const quote = otherToken(pool, token);
      if (quote === token || !this.isQuote(quote) || !this.#usable(pool)) continue;
      const q = this.quotePrice(quote);
      if (q === null) continue;
      const depth = Number(reserveOf(pool, quote)) * q.usdPerUnit;
      if (depth < this.#config.minDepthUsd) continue;
      candidates.push({
        value: spotInOther(pool, token) * q.usdPerUnit,
        depth,
        key: pool.address,
        stale: q.stale,
      });
    }
    if (candidates.length === 0) return null;
    const maxDepth = Math.max(...candidates.map((c) => c.depth));
    const kept = candidates.filter((c) => c.depth >= this.#config.depthShareOfMax * maxDepth);
    const value = weightedMedian(kept.map((c) => ({ value: c.value, weight: c.depth, key: c.key })));
    if (value === null) return null;
    return {
      usdPerUnit: value,
      confidence: this.confidenceOf(maxDepth),
      source: "pools",
      stale: kept.some((c) => c.stale),
      depthUsd: maxDepth,
    };
  }

  /** §7.3 step 3 (the caller has already checked `depthUsd ≥ minDepthUsd`). */
  confidenceOf(depthUsd: number): Confidence {
    if (depthUsd >= this.#config.highConfidenceDepthUsd) return "high";
    if (depthUsd >= this.#config.mediumConfidenceDepthUsd) return "medium";
    return "low";
  }

  /**
   * The price that values volume and TVL: `price`, with a low/medium-confidence pool price clamped to
   * [VWAP/f, f·VWAP] of the token's recent quote-pool trades when there are enough of them (§7.4).
   */
  valuation(token: string): TokenPrice | null {
    const p = this.price(token);
    if (p === null || p.source !== "pools" || p.confidence === "high") return p;
    const sample = this.#options.vwap?.(token) ?? null;
    if (sample === null || sample.trades < this.#config.vwapMinTrades) return p;
    const clamped = clampToVwap(p.usdPerUnit, sample.usdPerUnit, this.#config.vwapClampFactor);
    return clamped === p.usdPerUnit ? p : { ...p, usdPerUnit: clamped };
  }
}

const fixed = (usdPerUnit: number, source: PriceSource, stale: boolean): TokenPrice => ({
  usdPerUnit,
  confidence: "high",
  source,
  stale,
  depthUsd: null,
});

/** `price` limited to [vwap/factor, vwap·factor]. */
export function clampToVwap(price: number, vwap: number, factor: number): number {
  return Math.min(Math.max(price, vwap / factor), vwap * factor);
}
