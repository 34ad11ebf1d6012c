// STON.fi v1 LpAccount → pool `cb_add_liquidity`.
// Source: shared/reference/contracts.md §2.7 ([v1-src] pool.func).
//
//   cb_add_liquidity#56dfeb8a query_id:uint64 tot_am0:Coins tot_am1:Coins user:MsgAddress min_lp_out:Coins
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = {
  totAm0: "coins",
  totAm1: "coins",
  user: "addr",
  minLpOut: "coins",
} as const satisfies Layout;

export type StonfiV1CbAddLiquidity = Msg<"stonfi.v1.cb_add_liquidity", typeof LAYOUT>;

export const stonfiV1CbAddLiquidityCodec = messageCodec(
  "stonfi.v1.cb_add_liquidity",
  STONFI_V1_OP.cb_add_liquidity,
  LAYOUT,
  true,
);
export const decodeStonfiV1CbAddLiquidity = stonfiV1CbAddLiquidityCodec.decode;
export const storeStonfiV1CbAddLiquidity = stonfiV1CbAddLiquidityCodec.store;
export const encodeStonfiV1CbAddLiquidity: (x: StonfiV1CbAddLiquidity) => Cell =
  encoder(stonfiV1CbAddLiquidityCodec);
