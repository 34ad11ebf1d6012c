// STON.fi v2 admin → router `init_pool_code_upgrade` (2-day timelock).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc, which end_parses).
//
//   init_pool_code_upgrade#29be3423 query_id:uint64 ^new_pool_code
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { newPoolCode: "ref" } as const satisfies Layout;

export type StonfiV2InitPoolCodeUpgrade = Msg<"stonfi.v2.init_pool_code_upgrade", typeof LAYOUT>;

export const stonfiV2InitPoolCodeUpgradeCodec = messageCodec(
  "stonfi.v2.init_pool_code_upgrade",
  STONFI_V2_OP.init_pool_code_upgrade,
  LAYOUT,
  true,
);
export const decodeStonfiV2InitPoolCodeUpgrade = stonfiV2InitPoolCodeUpgradeCodec.decode;
export const storeStonfiV2InitPoolCodeUpgrade = stonfiV2InitPoolCodeUpgradeCodec.store;
export const encodeStonfiV2InitPoolCodeUpgrade: (x: StonfiV2InitPoolCodeUpgrade) => Cell = encoder(
  stonfiV2InitPoolCodeUpgradeCodec,
);
