// STON.fi v1 pool → LpAccount `add_liquidity` (with the LpAccount StateInit).
// Source: shared/reference/contracts.md §2.7 ([v1-src] lp_account/pool-calls.func).
//
//   add_liquidity#3ebe5431 query_id:uint64 new_amount0:Coins new_amount1:Coins min_lp_out:Coins
//   // min_lp_out = 0 when the pool returns a failed mint to the LpAccount
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { newAmount0: "coins", newAmount1: "coins", minLpOut: "coins" } as const satisfies Layout;

export type StonfiV1AddLiquidity = Msg<"stonfi.v1.add_liquidity", typeof LAYOUT>;

export const stonfiV1AddLiquidityCodec = messageCodec(
  "stonfi.v1.add_liquidity",
  STONFI_V1_OP.add_liquidity,
  LAYOUT,
  true,
);
export const decodeStonfiV1AddLiquidity = stonfiV1AddLiquidityCodec.decode;
export const storeStonfiV1AddLiquidity = stonfiV1AddLiquidityCodec.store;
export const encodeStonfiV1AddLiquidity: (x: StonfiV1AddLiquidity) => Cell =
  encoder(stonfiV1AddLiquidityCodec);
