// TEP-74 jetton `transfer` (user → own jetton wallet; router → router's jetton wallet; user → pTON wallet).
// Source: contracts.md §1.1, §2.6, §2.11, §3.11; TEP-74.
//
//   transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
//     response_destination:MsgAddress custom_payload:(Maybe ^Cell)
//     forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
//
// The forward payload ends the layout (inline form = every remaining bit and ref), so the record
// re-encodes to the identical cell. A STON.fi command or exit code inside it is decoded separately with
// `decodeForwardPayload(forwardPayload.payload)`.
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

export type JettonTransfer = {
  kind: "jetton.transfer";
  queryId: bigint;
  amount: bigint;
  destination: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherPayload | null;
};

const KIND = "jetton.transfer";

export function decodeJettonTransfer(s: Slice): JettonTransfer {
  const queryId = loadHead(s, JETTON_OP.transfer, KIND);
  return {
    kind: KIND,
    queryId,
    amount: s.loadCoins(),
    destination: s.loadMaybeAddress(),
    responseDestination: s.loadMaybeAddress(),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherTail(s, KIND),
  };
}

export const storeJettonTransfer = (x: JettonTransfer) => (b: Builder) => {
  storeHead(b, JETTON_OP.transfer, x.queryId)
    .storeCoins(x.amount)
    .storeAddress(x.destination)
    .storeAddress(x.responseDestination)
    .storeMaybeRef(x.customPayload)
    .storeCoins(x.forwardTonAmount);
  storeEitherTail(b, x.forwardPayload);
};

export const encodeJettonTransfer = (x: JettonTransfer): Cell => toCell(storeJettonTransfer(x));

export const jettonTransferCodec = defineCodec(
  KIND,
  JETTON_OP.transfer,
  decodeJettonTransfer,
  storeJettonTransfer,
);
