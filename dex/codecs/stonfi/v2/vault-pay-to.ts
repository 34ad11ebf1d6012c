// STON.fi v2 Vault → router `vault_pay_to` (mode 128+32: the vault is destroyed).
// Source: shared/reference/contracts.md §3.6 ([v2-src] vault.fc, router).
//
//   vault_pay_to#2100c922 query_id:uint64 amount_out:Coins token:MsgAddress to:MsgAddress
//   // token = router's jetton wallet of the fee token; to = the vault owner (referrer)
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_VAULT_OP } from "./opcodes.ts";

const LAYOUT = { amountOut: "coins", token: "addr", to: "addr" } as const satisfies Layout;

export type StonfiV2VaultPayTo = Msg<"stonfi.v2.vault.vault_pay_to", typeof LAYOUT>;

export const stonfiV2VaultPayToCodec = messageCodec(
  "stonfi.v2.vault.vault_pay_to",
  STONFI_V2_VAULT_OP.vault_pay_to,
  LAYOUT,
  true,
);
export const decodeStonfiV2VaultPayTo = stonfiV2VaultPayToCodec.decode;
export const storeStonfiV2VaultPayTo = stonfiV2VaultPayToCodec.store;
export const encodeStonfiV2VaultPayTo: (x: StonfiV2VaultPayTo) => Cell = encoder(stonfiV2VaultPayToCodec);
