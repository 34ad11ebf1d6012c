// STON.fi v2 router → pool `internal_update_status` (toggles the pool lock).
// Source: shared/reference/contracts.md §3.8 ([v2-src] pool/msgs/router.fc).
//
//   internal_update_status#62752512 query_id:uint64 excesses:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { excessesAddress: "addr" } as const satisfies Layout;

export type StonfiV2InternalUpdateStatus = Msg<"stonfi.v2.internal_update_status", typeof LAYOUT>;

export const stonfiV2InternalUpdateStatusCodec = messageCodec(
  "stonfi.v2.internal_update_status",
  STONFI_V2_OP.internal_update_status,
  LAYOUT,
  true,
);
export const decodeStonfiV2InternalUpdateStatus = stonfiV2InternalUpdateStatusCodec.decode;
export const storeStonfiV2InternalUpdateStatus = stonfiV2InternalUpdateStatusCodec.store;
export const encodeStonfiV2InternalUpdateStatus: (x: StonfiV2InternalUpdateStatus) => Cell = encoder(
  stonfiV2InternalUpdateStatusCodec,
);
