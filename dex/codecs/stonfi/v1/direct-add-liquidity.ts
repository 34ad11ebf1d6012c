// STON.fi v1 user → own LpAccount `direct_add_liquidity`.
// Source: shared/reference/contracts.md §2.7 ([sdk] LpAccountV1).
//
//   direct_add_liquidity#4cf82803 query_id:uint64 amount0:Coins amount1:Coins min_lp_out:Coins
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { amount0: "coins", amount1: "coins", minLpOut: "coins" } as const satisfies Layout;

export type StonfiV1DirectAddLiquidity = Msg<"stonfi.v1.direct_add_liquidity", typeof LAYOUT>;

export const stonfiV1DirectAddLiquidityCodec = messageCodec(
  "stonfi.v1.direct_add_liquidity",
  STONFI_V1_OP.direct_add_liquidity,
  LAYOUT,
  false,
);
export const decodeStonfiV1DirectAddLiquidity = stonfiV1DirectAddLiquidityCodec.decode;
export const storeStonfiV1DirectAddLiquidity = stonfiV1DirectAddLiquidityCodec.store;
export const encodeStonfiV1DirectAddLiquidity: (x: StonfiV1DirectAddLiquidity) => Cell = encoder(
  stonfiV1DirectAddLiquidityCodec,
);
