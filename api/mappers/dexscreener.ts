/**
 * The DexScreener adapter feed (api.md §10.2, decisions in api/README "Export feeds"): domain feed records
 * → wire objects. Pure.
 *
 * - Amounts, reserves and prices are decimalised: `raw / 10^decimals` as a plain decimal string (no
 *   exponent, trailing zeros dropped), exact, so it round-trips to the raw amount. An event is served only
 *   when its record carries both assets' decimals (never invented; `feedEvents` leaves the others out).
 * - `txnIndex`: dense rank of the event's pool transaction (by lt, then hash) among the block's pool
 *   transactions that carry feed events; `eventIndex`: the event's rank in its transaction (by operation
 *   id). Both are assigned before events are left out, so an event keeps its indexes whatever else is served.
 * - `priceNative`: the execution price of the swap, asset0 in asset1: `amount1 / amount0` of the decimalised
 *   amounts, rounded half-up to 50 fraction digits (up to the smallest positive step, never 0).
 * - `reserves`: after the pool transaction, absent when that state is not stored (unknown is not zero).
 */
import { ratio, toDecimalString } from "../../dex/amm/index.ts";
import type { AssetRecord, FeedBlock, FeedEventRecord, PoolRecord } from "../read-model.ts";
import { friendly } from "./common.ts";

/** The most fraction digits DexScreener reads. */
export const MAX_FRACTION_DIGITS = 50;

/** The static DEX id the spec asks in `pair.dexKey`. */
export const DEX_KEY = "stonfi";

/** 10^0 … 10^77 (UInt256 has 78 digits): asset decimals and the price scale, made once. */
const POW10: readonly bigint[] = Array.from({ length: 78 }, (_, i) => 10n ** BigInt(i));
const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n);

/**
 * `raw / 10^decimals`, exact, as a plain decimal string: the digits of `raw` with the point `decimals`
 * from the right and the fraction's trailing zeros dropped (a division by a power of ten is a shift).
 */
export function decimalise(raw: bigint, decimals: number): string {
  if (raw < 0n) throw new RangeError("decimalise: a raw amount is never negative");
  if (decimals === 0) return raw.toString();
  const all = raw.toString().padStart(decimals + 1, "0");
  const cut = all.length - decimals;
  let end = all.length;
  while (end > cut && all.charCodeAt(end - 1) === 48) end--;
  return end > cut ? `${all.slice(0, cut)}.${all.slice(cut, end)}` : all.slice(0, cut);
}

/** Price of asset0 in asset1 from raw amounts: `(a1/10^d1) / (a0/10^d0)`, > 0 for positive amounts. */
export function priceNative(amount0: bigint, decimals0: number, amount1: bigint, decimals1: number): string {
  const r = ratio(amount1 * pow10(decimals0), amount0 * pow10(decimals1));
  const text = toDecimalString(r, MAX_FRACTION_DIGITS, "half-up");
  return text === "0" ? toDecimalString(r, MAX_FRACTION_DIGITS, "ceil") : text;
}

export type WireBlock = { blockNumber: number; blockTimestamp: number };

export const wireBlock = (b: FeedBlock): WireBlock => ({ blockNumber: b.mcSeqno, blockTimestamp: b.utime });

export type WireEvent = {
  block: WireBlock;
  eventType: "swap" | "join" | "exit";
  txnId: string;
  txnIndex: number;
  eventIndex: number;
  maker: string;
  pairId: string;
  amount0In?: string;
  amount1In?: string;
  amount0Out?: string;
  amount1Out?: string;
  priceNative?: string;
  amount0?: string;
  amount1?: string;
  reserves?: { asset0: string; asset1: string };
};

/** Records in chain order (block, lt, id) → wire events with their indexes; see the header. */
export function feedEvents(records: readonly FeedEventRecord[]): WireEvent[] {
  const out: WireEvent[] = [];
  let block = -1;
  let tx = "";
  let txnIndex = -1;
  let eventIndex = 0;
  for (const r of records) {
    if (r.block.mcSeqno !== block) {
      block = r.block.mcSeqno;
      tx = "";
      txnIndex = -1;
    }
    if (r.txHash !== tx) {
      tx = r.txHash;
      txnIndex++;
      eventIndex = 0;
    } else eventIndex++;
    if (r.decimals0 === null || r.decimals1 === null) continue;
    out.push(wireEvent(r, r.decimals0, r.decimals1, txnIndex, eventIndex));
  }
  return out;
}

function wireEvent(
  r: FeedEventRecord,
  d0: number,
  d1: number,
  txnIndex: number,
  eventIndex: number,
): WireEvent {
  // Built field by field in the wire order (no spreads: thousands of events per range).
  const e: WireEvent = {
    block: wireBlock(r.block),
    eventType: r.kind,
    txnId: r.txHash,
    txnIndex,
    eventIndex,
    maker: friendly(r.maker),
    pairId: friendly(r.pool),
  };
  const a0 = decimalise(r.amount0, d0);
  const a1 = decimalise(r.amount1, d1);
  if (r.kind !== "swap") {
    e.amount0 = a0;
    e.amount1 = a1;
  } else if (r.swapIn === 0) {
    e.amount0In = a0;
    e.amount1Out = a1;
  } else {
    e.amount1In = a1;
    e.amount0Out = a0;
  }
  if (r.kind === "swap") e.priceNative = priceNative(r.amount0, d0, r.amount1, d1);
  if (r.reserve0 !== null && r.reserve1 !== null)
    e.reserves = { asset0: decimalise(r.reserve0, d0), asset1: decimalise(r.reserve1, d1) };
  return e;
}

export type WireAsset = {
  id: string;
  name: string;
  symbol: string;
  /** null: the total supply is not known (no chain read of the jetton). */
  totalSupply: string | null;
};

/** An asset the feed can describe (name, symbol and decimals known), else null. */
export function feedAsset(
  a: Pick<AssetRecord, "address" | "symbol" | "displayName" | "decimals" | "totalSupply">,
): WireAsset | null {
  const name = a.displayName ?? null;
  if (a.decimals === null || !a.symbol || !name) return null;
  const supply = a.totalSupply ?? null;
  return {
    id: friendly(a.address),
    name,
    symbol: a.symbol,
    totalSupply: supply === null ? null : decimalise(supply, a.decimals),
  };
}

export type WirePair = { id: string; dexKey: string; asset0Id: string; asset1Id: string };

/** A pool whose tokens are known, as an immutable pair (no fees: they can change; see the README). */
export function feedPair(p: PoolRecord): WirePair | null {
  if (p.token0 === null || p.token1 === null) return null;
  return {
    id: friendly(p.address),
    dexKey: DEX_KEY,
    asset0Id: friendly(p.token0),
    asset1Id: friendly(p.token1),
  };
}
