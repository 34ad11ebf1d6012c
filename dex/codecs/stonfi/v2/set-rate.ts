// STON.fi v2 rate setter → weighted-stableswap pool `set_rate` (unmasked CRC32 op).
// Source: shared/reference/contracts.md §3.8 ([v2-src] pool/pools/weighted_stableswap).
//
//   set_rate#4a2bddb0 query_id:uint64 new_rate:uint128    // > 0
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { newRate: "u128" } as const satisfies Layout;

export type StonfiV2SetRate = Msg<"stonfi.v2.set_rate", typeof LAYOUT>;

export const stonfiV2SetRateCodec = messageCodec("stonfi.v2.set_rate", STONFI_V2_OP.set_rate, LAYOUT, false);
export const decodeStonfiV2SetRate = stonfiV2SetRateCodec.decode;
export const storeStonfiV2SetRate = stonfiV2SetRateCodec.store;
export const encodeStonfiV2SetRate: (x: StonfiV2SetRate) => Cell = encoder(stonfiV2SetRateCodec);
