/**
 * USD columns of swap rows (migration 010) and of referral-fee accruals and vault withdrawals (019), priced with the pool states of the instant BEFORE each swap
 * (shared/reference/analytics.md §7.5, as Uniswap v3 values a swap before its own price update):
 *
 * - The tracker runs ahead of the trace window (a batch's pool states are known before its operations are
 *   released), so every pool's recent states are kept here with their (mc_seqno, lt); a swap anchored at
 *   (mc, lt) sees, for every pool, the last state strictly before it. States of released blocks fold into one
 *   base state per pool; a restart seeds the bases from the restored tracker.
 * - Pools are known by their token masters (the `pools` rows: a pTON side is its pTON master, a TON alias).
 * - `volume_usd`/`untracked_volume_usd` come from dex/pricing `swapVolumeUsd`; `lp_fee_usd` is the
 *   volume times the pool's LP fee before the swap. A leg that did not execute (success not true, no output)
 *   or whose assets are not known gets null in all three: unknown, never 0.
 * - A referral fee's or a withdrawal's `amount_usd` is its amount at its asset's valuation price before its
 *   anchoring transaction (null when it did not happen or nothing prices it).
 * - The last fresh TON/USD is kept for §7.2's stale fallback, and trades against a quote feed the VWAP
 *   window of §7.4's clamp.
 * - A restart (`restoreHistory`) gets back the pool states around its resume point, so re-released swaps
 *   see the states they saw before; the VWAP window and the last TON/USD start empty, so a price the clamp
 *   would have bound in the hour after a restart, or a stale TON/USD fallback, may differ (both rare: a 3×
 *   deviation from the recent VWAP; no deep TON/USD pool at all).
 * Pure: no I/O, no clock (the swaps' own times).
 */
import type { PoolState } from "../../dex/amm/index.ts";
import { poolStateOfColumns } from "../../dex/pool-state-row.ts";
import {
  lpFeeUsd,
  type PoolView,
  PriceBook,
  type PricingConfig,
  type PricingPool,
  pairKey,
  swapVolumeUsd,
  VwapWindow,
} from "../../dex/pricing/index.ts";
import type { PoolStateRow, ReferralFeeRow, SwapRow, VaultWithdrawalRow } from "../../schemas/facts.ts";

/** What `priceAmount` values: an amount of one asset at an anchoring transaction. */
type AmountRow = Pick<
  ReferralFeeRow | VaultWithdrawalRow,
  "mc_seqno" | "lt" | "utime" | "success" | "asset_master" | "amount" | "amount_usd"
>;

type Entry = { readonly mc: number; readonly lt: bigint; readonly state: PoolState };
type Tokens = { readonly token0: string; readonly token1: string };

const before = (e: Entry, mc: number, lt: bigint) => e.mc < mc || (e.mc === mc && e.lt < lt);

export class SwapPricer {
  readonly #config: PricingConfig;
  /** Per pool: states in (mc, lt) order; the first may be a base folded from released blocks. */
  readonly #history = new Map<string, Entry[]>();
  readonly #tokens = new Map<string, Tokens>();
  readonly #byToken = new Map<string, Set<string>>();
  readonly #byPair = new Map<string, Set<string>>();
  readonly #vwap: VwapWindow;
  #lastTonUsd: number | null = null;

  constructor(config: PricingConfig) {
    this.#config = config;
    this.#vwap = new VwapWindow(config.vwapWindowSeconds);
  }

  /** States known before anything this pricer saw (a restored tracker): bases older than every swap. */
  seed(states: Iterable<{ pool: string; lt: bigint; state: PoolState }>): void {
    for (const s of states) {
      if (!this.#history.has(s.pool)) this.#history.set(s.pool, [{ mc: -1, lt: s.lt, state: s.state }]);
    }
  }

  /**
   * After a restart that resumes after block `after`: the stored pool states, so swaps re-released from the
   * re-read blocks see the states a processor that never stopped saw. Rows of blocks ≤ `after` give each
   * pool's base (its last one); later rows are its history. (The restored tracker skips the re-read
   * transactions, so they report no state again.) Any superset of those rows may be passed.
   */
  restoreHistory(rows: readonly PoolStateRow[], after: number): void {
    const base = new Map<string, PoolStateRow>();
    const recent: PoolStateRow[] = [];
    for (const r of rows) {
      if (r.mc_seqno > after) recent.push(r);
      else if ((base.get(r.pool)?.lt ?? -1n) < r.lt) base.set(r.pool, r);
    }
    for (const r of base.values()) {
      this.#history.set(r.pool, [{ mc: -1, lt: r.lt, state: poolStateOfColumns(r) }]);
    }
    this.record(
      [...recent].sort((a, b) => a.mc_seqno - b.mc_seqno || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0)),
    );
  }

  /** Pool states the tracker recorded (or a resync read), in lt order per pool. */
  record(rows: readonly PoolStateRow[]): void {
    for (const r of rows) {
      const e = { mc: r.mc_seqno, lt: r.lt, state: poolStateOfColumns(r) };
      const list = this.#history.get(r.pool);
      if (list === undefined) this.#history.set(r.pool, [e]);
      else {
        let i = list.length;
        while (i > 0 && !before(list[i - 1]!, e.mc, e.lt)) i--;
        list.splice(i, 0, e);
      }
    }
  }

  /** A pool's tokens (jetton masters; pTON master for TON), once known. */
  learnPool(pool: string, token0: string | null, token1: string | null): void {
    if (token0 === null || token1 === null || this.#tokens.has(pool)) return;
    this.#tokens.set(pool, { token0, token1 });
    const add = (m: Map<string, Set<string>>, k: string) => {
      const set = m.get(k);
      if (set === undefined) m.set(k, new Set([pool]));
      else set.add(pool);
    };
    add(this.#byToken, token0);
    add(this.#byToken, token1);
    add(this.#byPair, pairKey(token0, token1));
  }

  /** Folds the states of blocks ≤ `mc` (their operations are released) into one base per pool. */
  prune(mc: number): void {
    for (const list of this.#history.values()) {
      let last = -1;
      while (last + 1 < list.length && list[last + 1]!.mc <= mc) last++;
      if (last > 0) list.splice(0, last);
    }
  }

  #stateBefore(pool: string, mc: number, lt: bigint): PoolState | null {
    const list = this.#history.get(pool);
    if (list === undefined) return null;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(list[mid]!, mc, lt)) lo = mid + 1;
      else hi = mid;
    }
    // Nothing before it: only a seeded base (a restart's state, older than every swap) stands for "before".
    return lo === 0 ? (list[0]?.mc === -1 ? list[0].state : null) : list[lo - 1]!.state;
  }

  #view(mc: number, lt: bigint): PoolView {
    const pricing = (pool: string): PricingPool | null => {
      const tokens = this.#tokens.get(pool);
      const state = tokens === undefined ? null : this.#stateBefore(pool, mc, lt);
      return state === null ? null : { address: pool, token0: tokens!.token0, token1: tokens!.token1, state };
    };
    function* of(set: Set<string> | undefined): Iterable<PricingPool> {
      for (const pool of set ?? []) {
        const p = pricing(pool);
        if (p !== null) yield p;
      }
    }
    return {
      poolsWith: (token) => of(this.#byToken.get(token)),
      poolsOfPair: (a, b) => of(this.#byPair.get(pairKey(a, b))),
    };
  }

  /**
   * One swap row with its USD columns set (a new object). Swaps feed the VWAP window and the last TON/USD,
   * so rows are priced in release order (./index.ts), interleaved with the amounts of `priceAmount`.
   */
  priceSwap(r: SwapRow): SwapRow {
    return { ...r, ...this.#usd(r) };
  }

  /**
   * A referral-fee accrual or a vault withdrawal with `amount_usd` set (a new object): the amount times its
   * asset's valuation price (§7.3–§7.4, the price TVL values holdings with) at the instant before the
   * anchoring transaction. Null when it did not happen (success not true), its asset is not known, or
   * nothing prices it.
   */
  priceAmount<R extends AmountRow>(r: R): R {
    if (r.success !== true || r.asset_master === null) return { ...r, amount_usd: null };
    const price = this.#book(r.mc_seqno, r.lt, r.utime).valuation(r.asset_master);
    return { ...r, amount_usd: price === null ? null : Number(r.amount) * price.usdPerUnit };
  }

  /** Prices as of the instant before (mc, lt): the pool states then, the VWAP window at `at`. */
  #book(mc: number, lt: bigint, at: number): PriceBook {
    return new PriceBook(this.#view(mc, lt), this.#config, {
      at,
      lastTonUsd: this.#lastTonUsd,
      vwap: (token) => this.#vwap.sample(token, at),
    });
  }

  #usd(r: SwapRow): Pick<SwapRow, "volume_usd" | "untracked_volume_usd" | "lp_fee_usd"> {
    const none = { volume_usd: null, untracked_volume_usd: null, lp_fee_usd: null };
    if (r.success !== true || r.amount_out === null || r.pool === null) return none;
    if (r.offer_master === null || r.ask_master === null) return none;
    const book = this.#book(r.mc_seqno, r.lt, r.utime);
    const leg = { offer: r.offer_master, ask: r.ask_master, amountIn: r.amount_in, amountOut: r.amount_out };
    const usd = swapVolumeUsd(book, leg);
    const ton = book.tonUsd();
    if (ton !== null && !ton.stale) this.#lastTonUsd = ton.usdPerTon;
    this.#recordTrade(book, leg, r.utime);
    const poolState = this.#stateBefore(r.pool, r.mc_seqno, r.lt);
    return {
      volume_usd: usd.volumeUsd,
      untracked_volume_usd: usd.untrackedVolumeUsd,
      lp_fee_usd: poolState === null ? null : lpFeeUsd(usd.volumeUsd, poolState.lpFeeBps),
    };
  }

  /** A trade of a non-quote token against a priced quote feeds that token's VWAP (§7.4). */
  #recordTrade(
    book: PriceBook,
    leg: { offer: string; ask: string; amountIn: bigint; amountOut: bigint },
    at: number,
  ) {
    const inQuote = book.isQuote(leg.offer);
    const outQuote = book.isQuote(leg.ask);
    if (inQuote === outQuote) return;
    const [quote, quoteAmount, token, tokenAmount] = inQuote
      ? [leg.offer, leg.amountIn, leg.ask, leg.amountOut]
      : [leg.ask, leg.amountOut, leg.offer, leg.amountIn];
    const q = book.quotePrice(quote);
    if (q !== null) this.#vwap.record(token, at, tokenAmount, Number(quoteAmount) * q.usdPerUnit);
  }
}
