/**
 * USD volume of one executed swap leg, valued with the prices of the instant before it (shared/reference/
 * analytics.md §7.5, Uniswap v3's convention): one side a quote → that side at its price; both quotes →
 * the mean of the two; else the offer side if its price is at least medium confidence, else the ask side if
 * its price is; else the swap is *untracked*: 0 tracked volume, and its best low-confidence estimate (or
 * null when neither side has any price) counted apart as untracked volume.
 */
import { FEE_DIVIDER } from "../amm/math.ts";
import type { Confidence, PriceBook } from "./book.ts";

export type SwapLeg = {
  readonly offer: string;
  readonly ask: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
};

export type SwapUsd = {
  /** Tracked USD volume: 0 for an untracked swap (§7.5). */
  readonly volumeUsd: number;
  /** 0 for a tracked swap; an untracked swap's low-confidence estimate, or null when nothing prices it. */
  readonly untrackedVolumeUsd: number | null;
};

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

export function swapVolumeUsd(book: PriceBook, leg: SwapLeg): SwapUsd {
  const quoteIn = book.isQuote(leg.offer) ? book.quotePrice(leg.offer) : null;
  const quoteOut = book.isQuote(leg.ask) ? book.quotePrice(leg.ask) : null;
  const valueIn = quoteIn === null ? null : Number(leg.amountIn) * quoteIn.usdPerUnit;
  const valueOut = quoteOut === null ? null : Number(leg.amountOut) * quoteOut.usdPerUnit;
  if (valueIn !== null && valueOut !== null) return tracked((valueIn + valueOut) / 2);
  if (valueIn !== null) return tracked(valueIn);
  if (valueOut !== null) return tracked(valueOut);
  const pIn = book.valuation(leg.offer);
  const pOut = book.valuation(leg.ask);
  if (pIn !== null && RANK[pIn.confidence] >= RANK.medium)
    return tracked(Number(leg.amountIn) * pIn.usdPerUnit);
  if (pOut !== null && RANK[pOut.confidence] >= RANK.medium)
    return tracked(Number(leg.amountOut) * pOut.usdPerUnit);
  const estimate =
    pIn !== null
      ? Number(leg.amountIn) * pIn.usdPerUnit
      : pOut !== null
        ? Number(leg.amountOut) * pOut.usdPerUnit
        : null;
  return { volumeUsd: 0, untrackedVolumeUsd: estimate };
}

const tracked = (volumeUsd: number): SwapUsd => ({ volumeUsd, untrackedVolumeUsd: 0 });

/** The LP's share of a swap's USD volume (§7.6): `volume · lp_fee_bps / 10^4`. */
export function lpFeeUsd(volumeUsd: number, lpFeeBps: bigint): number {
  return (volumeUsd * Number(lpFeeBps)) / Number(FEE_DIVIDER);
}
