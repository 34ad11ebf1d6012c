// STON.fi v2 admin → router `reset_pool_gas` (router then sends `reset_gas(excesses)` to the pool).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc).
//
//   reset_pool_gas#66d0dff2 query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress excesses:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  jettonWallet0: "addr",
  jettonWallet1: "addr",
  excessesAddress: "addr",
} as const satisfies Layout;

export type StonfiV2ResetPoolGas = Msg<"stonfi.v2.reset_pool_gas", typeof LAYOUT>;

export const stonfiV2ResetPoolGasCodec = messageCodec(
  "stonfi.v2.reset_pool_gas",
  STONFI_V2_OP.reset_pool_gas,
  LAYOUT,
  true,
);
export const decodeStonfiV2ResetPoolGas = stonfiV2ResetPoolGasCodec.decode;
export const storeStonfiV2ResetPoolGas = stonfiV2ResetPoolGasCodec.store;
export const encodeStonfiV2ResetPoolGas: (x: StonfiV2ResetPoolGas) => Cell =
  encoder(stonfiV2ResetPoolGasCodec);
