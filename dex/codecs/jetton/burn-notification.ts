// TEP-74 `burn_notification` (jetton wallet → minter). STON.fi v1 LP wallets send the same layout; with
// hint dex "v1" decodeBody returns `stonfi.v1.burn_notification` instead.
// Source: shared/reference/contracts.md §2.7; TEP-74.
//
//   burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//     response_destination:MsgAddress
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../layout.ts";
import { JETTON_OP } from "./opcodes.ts";

const LAYOUT = { amount: "coins", sender: "addr", responseDestination: "addr" } as const satisfies Layout;

export type JettonBurnNotification = Msg<"jetton.burn_notification", typeof LAYOUT>;

export const jettonBurnNotificationCodec = messageCodec(
  "jetton.burn_notification",
  JETTON_OP.burn_notification,
  LAYOUT,
  false,
);
export const decodeJettonBurnNotification = jettonBurnNotificationCodec.decode;
export const storeJettonBurnNotification = jettonBurnNotificationCodec.store;
export const encodeJettonBurnNotification: (x: JettonBurnNotification) => Cell =
  encoder(jettonBurnNotificationCodec);
