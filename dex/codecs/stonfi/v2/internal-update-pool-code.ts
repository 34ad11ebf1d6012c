// STON.fi v2 router → pool `internal_update_pool_code` (pool set_code).
// Source: shared/reference/contracts.md §3.8 ([v2-src] pool/msgs/router.fc).
//
//   internal_update_pool_code#355d097e query_id:uint64 ^new_code
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { newCode: "ref" } as const satisfies Layout;

export type StonfiV2InternalUpdatePoolCode = Msg<"stonfi.v2.internal_update_pool_code", typeof LAYOUT>;

export const stonfiV2InternalUpdatePoolCodeCodec = messageCodec(
  "stonfi.v2.internal_update_pool_code",
  STONFI_V2_OP.internal_update_pool_code,
  LAYOUT,
  true,
);
export const decodeStonfiV2InternalUpdatePoolCode = stonfiV2InternalUpdatePoolCodeCodec.decode;
export const storeStonfiV2InternalUpdatePoolCode = stonfiV2InternalUpdatePoolCodeCodec.store;
export const encodeStonfiV2InternalUpdatePoolCode: (x: StonfiV2InternalUpdatePoolCode) => Cell = encoder(
  stonfiV2InternalUpdatePoolCodeCodec,
);
