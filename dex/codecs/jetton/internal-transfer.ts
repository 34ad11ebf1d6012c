// TEP-74 jetton `internal_transfer` (wallet → wallet; pool → LP wallet as the LP mint).
// Source: contracts.md §2.7, §3.8, §6; TEP-74.
//
//   internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
//     response_address:MsgAddress forward_ton_amount:(VarUInteger 16)
//     forward_payload:(Either Cell ^Cell)
import type { Address, Builder, Cell, Slice } from "@ton/core";
import {
  defineCodec,
  type EitherPayload,
  loadEitherTail,
  loadHead,
  storeEitherTail,
  storeHead,
  toCell,
} from "../common.ts";
import { JETTON_OP } from "./opcodes.ts";

export type JettonInternalTransfer = {
  kind: "jetton.internal_transfer";
  queryId: bigint;
  amount: bigint;
  from: Address | null;
  responseAddress: Address | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherPayload | null;
};

const KIND = "jetton.internal_transfer";

export function decodeJettonInternalTransfer(s: Slice): JettonInternalTransfer {
  const queryId = loadHead(s, JETTON_OP.internal_transfer, KIND);
  return {
    kind: KIND,
    queryId,
    amount: s.loadCoins(),
    from: s.loadMaybeAddress(),
    responseAddress: s.loadMaybeAddress(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherTail(s, KIND),
  };
}

export const storeJettonInternalTransfer = (x: JettonInternalTransfer) => (b: Builder) => {
  storeHead(b, JETTON_OP.internal_transfer, x.queryId)
    .storeCoins(x.amount)
    .storeAddress(x.from)
    .storeAddress(x.responseAddress)
    .storeCoins(x.forwardTonAmount);
  storeEitherTail(b, x.forwardPayload);
};

export const encodeJettonInternalTransfer = (x: JettonInternalTransfer): Cell =>
  toCell(storeJettonInternalTransfer(x));

export const jettonInternalTransferCodec = defineCodec(
  KIND,
  JETTON_OP.internal_transfer,
  decodeJettonInternalTransfer,
  storeJettonInternalTransfer,
);
