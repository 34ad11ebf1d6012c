// STON.fi v1 admin → router `set_fees` (router form: the pool is named by a ref with the two wallets).
// Source: shared/reference/contracts.md §2.8 ([v1-src] router/admin-calls.func).
//
//   set_fees#355423e5 query_id:uint64 new_lp_fee:uint8 new_protocol_fee:uint8 new_ref_fee:uint8
//     new_protocol_fee_address:MsgAddress ^[ jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress ]
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = {
  lpFee: "u8",
  protocolFee: "u8",
  refFee: "u8",
  protocolFeeAddress: "addr",
  wallets: { ref: { jettonWallet0: "addr", jettonWallet1: "addr" } },
} as const satisfies Layout;

export type StonfiV1SetFees = Msg<"stonfi.v1.set_fees", typeof LAYOUT>;

export const stonfiV1SetFeesCodec = messageCodec("stonfi.v1.set_fees", STONFI_V1_OP.set_fees, LAYOUT, false);
export const decodeStonfiV1SetFees = stonfiV1SetFeesCodec.decode;
export const storeStonfiV1SetFees = stonfiV1SetFeesCodec.store;
export const encodeStonfiV1SetFees: (x: StonfiV1SetFees) => Cell = encoder(stonfiV1SetFeesCodec);
