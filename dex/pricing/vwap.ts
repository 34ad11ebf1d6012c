/**
 * A token's volume-weighted average USD price over its recent trades against quotes (analytics.md §7.4),
 * the reference the clamp of low/medium prices uses. In memory, fed in time order; pure (no clock: the
 * caller says what "now" is).
 */
import type { VwapSample } from "./book.ts";

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
    else list.push(t);
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
