// STON.fi v2 user → own LpAccount `direct_add_liquidity` (am0/am1 = 0 means "the whole stored balance").
// Source: shared/reference/contracts.md §3.8 ([v2-src] lp_account/msgs/user.fc; [sdk] LpAccountV2_1).
//
//   direct_add_liquidity#0ff8bfc6 query_id:uint64 am0:Coins am1:Coins min_lp_out:Coins fwd_amount:Coins
//     to_user:MsgAddress custom_payload:(Maybe ^Cell) ^[ refund_address:MsgAddress excess_address:MsgAddress ]
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  am0: "coins",
  am1: "coins",
  minLpOut: "coins",
  fwdAmount: "coins",
  toUser: "addr",
  customPayload: "maybeRef",
  addresses: { ref: { refundAddress: "addr", excessAddress: "addr" } },
} as const satisfies Layout;

export type StonfiV2DirectAddLiquidity = Msg<"stonfi.v2.direct_add_liquidity", typeof LAYOUT>;

export const stonfiV2DirectAddLiquidityCodec = messageCodec(
  "stonfi.v2.direct_add_liquidity",
  STONFI_V2_OP.direct_add_liquidity,
  LAYOUT,
  false,
);
export const decodeStonfiV2DirectAddLiquidity = stonfiV2DirectAddLiquidityCodec.decode;
export const storeStonfiV2DirectAddLiquidity = stonfiV2DirectAddLiquidityCodec.store;
export const encodeStonfiV2DirectAddLiquidity: (x: StonfiV2DirectAddLiquidity) => Cell = encoder(
  stonfiV2DirectAddLiquidityCodec,
);
