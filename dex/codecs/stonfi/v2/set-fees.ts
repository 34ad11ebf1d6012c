// STON.fi v2 admin → router `set_fees` (each fee 0..100 bps, else throw 94).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc, which end_parses both cells).
//
//   set_fees#58274069 query_id:uint64 new_lp_fee:uint16 new_protocol_fee:uint16
//     new_protocol_fee_address:MsgAddress
//     ^[ jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress excesses:MsgAddress ]
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  lpFee: "u16",
  protocolFee: "u16",
  protocolFeeAddress: "addr",
  pool: { ref: { jettonWallet0: "addr", jettonWallet1: "addr", excessesAddress: "addr" } },
} as const satisfies Layout;

export type StonfiV2SetFees = Msg<"stonfi.v2.set_fees", typeof LAYOUT>;

export const stonfiV2SetFeesCodec = messageCodec("stonfi.v2.set_fees", STONFI_V2_OP.set_fees, LAYOUT, true);
export const decodeStonfiV2SetFees = stonfiV2SetFeesCodec.decode;
export const storeStonfiV2SetFees = stonfiV2SetFeesCodec.store;
export const encodeStonfiV2SetFees: (x: StonfiV2SetFees) => Cell = encoder(stonfiV2SetFeesCodec);
