// STON.fi v1 LpAccount → pool `cb_refund_me`.
// Source: shared/reference/contracts.md §2.7 ([v1-src] pool.func).
//
//   cb_refund_me#89446a42 query_id:uint64 tot_am0:Coins tot_am1:Coins user:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { totAm0: "coins", totAm1: "coins", user: "addr" } as const satisfies Layout;

export type StonfiV1CbRefundMe = Msg<"stonfi.v1.cb_refund_me", typeof LAYOUT>;

export const stonfiV1CbRefundMeCodec = messageCodec(
  "stonfi.v1.cb_refund_me",
  STONFI_V1_OP.cb_refund_me,
  LAYOUT,
  true,
);
export const decodeStonfiV1CbRefundMe = stonfiV1CbRefundMeCodec.decode;
export const storeStonfiV1CbRefundMe = stonfiV1CbRefundMeCodec.store;
export const encodeStonfiV1CbRefundMe: (x: StonfiV1CbRefundMe) => Cell = encoder(stonfiV1CbRefundMeCodec);
