// STON.fi v2 anyone → Vault `withdraw_fee` (the vault pays its owner and self-destructs).
// Source: shared/reference/contracts.md §3.6 ([v2-src] vault.fc; [sdk] VaultV2_1).
//
//   withdraw_fee#354bcdf4 query_id:uint64
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_VAULT_OP } from "./opcodes.ts";

const LAYOUT = {} as const satisfies Layout;

export type StonfiV2VaultWithdrawFee = Msg<"stonfi.v2.vault.withdraw_fee", typeof LAYOUT>;

export const stonfiV2VaultWithdrawFeeCodec = messageCodec(
  "stonfi.v2.vault.withdraw_fee",
  STONFI_V2_VAULT_OP.withdraw_fee,
  LAYOUT,
  false,
);
export const decodeStonfiV2VaultWithdrawFee = stonfiV2VaultWithdrawFeeCodec.decode;
export const storeStonfiV2VaultWithdrawFee = stonfiV2VaultWithdrawFeeCodec.store;
export const encodeStonfiV2VaultWithdrawFee: (x: StonfiV2VaultWithdrawFee) => Cell = encoder(
  stonfiV2VaultWithdrawFeeCodec,
);
