// STON.fi v2 pool → LpAccount `add_liquidity` (with the LpAccount StateInit).
// Source: shared/reference/contracts.md §3.8 ([v2-src] contracts.fc lp_account::add_liquidity; [tongo] stonfi_add_liquidity_v2).
//
//   add_liquidity#50c6a654 query_id:uint64 new_amount0:Coins new_amount1:Coins min_lp_out:Coins
//     fwd_amount:Coins both_positive:Bool to_user:MsgAddress custom_payload:(Maybe ^Cell)
//     ^[ refund_address:MsgAddress excess_address:MsgAddress ]
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  newAmount0: "coins",
  newAmount1: "coins",
  minLpOut: "coins",
  fwdAmount: "coins",
  bothPositive: "bool",
  toUser: "addr",
  customPayload: "maybeRef",
  addresses: { ref: { refundAddress: "addr", excessAddress: "addr" } },
} as const satisfies Layout;

export type StonfiV2AddLiquidity = Msg<"stonfi.v2.add_liquidity", typeof LAYOUT>;

export const stonfiV2AddLiquidityCodec = messageCodec(
  "stonfi.v2.add_liquidity",
  STONFI_V2_OP.add_liquidity,
  LAYOUT,
  true,
);
export const decodeStonfiV2AddLiquidity = stonfiV2AddLiquidityCodec.decode;
export const storeStonfiV2AddLiquidity = stonfiV2AddLiquidityCodec.store;
export const encodeStonfiV2AddLiquidity: (x: StonfiV2AddLiquidity) => Cell =
  encoder(stonfiV2AddLiquidityCodec);
