// STON.fi v1 router → pool `swap` (mode 64, no StateInit).
// Source: shared/reference/contracts.md §2.5 ([v1-src] router.func, pool/router-calls.func; [tongo] stonfi_swap).
//
//   swap#25938561 query_id:uint64
//     to_address:MsgAddress       // receiver from the payload
//     sender_wallet:MsgAddress    // router's jetton wallet that received the offer (identifies the side)
//     jetton_amount:Coins min_out:Coins
//     has_ref:uint1
//     ^[ from_user:MsgAddress ref_address:MsgAddress ]   // ref_address only if has_ref = 1
//
// Closed layout (the router builds it). `refAddress` is null when has_ref = 0; with has_ref = 1 it may still
// be null (addr_none was written), which is why `hasRef` is kept separately.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { defineCodec, end, loadHead, storeHead, storeInRef, toCell } from "../../common.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

export type StonfiV1Swap = {
  kind: "stonfi.v1.swap";
  queryId: bigint;
  toAddress: Address | null;
  senderWallet: Address | null;
  jettonAmount: bigint;
  minOut: bigint;
  hasRef: boolean;
  fromUser: Address | null;
  refAddress: Address | null;
};

const KIND = "stonfi.v1.swap";

export function decodeStonfiV1Swap(s: Slice): StonfiV1Swap {
  const queryId = loadHead(s, STONFI_V1_OP.swap, KIND);
  const toAddress = s.loadMaybeAddress();
  const senderWallet = s.loadMaybeAddress();
  const jettonAmount = s.loadCoins();
  const minOut = s.loadCoins();
  const hasRef = s.loadBit();
  const r = s.loadRef().beginParse();
  end(s, KIND);
  const fromUser = r.loadMaybeAddress();
  const refAddress = hasRef ? r.loadMaybeAddress() : null;
  end(r, KIND);
  return { kind: KIND, queryId, toAddress, senderWallet, jettonAmount, minOut, hasRef, fromUser, refAddress };
}

export const storeStonfiV1Swap = (x: StonfiV1Swap) => (b: Builder) => {
  storeHead(b, STONFI_V1_OP.swap, x.queryId)
    .storeAddress(x.toAddress)
    .storeAddress(x.senderWallet)
    .storeCoins(x.jettonAmount)
    .storeCoins(x.minOut)
    .storeBit(x.hasRef);
  storeInRef(b, (r) => {
    r.storeAddress(x.fromUser);
    if (x.hasRef) r.storeAddress(x.refAddress);
  });
};

export const encodeStonfiV1Swap = (x: StonfiV1Swap): Cell => toCell(storeStonfiV1Swap(x));

export const stonfiV1SwapCodec = defineCodec(KIND, STONFI_V1_OP.swap, decodeStonfiV1Swap, storeStonfiV1Swap);
