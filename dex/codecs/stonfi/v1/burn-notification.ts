// STON.fi v1 LP wallet → pool `burn_notification` (the TEP-74 layout; decodeBody returns this kind only with hint dex "v1").
// Source: shared/reference/contracts.md §2.7 ([v1-src] lp_wallet.func, pool.func).
//
//   burn_notification#7bdd97de query_id:uint64 amount:Coins from:MsgAddress response_address:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { amount: "coins", from: "addr", responseAddress: "addr" } as const satisfies Layout;

export type StonfiV1BurnNotification = Msg<"stonfi.v1.burn_notification", typeof LAYOUT>;

export const stonfiV1BurnNotificationCodec = messageCodec(
  "stonfi.v1.burn_notification",
  STONFI_V1_OP.burn_notification,
  LAYOUT,
  true,
);
export const decodeStonfiV1BurnNotification = stonfiV1BurnNotificationCodec.decode;
export const storeStonfiV1BurnNotification = stonfiV1BurnNotificationCodec.store;
export const encodeStonfiV1BurnNotification: (x: StonfiV1BurnNotification) => Cell = encoder(
  stonfiV1BurnNotificationCodec,
);
