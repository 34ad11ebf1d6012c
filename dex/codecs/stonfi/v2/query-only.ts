// STON.fi v2 messages whose body is only `op:uint32 query_id:uint64` (one codec each, grouped here because
// they share one trivial layout). Source: shared/reference/contracts.md §3.3, §3.8 ([v2-src]
// router/msgs/admin.fc, lp_account).
//
//   reset_gas#29d22935 query_id:uint64               admin → router; user → LpAccount. Closed: the same op
//                                                    with an address after query_id is the router → pool form
//                                                    (reset-gas-pool.ts); pTON v2 reset_gas is
//                                                    ../../pton/v2/query-only.ts.
//   update_status#38a6022f query_id:uint64           admin → router (toggles the router lock)
//   cancel_code_upgrade#1f72111a / cancel_admin_upgrade#72d6b3b4 /
//   cancel_pool_code_upgrade#3d51269b / finalize_upgrades#4e6707b7 query_id:uint64     admin → router
//
// The admin ops are open (the router does not end_parse them).
import { type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const EMPTY = {} as const satisfies Layout;

export type StonfiV2ResetGas = Msg<"stonfi.v2.reset_gas", typeof EMPTY>;
export type StonfiV2UpdateStatus = Msg<"stonfi.v2.update_status", typeof EMPTY>;
export type StonfiV2CancelCodeUpgrade = Msg<"stonfi.v2.cancel_code_upgrade", typeof EMPTY>;
export type StonfiV2CancelAdminUpgrade = Msg<"stonfi.v2.cancel_admin_upgrade", typeof EMPTY>;
export type StonfiV2CancelPoolCodeUpgrade = Msg<"stonfi.v2.cancel_pool_code_upgrade", typeof EMPTY>;
export type StonfiV2FinalizeUpgrades = Msg<"stonfi.v2.finalize_upgrades", typeof EMPTY>;

const op = STONFI_V2_OP;
export const stonfiV2ResetGasCodec = messageCodec("stonfi.v2.reset_gas", op.reset_gas, EMPTY, true);
export const stonfiV2UpdateStatusCodec = messageCodec(
  "stonfi.v2.update_status",
  op.update_status,
  EMPTY,
  false,
);
export const stonfiV2CancelCodeUpgradeCodec = messageCodec(
  "stonfi.v2.cancel_code_upgrade",
  op.cancel_code_upgrade,
  EMPTY,
  false,
);
export const stonfiV2CancelAdminUpgradeCodec = messageCodec(
  "stonfi.v2.cancel_admin_upgrade",
  op.cancel_admin_upgrade,
  EMPTY,
  false,
);
export const stonfiV2CancelPoolCodeUpgradeCodec = messageCodec(
  "stonfi.v2.cancel_pool_code_upgrade",
  op.cancel_pool_code_upgrade,
  EMPTY,
  false,
);
export const stonfiV2FinalizeUpgradesCodec = messageCodec(
  "stonfi.v2.finalize_upgrades",
  op.finalize_upgrades,
  EMPTY,
  false,
);
