// STON.fi v2 router → pool `internal_set_fees` (0x75930d63; the docs' 0x58274069 is wrong, §8.1).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc, pool/msgs/router.fc).
//
//   internal_set_fees#75930d63 query_id:uint64 lp_fee:uint16 protocol_fee:uint16
//     protocol_fee_address:MsgAddress excesses:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  lpFee: "u16",
  protocolFee: "u16",
  protocolFeeAddress: "addr",
  excessesAddress: "addr",
} as const satisfies Layout;

export type StonfiV2InternalSetFees = Msg<"stonfi.v2.internal_set_fees", typeof LAYOUT>;

export const stonfiV2InternalSetFeesCodec = messageCodec(
  "stonfi.v2.internal_set_fees",
  STONFI_V2_OP.internal_set_fees,
  LAYOUT,
  true,
);
export const decodeStonfiV2InternalSetFees = stonfiV2InternalSetFeesCodec.decode;
export const storeStonfiV2InternalSetFees = stonfiV2InternalSetFeesCodec.store;
export const encodeStonfiV2InternalSetFees: (x: StonfiV2InternalSetFees) => Cell = encoder(
  stonfiV2InternalSetFeesCodec,
);
