// STON.fi v2 LP wallet → pool `burn_notification_ext`.
// Source: shared/reference/contracts.md §3.8 ([v2-src] lp_wallet.fc, pool/msgs/lp_wallet.fc; [tongo] stonfi_burn_notification_ext_v2).
//
//   burn_notification_ext#297437cf query_id:uint64 amount:Coins from:MsgAddress response_address:MsgAddress
//     custom_payload:(Maybe ^Cell)
//   // a custom payload of exactly 2 data bits is read by the pool as left:(Maybe ^Cell) right:(Maybe ^Cell)
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  amount: "coins",
  from: "addr",
  responseAddress: "addr",
  customPayload: "maybeRef",
} as const satisfies Layout;

export type StonfiV2BurnNotificationExt = Msg<"stonfi.v2.burn_notification_ext", typeof LAYOUT>;

export const stonfiV2BurnNotificationExtCodec = messageCodec(
  "stonfi.v2.burn_notification_ext",
  STONFI_V2_OP.burn_notification_ext,
  LAYOUT,
  true,
);
export const decodeStonfiV2BurnNotificationExt = stonfiV2BurnNotificationExtCodec.decode;
export const storeStonfiV2BurnNotificationExt = stonfiV2BurnNotificationExtCodec.store;
export const encodeStonfiV2BurnNotificationExt: (x: StonfiV2BurnNotificationExt) => Cell = encoder(
  stonfiV2BurnNotificationExtCodec,
);
