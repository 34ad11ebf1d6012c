/** Narrowed codec records the assembly stages use, and the one nested decode they need (v2 dex_payload). */
import type { Decoded, DecodedPayload } from "../codecs/index.ts";
import { type ClassifyMemo, payloadOnce } from "./message-cache.ts";

export type V1PayTo = Extract<Decoded, { kind: "stonfi.v1.pay_to" }>;
export type V2Swap = Extract<Decoded, { kind: "stonfi.v2.swap" }>;
export type V2PayTo = Extract<Decoded, { kind: "stonfi.v2.pay_to" }>;
export type V2SwapPayload = Extract<
  DecodedPayload,
  { kind: "stonfi.v2.swap_payload" | "stonfi.v2.cross_swap_payload" }
>;

/** The user's swap command that the router passed through to the pool unchanged (contracts.md §3.6). */
export function payloadOfSwap(sw: V2Swap, memo?: ClassifyMemo): V2SwapPayload | null {
  const decoded = payloadOnce(memo, sw.dexPayload);
  return decoded.kind === "stonfi.v2.swap_payload" || decoded.kind === "stonfi.v2.cross_swap_payload"
    ? decoded
    : null;
}
