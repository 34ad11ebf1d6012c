// STON.fi v1 `swap` forward payload (user → router, inside a jetton transfer; always in a ref per the SDK).
// Source: shared/reference/contracts.md §2.4 ([v1-src] router.func; [sdk] RouterV1.createSwapBody;
// [tongo] stonfi_swap).
//
//   swap#25938561 token_wallet1:MsgAddress   // router's jetton wallet of the ASK token
//     min_out:Coins to_address:MsgAddress
//     has_ref:uint1 ref_address:MsgAddress   // ref_address present only if has_ref = 1
//
// Open layout: the v1 router ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { defineCodec, loadOp, toCell } from "../../common.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

export type StonfiV1SwapPayload = {
  kind: "stonfi.v1.swap_payload";
  tokenWallet1: Address | null;
  minOut: bigint;
  toAddress: Address | null;
  hasRef: boolean;
  refAddress: Address | null;
};

const KIND = "stonfi.v1.swap_payload";

export function decodeStonfiV1SwapPayload(s: Slice): StonfiV1SwapPayload {
  loadOp(s, STONFI_V1_OP.swap, KIND);
  const tokenWallet1 = s.loadMaybeAddress();
  const minOut = s.loadCoins();
  const toAddress = s.loadMaybeAddress();
  const hasRef = s.loadBit();
  const refAddress = hasRef ? s.loadMaybeAddress() : null;
  return { kind: KIND, tokenWallet1, minOut, toAddress, hasRef, refAddress };
}

export const storeStonfiV1SwapPayload = (x: StonfiV1SwapPayload) => (b: Builder) => {
  b.storeUint(STONFI_V1_OP.swap, 32)
    .storeAddress(x.tokenWallet1)
    .storeCoins(x.minOut)
    .storeAddress(x.toAddress)
    .storeBit(x.hasRef);
  if (x.hasRef) b.storeAddress(x.refAddress);
};

export const encodeStonfiV1SwapPayload = (x: StonfiV1SwapPayload): Cell =>
  toCell(storeStonfiV1SwapPayload(x));

export const stonfiV1SwapPayloadCodec = defineCodec(
  KIND,
  STONFI_V1_OP.swap,
  decodeStonfiV1SwapPayload,
  storeStonfiV1SwapPayload,
);
