// STON.fi v1 messages whose body is only `op:uint32 query_id:uint64` (one codec each, grouped here because
// they share one trivial layout). Source: shared/reference/contracts.md §2.3, §2.7, §2.8 ([v1-src]
// router/admin-calls.func, pool.func, lp_account/user-calls.func).
//
//   refund_me#0bf3f447 query_id:uint64             user → LpAccount
//   collect_fees#1fcb7d3d query_id:uint64          router → pool, or anyone → pool (public, rewarded);
//                                                  the admin → router form carries two wallets (collect-fees.ts)
//   reset_gas#42a0fb43 query_id:uint64             admin → router; router → pool; user → LpAccount
//                                                  (also pTON v1 wallet reset_gas, see ../../pton/v1/reset-gas.ts)
//   lock#878f9b0e / unlock#6ae4b0ef query_id:uint64                                  admin → router
//   cancel_code_upgrade#357ccc67 / cancel_admin_upgrade#a4ed9981 query_id:uint64      admin → router
//   finalize_upgrades#6378509f query_id:uint64                                       admin → router
//
// Open layouts: v1 contracts never check for trailing data, so neither does the decoder.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const EMPTY = {} as const satisfies Layout;

export type StonfiV1RefundMe = Msg<"stonfi.v1.refund_me", typeof EMPTY>;
export type StonfiV1CollectFeesPool = Msg<"stonfi.v1.collect_fees_pool", typeof EMPTY>;
export type StonfiV1ResetGas = Msg<"stonfi.v1.reset_gas", typeof EMPTY>;
export type StonfiV1Lock = Msg<"stonfi.v1.lock", typeof EMPTY>;
export type StonfiV1Unlock = Msg<"stonfi.v1.unlock", typeof EMPTY>;
export type StonfiV1CancelCodeUpgrade = Msg<"stonfi.v1.cancel_code_upgrade", typeof EMPTY>;
export type StonfiV1CancelAdminUpgrade = Msg<"stonfi.v1.cancel_admin_upgrade", typeof EMPTY>;
export type StonfiV1FinalizeUpgrades = Msg<"stonfi.v1.finalize_upgrades", typeof EMPTY>;

const op = STONFI_V1_OP;
export const stonfiV1RefundMeCodec = messageCodec("stonfi.v1.refund_me", op.refund_me, EMPTY, false);
export const stonfiV1CollectFeesPoolCodec = messageCodec(
  "stonfi.v1.collect_fees_pool",
  op.collect_fees,
  EMPTY,
  false,
);
export const stonfiV1ResetGasCodec = messageCodec("stonfi.v1.reset_gas", op.reset_gas, EMPTY, false);
export const stonfiV1LockCodec = messageCodec("stonfi.v1.lock", op.lock, EMPTY, false);
export const stonfiV1UnlockCodec = messageCodec("stonfi.v1.unlock", op.unlock, EMPTY, false);
export const stonfiV1CancelCodeUpgradeCodec = messageCodec(
  "stonfi.v1.cancel_code_upgrade",
  op.cancel_code_upgrade,
  EMPTY,
  false,
);
export const stonfiV1CancelAdminUpgradeCodec = messageCodec(
  "stonfi.v1.cancel_admin_upgrade",
  op.cancel_admin_upgrade,
  EMPTY,
  false,
);
export const stonfiV1FinalizeUpgradesCodec = messageCodec(
  "stonfi.v1.finalize_upgrades",
  op.finalize_upgrades,
  EMPTY,
  false,
);

export const encodeStonfiV1RefundMe: (x: StonfiV1RefundMe) => Cell = encoder(stonfiV1RefundMeCodec);
export const encodeStonfiV1ResetGas: (x: StonfiV1ResetGas) => Cell = encoder(stonfiV1ResetGasCodec);
