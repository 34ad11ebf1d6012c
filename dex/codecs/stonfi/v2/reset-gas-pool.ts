// STON.fi v2 router → pool `reset_gas` (pool form: same op as the op+query_id `reset_gas`, plus the
// excesses address). decodeBody picks this form when anything follows query_id.
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc pool::reset_gas, pool/msgs/router.fc).
//
//   reset_gas#29d22935 query_id:uint64 excesses:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { excessesAddress: "addr" } as const satisfies Layout;

export type StonfiV2ResetGasPool = Msg<"stonfi.v2.reset_gas_pool", typeof LAYOUT>;

export const stonfiV2ResetGasPoolCodec = messageCodec(
  "stonfi.v2.reset_gas_pool",
  STONFI_V2_OP.reset_gas,
  LAYOUT,
  true,
);
export const decodeStonfiV2ResetGasPool = stonfiV2ResetGasPoolCodec.decode;
export const storeStonfiV2ResetGasPool = stonfiV2ResetGasPoolCodec.store;
export const encodeStonfiV2ResetGasPool: (x: StonfiV2ResetGasPool) => Cell =
  encoder(stonfiV2ResetGasPoolCodec);
