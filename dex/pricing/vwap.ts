/**
 * A token's volume-weighted average USD price over its recent trades against quotes (analytics.md §7.4),
 * the reference the clamp of low/medium prices uses. In memory, fed in time order; pure (no clock: the
 * caller says what "now" is).
 */
import type { VwapSample } from "./book.ts";
import type { PricingConfig } from "./config.ts";

type Trade = { readonly at: number; readonly units: number; readonly usd: number };

export class VwapWindow {
  readonly #windowSeconds: number;
  readonly #trades = new Map<string, Trade[]>();

  constructor(windowSeconds: number) {
    this.#windowSeconds = windowSeconds;
  }

  /** A trade of `units` raw units of `token` worth `usd`, at unix second `at`. */
  record(token: string, at: number, units: bigint, usd: number): void {
    if (units <= 0n || !(usd > 0)) return;
    const list = this.#trades.get(token);
    const t = { at, units: Number(units), usd };
    if (list === undefined) this.#trades.set(token, [t]);
    else {
      // Kept in time order (`sample` relies on it): trades come in release order, and an operation whose
      // trace completes later may be released after a later-anchored one.
      let i = list.length;
      while (i > 0 && list[i - 1]!.at > at) i--;
      list.splice(i, 0, t);
    }
  }

  /** VWAP over trades in (at − window, at]; null without trades. Older trades are dropped. */
  sample(token: string, at: number): VwapSample | null {
    const list = this.#trades.get(token);
    if (list === undefined) return null;
    const from = at - this.#windowSeconds;
    let first = 0;
    while (first < list.length && list[first]!.at <= from) first++;
    if (first > 0) list.splice(0, first);
    let units = 0;
    let usd = 0;
    let trades = 0;
    for (const t of list) {
      if (t.at > at) break;
      units += t.units;
      usd += t.usd;
      trades++;
    }
    if (list.length === 0) this.#trades.delete(token);
    return trades === 0 ? null : { usdPerUnit: usd / units, trades };
  }
}

/**
 * A token's trades against one quote over one VWAP window, summed (the API reads them from the stored
 * swaps: api/read-model.ts `getQuoteTrades`): the trades `VwapWindow.record` takes, i.e. executed legs with
 * exactly one side a quote, a positive token amount and a positive USD value (the quote side at its price).
 */
export type QuoteTrades = {
  readonly token: string;
  readonly quote: string;
  /** Raw units of `token` traded, summed. */
  readonly units: number;
  /** Their USD value: the quote side at the quote's price before each trade (swaps.volume_usd), summed. */
  readonly usd: number;
  readonly trades: number;
};

/**
 * The VWAP sample of every token in `sums` (one window), as `VwapWindow.sample` gives it from the same
 * trades: Σ usd / Σ units over every quote. A row whose `quote` is not a quote of the instant priced, or
 * whose `token` is one, is left out (`isQuote`: the PriceBook's of that instant).
 */
export function vwapSamples(
  sums: Iterable<QuoteTrades>,
  isQuote: (token: string) => boolean,
): Map<string, VwapSample> {
  const acc = new Map<string, { units: number; usd: number; trades: number }>();
  for (const s of sums) {
    if (s.trades <= 0 || !(s.units > 0) || !(s.usd > 0) || !isQuote(s.quote) || isQuote(s.token)) continue;
    const a = acc.get(s.token);
    if (a === undefined) acc.set(s.token, { units: s.units, usd: s.usd, trades: s.trades });
    else {
      a.units += s.units;
      a.usd += s.usd;
      a.trades += s.trades;
    }
  }
  const out = new Map<string, VwapSample>();
  for (const [token, a] of acc) out.set(token, { usdPerUnit: a.usd / a.units, trades: a.trades });
  return out;
}

/**
 * The tokens a trade against which can feed a VWAP (§7.4): every USD anchor (whatever its time range: the
 * instant priced decides, `vwapSamples`), every TON alias and the LSDs with a rate. A store reading the
 * trades takes the side in this list as the quote and leaves out trades with both sides or neither in it.
 */
export function quoteCandidates(config: PricingConfig, lsdRates?: ReadonlyMap<string, number>): string[] {
  const out = new Set<string>([...config.usdAnchors.map((a) => a.address), ...config.tonAliases]);
  for (const l of config.lsds) if (lsdRates?.has(l.address) === true) out.add(l.address);
  return [...out].sort();
}
