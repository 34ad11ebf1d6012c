// STON.fi v1 admin → router `init_admin_upgrade` (2-day timelock).
// Source: shared/reference/contracts.md §2.8 ([v1-src] router/admin-calls.func).
//
//   init_admin_upgrade#2fb94384 query_id:uint64 new_admin:MsgAddress
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { newAdmin: "addr" } as const satisfies Layout;

export type StonfiV1InitAdminUpgrade = Msg<"stonfi.v1.init_admin_upgrade", typeof LAYOUT>;

export const stonfiV1InitAdminUpgradeCodec = messageCodec(
  "stonfi.v1.init_admin_upgrade",
  STONFI_V1_OP.init_admin_upgrade,
  LAYOUT,
  false,
);
export const decodeStonfiV1InitAdminUpgrade = stonfiV1InitAdminUpgradeCodec.decode;
export const storeStonfiV1InitAdminUpgrade = stonfiV1InitAdminUpgradeCodec.store;
export const encodeStonfiV1InitAdminUpgrade: (x: StonfiV1InitAdminUpgrade) => Cell = encoder(
  stonfiV1InitAdminUpgradeCodec,
);
