// STON.fi v1 router → pool `provide_lp` (sent with the pool's StateInit).
// Source: shared/reference/contracts.md §2.5 ([v1-src] router.func, pool/router-calls.func).
//
//   provide_lp#fcf9e58f query_id:uint64 owner:MsgAddress min_lp_out:Coins amount0:Coins amount1:Coins
//   // owner = from_user; one of the amounts is 0
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = {
  owner: "addr",
  minLpOut: "coins",
  amount0: "coins",
  amount1: "coins",
} as const satisfies Layout;

export type StonfiV1ProvideLp = Msg<"stonfi.v1.provide_lp", typeof LAYOUT>;

export const stonfiV1ProvideLpCodec = messageCodec(
  "stonfi.v1.provide_lp",
  STONFI_V1_OP.provide_lp,
  LAYOUT,
  true,
);
export const decodeStonfiV1ProvideLp = stonfiV1ProvideLpCodec.decode;
export const storeStonfiV1ProvideLp = stonfiV1ProvideLpCodec.store;
export const encodeStonfiV1ProvideLp: (x: StonfiV1ProvideLp) => Cell = encoder(stonfiV1ProvideLpCodec);
