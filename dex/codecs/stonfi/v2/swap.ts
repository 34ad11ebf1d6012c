// STON.fi v2 router → pool `swap` (with the pool's StateInit).
// Source: shared/reference/contracts.md §3.6 ([v2-src] common/contracts.fc pool::$route; [tongo] stonfi_swap_v2).
//
//   swap#6664de2a query_id:uint64 from_user:MsgAddress amount0:Coins amount1:Coins ^dex_payload
//   // amount0/amount1: one is 0, the side follows §1.2. dex_payload = the user's swap payload, unchanged
//   // (for a cross_swap hop: the cross_swap cell); decode it with decodeForwardPayload(dexPayload).
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  fromUser: "addr",
  amount0: "coins",
  amount1: "coins",
  dexPayload: "ref",
} as const satisfies Layout;

export type StonfiV2Swap = Msg<"stonfi.v2.swap", typeof LAYOUT>;

export const stonfiV2SwapCodec = messageCodec("stonfi.v2.swap", STONFI_V2_OP.swap, LAYOUT, true);
export const decodeStonfiV2Swap = stonfiV2SwapCodec.decode;
export const storeStonfiV2Swap = stonfiV2SwapCodec.store;
export const encodeStonfiV2Swap: (x: StonfiV2Swap) => Cell = encoder(stonfiV2SwapCodec);
