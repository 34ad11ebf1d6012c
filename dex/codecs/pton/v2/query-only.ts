// pTON v2.1 messages whose body is only `op:uint32 query_id:uint64`.
// Source: shared/reference/contracts.md §3.11 ([pton-src] contracts/common/op.fc).
//
//   ton_refund#ae25d79e query_id:uint64     pTON wallet → refund_address (all value, non-bounceable); closed
//   reset_gas#29d22935 query_id:uint64      owner → pTON wallet; same op and layout as STON.fi v2 reset_gas,
//                                           so decodeBody returns this kind only with hint `{ pton: true }`
import { type Layout, type Msg, messageCodec } from "../../layout.ts";
import { PTON_V2_OP } from "./opcodes.ts";

const EMPTY = {} as const satisfies Layout;

export type PtonV2TonRefund = Msg<"pton.v2.ton_refund", typeof EMPTY>;
export type PtonV2ResetGas = Msg<"pton.v2.reset_gas", typeof EMPTY>;

export const ptonV2TonRefundCodec = messageCodec("pton.v2.ton_refund", PTON_V2_OP.ton_refund, EMPTY, true);
export const ptonV2ResetGasCodec = messageCodec("pton.v2.reset_gas", PTON_V2_OP.reset_gas, EMPTY, false);
