// TEP-74 `transfer_notification` (router's jetton wallet → router; pTON wallet → router or → user).
// Source: contracts.md §1.1, §2.11 (pTON v1 TON-out uses this op), §3.11; TEP-74.
//
//   transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
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

export type JettonTransferNotification = {
  kind: "jetton.transfer_notification";
  queryId: bigint;
  amount: bigint;
  sender: Address | null;
  forwardPayload: EitherPayload | null;
};

const KIND = "jetton.transfer_notification";

export function decodeJettonTransferNotification(s: Slice): JettonTransferNotification {
  const queryId = loadHead(s, JETTON_OP.transfer_notification, KIND);
  return {
    kind: KIND,
    queryId,
    amount: s.loadCoins(),
    sender: s.loadMaybeAddress(),
    forwardPayload: loadEitherTail(s, KIND),
  };
}

export const storeJettonTransferNotification = (x: JettonTransferNotification) => (b: Builder) => {
  storeHead(b, JETTON_OP.transfer_notification, x.queryId).storeCoins(x.amount).storeAddress(x.sender);
  storeEitherTail(b, x.forwardPayload);
};

export const encodeJettonTransferNotification = (x: JettonTransferNotification): Cell =>
  toCell(storeJettonTransferNotification(x));

export const jettonTransferNotificationCodec = defineCodec(
  KIND,
  JETTON_OP.transfer_notification,
  decodeJettonTransferNotification,
  storeJettonTransferNotification,
);
