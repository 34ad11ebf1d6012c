// STON.fi v2 LpAccount → pool `cb_refund_me` (mode 128+32).
// Source: shared/reference/contracts.md §3.8.
//
//   cb_refund_me#0f98e2b8 query_id:uint64 tot_am0:Coins tot_am1:Coins user:MsgAddress
//     left_payload:(Maybe ^Cell) right_payload:(Maybe ^Cell)
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  totAm0: "coins",
  totAm1: "coins",
  user: "addr",
  leftPayload: "maybeRef",
  rightPayload: "maybeRef",
} as const satisfies Layout;

export type StonfiV2CbRefundMe = Msg<"stonfi.v2.cb_refund_me", typeof LAYOUT>;

export const stonfiV2CbRefundMeCodec = messageCodec(
  "stonfi.v2.cb_refund_me",
  STONFI_V2_OP.cb_refund_me,
  LAYOUT,
  true,
);
export const decodeStonfiV2CbRefundMe = stonfiV2CbRefundMeCodec.decode;
export const storeStonfiV2CbRefundMe = stonfiV2CbRefundMeCodec.store;
export const encodeStonfiV2CbRefundMe: (x: StonfiV2CbRefundMe) => Cell = encoder(stonfiV2CbRefundMeCodec);
