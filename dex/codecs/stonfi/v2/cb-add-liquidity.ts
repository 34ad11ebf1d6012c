// STON.fi v2 LpAccount → pool `cb_add_liquidity`.
// Source: shared/reference/contracts.md §3.8 ([tongo] stonfi_cb_add_liquidity_v2).
//
//   cb_add_liquidity#06ecd527 query_id:uint64 tot_am0:Coins tot_am1:Coins user:MsgAddress
//     min_lp_out:Coins fwd_amount:Coins custom_payload:(Maybe ^Cell)
//     ^[ to_user:MsgAddress refund_address:MsgAddress excess_address:MsgAddress ]
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  totAm0: "coins",
  totAm1: "coins",
  user: "addr",
  minLpOut: "coins",
  fwdAmount: "coins",
  customPayload: "maybeRef",
  addresses: { ref: { toUser: "addr", refundAddress: "addr", excessAddress: "addr" } },
} as const satisfies Layout;

export type StonfiV2CbAddLiquidity = Msg<"stonfi.v2.cb_add_liquidity", typeof LAYOUT>;

export const stonfiV2CbAddLiquidityCodec = messageCodec(
  "stonfi.v2.cb_add_liquidity",
  STONFI_V2_OP.cb_add_liquidity,
  LAYOUT,
  true,
);
export const decodeStonfiV2CbAddLiquidity = stonfiV2CbAddLiquidityCodec.decode;
export const storeStonfiV2CbAddLiquidity = stonfiV2CbAddLiquidityCodec.store;
export const encodeStonfiV2CbAddLiquidity: (x: StonfiV2CbAddLiquidity) => Cell =
  encoder(stonfiV2CbAddLiquidityCodec);
