// STON.fi v2 router → pool `provide_lp` (with the pool's StateInit).
// Source: shared/reference/contracts.md §3.6 ([v2-src] common/contracts.fc pool::$route; [tongo] stonfi_provide_lp_v2).
//
//   provide_lp#37c096df query_id:uint64 from_user:MsgAddress amount0:Coins amount1:Coins ^dex_payload
//   // dex_payload = the user's provide_lp payload; decode it with decodeForwardPayload(dexPayload).
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

export type StonfiV2ProvideLp = Msg<"stonfi.v2.provide_lp", typeof LAYOUT>;

export const stonfiV2ProvideLpCodec = messageCodec(
  "stonfi.v2.provide_lp",
  STONFI_V2_OP.provide_lp,
  LAYOUT,
  true,
);
export const decodeStonfiV2ProvideLp = stonfiV2ProvideLpCodec.decode;
export const storeStonfiV2ProvideLp = stonfiV2ProvideLpCodec.store;
export const encodeStonfiV2ProvideLp: (x: StonfiV2ProvideLp) => Cell = encoder(stonfiV2ProvideLpCodec);
