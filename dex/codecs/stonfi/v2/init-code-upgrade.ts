// STON.fi v2 admin → router `init_code_upgrade` (7-day timelock).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc, which end_parses).
//
//   init_code_upgrade#03601fc8 query_id:uint64 ^new_code
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { newCode: "ref" } as const satisfies Layout;

export type StonfiV2InitCodeUpgrade = Msg<"stonfi.v2.init_code_upgrade", typeof LAYOUT>;

export const stonfiV2InitCodeUpgradeCodec = messageCodec(
  "stonfi.v2.init_code_upgrade",
  STONFI_V2_OP.init_code_upgrade,
  LAYOUT,
  true,
);
export const decodeStonfiV2InitCodeUpgrade = stonfiV2InitCodeUpgradeCodec.decode;
export const storeStonfiV2InitCodeUpgrade = stonfiV2InitCodeUpgradeCodec.store;
export const encodeStonfiV2InitCodeUpgrade: (x: StonfiV2InitCodeUpgrade) => Cell = encoder(
  stonfiV2InitCodeUpgradeCodec,
);
