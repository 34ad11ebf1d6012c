// STON.fi v1 admin → router `reset_pool_gas` (router then sends op+query_id `reset_gas` to the pool).
// Source: shared/reference/contracts.md §2.8 ([v1-src] router/admin-calls.func).
//
//   reset_pool_gas#f6aa9737 query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { jettonWallet0: "addr", jettonWallet1: "addr" } as const satisfies Layout;

export type StonfiV1ResetPoolGas = Msg<"stonfi.v1.reset_pool_gas", typeof LAYOUT>;

export const stonfiV1ResetPoolGasCodec = messageCodec(
  "stonfi.v1.reset_pool_gas",
  STONFI_V1_OP.reset_pool_gas,
  LAYOUT,
  false,
);
export const decodeStonfiV1ResetPoolGas = stonfiV1ResetPoolGasCodec.decode;
export const storeStonfiV1ResetPoolGas = stonfiV1ResetPoolGasCodec.store;
export const encodeStonfiV1ResetPoolGas: (x: StonfiV1ResetPoolGas) => Cell =
  encoder(stonfiV1ResetPoolGasCodec);
