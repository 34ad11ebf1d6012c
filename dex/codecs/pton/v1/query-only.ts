// pTON v1 wallet `reset_gas` (owner → wallet): `op:uint32 query_id:uint64`, same op and layout as STON.fi
// v1 reset_gas, so decodeBody returns this kind only with hint `{ pton: true }`.
// Source: shared/reference/contracts.md §2.11 ([pton-src] wrapper constants).
//
//   reset_gas#42a0fb43 query_id:uint64
import { type Layout, type Msg, messageCodec } from "../../layout.ts";
import { PTON_V1_OP } from "./opcodes.ts";

const EMPTY = {} as const satisfies Layout;

export type PtonV1ResetGas = Msg<"pton.v1.reset_gas", typeof EMPTY>;

export const ptonV1ResetGasCodec = messageCodec("pton.v1.reset_gas", PTON_V1_OP.reset_gas, EMPTY, false);
