/**
 * Pool TVL in USD from the pool's state, never from summed deltas (shared/reference/analytics.md §7.6):
 *
 * | constant product              | TVL                                                        |
 * |-------------------------------|------------------------------------------------------------|
 * | both tokens priced            | R0·P0 + R1·P1, capped at 2·R_q·P_q when one side is a quote and the sum < `matureTvlUsd` |
 * | only the quote side priced    | 2·R_q·P_q                                                  |
 * | otherwise                     | null (not liquid)                                          |
 *
 * Stable and weighted pools: Σ R_i·P_i when every side is priced (no 2× rule), else null. Reserves are the
 * pool's reserves, which never include STON.fi's collected protocol fees (kept in separate fields). DEX TVL
 * adds DefiLlama's guard: a token is valued across jetton/jetton pools at most `restrictTokenRatio` times its
 * balance in quote pools; the excess is reported as untracked.
 */
import type { PoolType } from "../amm/types.ts";
import type { PriceBook, PricingPool } from "./book.ts";
import type { PricingConfig } from "./config.ts";

export type PoolTvl = {
  /** Pool TVL in USD; null: not liquid (no side the methodology can value). */
  readonly tvlUsd: number | null;
  /** USD value of each reserve (null when that side has no price). */
  readonly value0: number | null;
  readonly value1: number | null;
};

const CONSTANT_PRODUCT: ReadonlySet<PoolType> = new Set(["v1_constant_product", "v2_constant_product"]);

export function poolTvl(book: PriceBook, pool: PricingPool): PoolTvl {
  const p0 = book.valuation(pool.token0);
  const p1 = book.valuation(pool.token1);
  const value0 = p0 === null ? null : Number(pool.state.reserve0) * p0.usdPerUnit;
  const value1 = p1 === null ? null : Number(pool.state.reserve1) * p1.usdPerUnit;
  if (!CONSTANT_PRODUCT.has(pool.state.type)) {
    return { tvlUsd: value0 === null || value1 === null ? null : value0 + value1, value0, value1 };
  }
  const q0 = book.isQuote(pool.token0) && value0 !== null;
  const q1 = book.isQuote(pool.token1) && value1 !== null;
  if (value0 !== null && value1 !== null) {
    const sum = value0 + value1;
    // Both quotes: both values are trusted. One quote: the immature-pool cap guards a mispriced other side.
    if (q0 === q1 || sum >= book.config.matureTvlUsd) return { tvlUsd: sum, value0, value1 };
    return { tvlUsd: Math.min(sum, 2 * (q0 ? value0 : value1)), value0, value1 };
  }
  if (q0) return { tvlUsd: 2 * (value0 as number), value0, value1 };
  if (q1) return { tvlUsd: 2 * (value1 as number), value0, value1 };
  return { tvlUsd: null, value0, value1 };
}

export type DexTvl = {
  /** Σ tracked pool TVL over non-deprecated pools. */
  readonly tvlUsd: number;
  /** Value left out by the jetton/jetton guard. */
  readonly untrackedTvlUsd: number;
  /** Each pool's tracked TVL (null: not liquid). Deprecated pools are listed, not summed. */
  readonly pools: ReadonlyMap<string, number | null>;
};

/** DEX TVL over `pools` with the jetton/jetton guard (§7.6); per-pool figures after the guard. */
export function dexTvl(book: PriceBook, pools: Iterable<PricingPool>): DexTvl {
  const list = [...pools];
  const tvls = new Map<string, PoolTvl>();
  const quoteBalance = new Map<string, number>();
  const jjBalance = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0) + Number(v));
  for (const p of list) {
    tvls.set(p.address, poolTvl(book, p));
    const quote0 = book.isQuote(p.token0);
    const quote1 = book.isQuote(p.token1);
    if (quote0 && !quote1) add(quoteBalance, p.token1, p.state.reserve1);
    else if (quote1 && !quote0) add(quoteBalance, p.token0, p.state.reserve0);
    else if (!quote0 && !quote1) {
      add(jjBalance, p.token0, p.state.reserve0);
      add(jjBalance, p.token1, p.state.reserve1);
    }
  }
  // Share of a token's jetton/jetton balance that may be valued (1: all of it).
  const share = (token: string): number => {
    const jj = jjBalance.get(token) ?? 0;
    const cap = book.config.restrictTokenRatio * (quoteBalance.get(token) ?? 0);
    return jj <= cap ? 1 : cap / jj;
  };
  let tvlUsd = 0;
  let untrackedTvlUsd = 0;
  const out = new Map<string, number | null>();
  for (const p of list) {
    const t = tvls.get(p.address) as PoolTvl;
    let tracked = t.tvlUsd;
    if (tracked !== null && !book.isQuote(p.token0) && !book.isQuote(p.token1)) {
      const kept = (t.value0 ?? 0) * share(p.token0) + (t.value1 ?? 0) * share(p.token1);
      if (p.deprecated !== true) untrackedTvlUsd += tracked - kept;
      tracked = kept;
    }
    out.set(p.address, tracked);
    if (tracked !== null && p.deprecated !== true) tvlUsd += tracked;
  }
  return { tvlUsd, untrackedTvlUsd, pools: out };
}

/**
 * The pools whose states decide `target`'s tracked TVL in `dexTvl`, in their order in `pools`: the
 * TON-alias/USD-anchor pools (TON's price, behind every TON and LSD quote) and, for each of its tokens that
 * may not be a quote at some instant, the pools holding it (its one-hop price and the jetton/jetton guard's
 * balances). TON aliases and USD anchors without a time limit are always quotes: their price needs no pool
 * of theirs. `dexTvl` over these pools gives `target` the very figure it gets over every pool (the same
 * candidates, summed and ranked in the same order).
 */
export function tvlDependencies<P extends { readonly token0: string; readonly token1: string }>(
  pools: readonly P[],
  target: P,
  config: PricingConfig,
): P[] {
  const aliases = new Set(config.tonAliases);
  const anchors = new Set(config.usdAnchors.map((a) => a.address));
  const alwaysQuote = (t: string) =>
    aliases.has(t) ||
    config.usdAnchors.some((a) => a.address === t && a.from === undefined && a.until === undefined);
  const tokens = new Set([target.token0, target.token1].filter((t) => !alwaysQuote(t)));
  const tonUsd = (a: string, b: string) => aliases.has(a) && anchors.has(b);
  return pools.filter(
    (p) =>
      p === target ||
      tokens.has(p.token0) ||
      tokens.has(p.token1) ||
      tonUsd(p.token0, p.token1) ||
      tonUsd(p.token1, p.token0),
  );
}
