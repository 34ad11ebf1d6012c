// STON.fi v2 router → Vault `deposit_ref_fee` (with the Vault StateInit).
// Source: shared/reference/contracts.md §3.6 ([v2-src] vault.fc).
//
//   deposit_ref_fee#0490f09b query_id:uint64 amount:Coins excesses_address:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_VAULT_OP } from "./opcodes.ts";

const LAYOUT = { amount: "coins", excessesAddress: "addr" } as const satisfies Layout;

export type StonfiV2VaultDepositRefFee = Msg<"stonfi.v2.vault.deposit_ref_fee", typeof LAYOUT>;

export const stonfiV2VaultDepositRefFeeCodec = messageCodec(
  "stonfi.v2.vault.deposit_ref_fee",
  STONFI_V2_VAULT_OP.deposit_ref_fee,
  LAYOUT,
  true,
);
export const decodeStonfiV2VaultDepositRefFee = stonfiV2VaultDepositRefFeeCodec.decode;
export const storeStonfiV2VaultDepositRefFee = stonfiV2VaultDepositRefFeeCodec.store;
export const encodeStonfiV2VaultDepositRefFee: (x: StonfiV2VaultDepositRefFee) => Cell = encoder(
  stonfiV2VaultDepositRefFeeCodec,
);
