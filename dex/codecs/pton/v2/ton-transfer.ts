// pTON v2.1 (TEP-161) `ton_transfer`: TON in (user → router's pTON wallet) and TON out (pTON wallet → receiver).
// Source: shared/reference/contracts.md §3.11 ([pton-src]; [sdk] PtonV2_1; [tongo] PtonTonTransferMsgBody).
//
//   ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress
//     forward_payload:(Either Cell ^Cell)
//
// A missing payload bit (the wallet then refunds) decodes as `forwardPayload: null`. The DEX command inside
// is decoded with `decodeForwardPayload(forwardPayload.payload)`.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import {
  defineCodec,
  type EitherPayload,
  loadEitherTail,
  loadHead,
  storeEitherTail,
  storeHead,
  toCell,
} from "../../common.ts";
import { PTON_V2_OP } from "./opcodes.ts";

export type PtonV2TonTransfer = {
  kind: "pton.v2.ton_transfer";
  queryId: bigint;
  tonAmount: bigint;
  refundAddress: Address | null;
  forwardPayload: EitherPayload | null;
};

const KIND = "pton.v2.ton_transfer";

export function decodePtonV2TonTransfer(s: Slice): PtonV2TonTransfer {
  const queryId = loadHead(s, PTON_V2_OP.ton_transfer, KIND);
  return {
    kind: KIND,
    queryId,
    tonAmount: s.loadCoins(),
    refundAddress: s.loadMaybeAddress(),
    forwardPayload: loadEitherTail(s, KIND),
  };
}

export const storePtonV2TonTransfer = (x: PtonV2TonTransfer) => (b: Builder) => {
  storeHead(b, PTON_V2_OP.ton_transfer, x.queryId).storeCoins(x.tonAmount).storeAddress(x.refundAddress);
  storeEitherTail(b, x.forwardPayload);
};

export const encodePtonV2TonTransfer = (x: PtonV2TonTransfer): Cell => toCell(storePtonV2TonTransfer(x));

export const ptonV2TonTransferCodec = defineCodec(
  KIND,
  PTON_V2_OP.ton_transfer,
  decodePtonV2TonTransfer,
  storePtonV2TonTransfer,
);
