// STON.fi v2 admin → router `update_pool_status` (router then sends `internal_update_status`).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc).
//
//   update_pool_status#2af4607c query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress excesses:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  jettonWallet0: "addr",
  jettonWallet1: "addr",
  excessesAddress: "addr",
} as const satisfies Layout;

export type StonfiV2UpdatePoolStatus = Msg<"stonfi.v2.update_pool_status", typeof LAYOUT>;

export const stonfiV2UpdatePoolStatusCodec = messageCodec(
  "stonfi.v2.update_pool_status",
  STONFI_V2_OP.update_pool_status,
  LAYOUT,
  true,
);
export const decodeStonfiV2UpdatePoolStatus = stonfiV2UpdatePoolStatusCodec.decode;
export const storeStonfiV2UpdatePoolStatus = stonfiV2UpdatePoolStatusCodec.store;
export const encodeStonfiV2UpdatePoolStatus: (x: StonfiV2UpdatePoolStatus) => Cell = encoder(
  stonfiV2UpdatePoolStatusCodec,
);
