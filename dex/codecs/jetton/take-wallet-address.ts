// TEP-89 `take_wallet_address` (minter → requester).
// Source: contracts.md §2.3; TEP-89.
//
//   take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress
//     owner_address:(Maybe ^MsgAddress)
//
// `includesOwner` is the Maybe bit; `ownerAddress` is the address in the ref (null when absent or addr_none).
// Closed layout (the minter builds it).
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { defineCodec, end, loadHead, storeHead, storeInRef, toCell } from "../common.ts";
import { JETTON_OP } from "./opcodes.ts";

export type JettonTakeWalletAddress = {
  kind: "jetton.take_wallet_address";
  queryId: bigint;
  walletAddress: Address | null;
  includesOwner: boolean;
  ownerAddress: Address | null;
};

const KIND = "jetton.take_wallet_address";

export function decodeJettonTakeWalletAddress(s: Slice): JettonTakeWalletAddress {
  const queryId = loadHead(s, JETTON_OP.take_wallet_address, KIND);
  const walletAddress = s.loadMaybeAddress();
  const includesOwner = s.loadBit();
  let ownerAddress: Address | null = null;
  if (includesOwner) {
    const r = s.loadRef().beginParse();
    ownerAddress = r.loadMaybeAddress();
    end(r, KIND);
  }
  end(s, KIND);
  return { kind: KIND, queryId, walletAddress, includesOwner, ownerAddress };
}

export const storeJettonTakeWalletAddress = (x: JettonTakeWalletAddress) => (b: Builder) => {
  storeHead(b, JETTON_OP.take_wallet_address, x.queryId)
    .storeAddress(x.walletAddress)
    .storeBit(x.includesOwner);
  if (x.includesOwner) storeInRef(b, (r) => r.storeAddress(x.ownerAddress));
};

export const encodeJettonTakeWalletAddress = (x: JettonTakeWalletAddress): Cell =>
  toCell(storeJettonTakeWalletAddress(x));

export const jettonTakeWalletAddressCodec = defineCodec(
  KIND,
  JETTON_OP.take_wallet_address,
  decodeJettonTakeWalletAddress,
  storeJettonTakeWalletAddress,
);
