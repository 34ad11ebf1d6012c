// STON.fi v2 admin → router `init_admin_upgrade` (2-day timelock).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc, which end_parses).
//
//   init_admin_upgrade#0b02fd5b query_id:uint64 new_admin:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { newAdmin: "addr" } as const satisfies Layout;

export type StonfiV2InitAdminUpgrade = Msg<"stonfi.v2.init_admin_upgrade", typeof LAYOUT>;

export const stonfiV2InitAdminUpgradeCodec = messageCodec(
  "stonfi.v2.init_admin_upgrade",
  STONFI_V2_OP.init_admin_upgrade,
  LAYOUT,
  true,
);
export const decodeStonfiV2InitAdminUpgrade = stonfiV2InitAdminUpgradeCodec.decode;
export const storeStonfiV2InitAdminUpgrade = stonfiV2InitAdminUpgradeCodec.store;
export const encodeStonfiV2InitAdminUpgrade: (x: StonfiV2InitAdminUpgrade) => Cell = encoder(
  stonfiV2InitAdminUpgradeCodec,
);
