// STON.fi v1 router → pool `set_fees` (pool form, same op as the admin → router form; no ref).
// Source: shared/reference/contracts.md §2.8 ([v1-src] router/admin-calls.func, pool/router-calls.func).
//
//   set_fees#355423e5 query_id:uint64 lp_fee:uint8 protocol_fee:uint8 ref_fee:uint8 protocol_fee_address:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = {
  lpFee: "u8",
  protocolFee: "u8",
  refFee: "u8",
  protocolFeeAddress: "addr",
} as const satisfies Layout;

export type StonfiV1SetFeesPool = Msg<"stonfi.v1.set_fees_pool", typeof LAYOUT>;

export const stonfiV1SetFeesPoolCodec = messageCodec(
  "stonfi.v1.set_fees_pool",
  STONFI_V1_OP.set_fees,
  LAYOUT,
  true,
);
export const decodeStonfiV1SetFeesPool = stonfiV1SetFeesPoolCodec.decode;
export const storeStonfiV1SetFeesPool = stonfiV1SetFeesPoolCodec.store;
export const encodeStonfiV1SetFeesPool: (x: StonfiV1SetFeesPool) => Cell = encoder(stonfiV1SetFeesPoolCodec);
