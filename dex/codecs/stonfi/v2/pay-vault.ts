// STON.fi v2 pool → router `pay_vault` (referral fee, sent before the `pay_to`).
// Source: shared/reference/contracts.md §3.6 ([v2-src] contracts.fc router::pay_vault; [tongo] stonfi_pay_vault_v2).
//
//   pay_vault#63381632 query_id:uint64 owner:MsgAddress excesses_address:MsgAddress
//     ^[ amount0_out:Coins token0:MsgAddress amount1_out:Coins token1:MsgAddress ]
//   // owner = the referrer (ref_address of the swap payload)
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  owner: "addr",
  excessesAddress: "addr",
  amounts: { ref: { amount0Out: "coins", token0: "addr", amount1Out: "coins", token1: "addr" } },
} as const satisfies Layout;

export type StonfiV2PayVault = Msg<"stonfi.v2.pay_vault", typeof LAYOUT>;

export const stonfiV2PayVaultCodec = messageCodec(
  "stonfi.v2.pay_vault",
  STONFI_V2_OP.pay_vault,
  LAYOUT,
  true,
);
export const decodeStonfiV2PayVault = stonfiV2PayVaultCodec.decode;
export const storeStonfiV2PayVault = stonfiV2PayVaultCodec.store;
export const encodeStonfiV2PayVault: (x: StonfiV2PayVault) => Cell = encoder(stonfiV2PayVaultCodec);
