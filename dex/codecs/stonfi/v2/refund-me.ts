// STON.fi v2 user → LpAccount `refund_me`.
// Source: shared/reference/contracts.md §3.8.
//
//   refund_me#132b9a2c query_id:uint64 left_payload:(Maybe ^Cell) right_payload:(Maybe ^Cell)
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { leftPayload: "maybeRef", rightPayload: "maybeRef" } as const satisfies Layout;

export type StonfiV2RefundMe = Msg<"stonfi.v2.refund_me", typeof LAYOUT>;

export const stonfiV2RefundMeCodec = messageCodec(
  "stonfi.v2.refund_me",
  STONFI_V2_OP.refund_me,
  LAYOUT,
  false,
);
export const decodeStonfiV2RefundMe = stonfiV2RefundMeCodec.decode;
export const storeStonfiV2RefundMe = stonfiV2RefundMeCodec.store;
export const encodeStonfiV2RefundMe: (x: StonfiV2RefundMe) => Cell = encoder(stonfiV2RefundMeCodec);
