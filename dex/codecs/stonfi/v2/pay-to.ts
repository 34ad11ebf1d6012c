// STON.fi v2 pool → router `pay_to`. The router ignores exit_code; the outcome is read from here.
// Source: shared/reference/contracts.md §3.6 ([v2-src] common/contracts.fc router::pay_to; [tongo] stonfi_pay_to_v2); exit codes §3.3.
//
//   pay_to#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress
//     original_caller:MsgAddress exit_code:uint32 custom_payload:(Maybe ^Cell)
//     ^[ fwd_ton_amount:Coins amount0_out:Coins token0:MsgAddress amount1_out:Coins token1:MsgAddress ]
//   // custom_payload starting with cross_swap (0x69cf1a5b) chains the next hop (decodeForwardPayload).
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  toAddress: "addr",
  excessesAddress: "addr",
  originalCaller: "addr",
  exitCode: "u32",
  customPayload: "maybeRef",
  amounts: {
    ref: { fwdTonAmount: "coins", amount0Out: "coins", token0: "addr", amount1Out: "coins", token1: "addr" },
  },
} as const satisfies Layout;

export type StonfiV2PayTo = Msg<"stonfi.v2.pay_to", typeof LAYOUT>;

export const stonfiV2PayToCodec = messageCodec("stonfi.v2.pay_to", STONFI_V2_OP.pay_to, LAYOUT, true);
export const decodeStonfiV2PayTo = stonfiV2PayToCodec.decode;
export const storeStonfiV2PayTo = stonfiV2PayToCodec.store;
export const encodeStonfiV2PayTo: (x: StonfiV2PayTo) => Cell = encoder(stonfiV2PayToCodec);
