// Dispatch over every STON.fi DEX v1/v2, pTON, Vault and TEP-74 jetton message codec.
//
// Kind strings: "<family>.<op>" with family `jetton`, `stonfi.v1`, `stonfi.v2`, `stonfi.v2.vault`, `pton.v1`,
// `pton.v2`. Router→pool forms that reuse an op without their own name in the source get a `_pool` suffix;
// forward payloads get a `_payload` suffix.
//
// Message bodies (decodeBody → KnownBody):
//   jetton.transfer, jetton.internal_transfer, jetton.transfer_notification, jetton.excesses, jetton.burn,
//   jetton.burn_notification, jetton.provide_wallet_address, jetton.take_wallet_address, jetton.mint,
//   stonfi.v1.swap, stonfi.v1.provide_lp, stonfi.v1.pay_to, stonfi.v1.add_liquidity,
//   stonfi.v1.cb_add_liquidity, stonfi.v1.direct_add_liquidity, stonfi.v1.refund_me, stonfi.v1.cb_refund_me,
//   stonfi.v1.burn_notification, stonfi.v1.collect_fees, stonfi.v1.collect_fees_pool, stonfi.v1.set_fees,
//   stonfi.v1.set_fees_pool, stonfi.v1.reset_gas, stonfi.v1.reset_pool_gas, stonfi.v1.lock, stonfi.v1.unlock,
//   stonfi.v1.init_code_upgrade, stonfi.v1.init_admin_upgrade, stonfi.v1.cancel_code_upgrade,
//   stonfi.v1.cancel_admin_upgrade, stonfi.v1.finalize_upgrades,
//   stonfi.v2.swap, stonfi.v2.provide_lp, stonfi.v2.pay_to, stonfi.v2.pay_vault,
//   stonfi.v2.vault.deposit_ref_fee, stonfi.v2.vault.withdraw_fee, stonfi.v2.vault.vault_pay_to,
//   stonfi.v2.add_liquidity, stonfi.v2.cb_add_liquidity, stonfi.v2.direct_add_liquidity, stonfi.v2.refund_me,
//   stonfi.v2.cb_refund_me, stonfi.v2.burn_notification_ext, stonfi.v2.collect_fees, stonfi.v2.set_fees,
//   stonfi.v2.internal_set_fees, stonfi.v2.reset_gas, stonfi.v2.reset_gas_pool, stonfi.v2.reset_pool_gas,
//   stonfi.v2.update_status, stonfi.v2.update_pool_status, stonfi.v2.internal_update_status,
//   stonfi.v2.init_code_upgrade, stonfi.v2.init_admin_upgrade, stonfi.v2.init_pool_code_upgrade,
//   stonfi.v2.cancel_code_upgrade, stonfi.v2.cancel_admin_upgrade, stonfi.v2.cancel_pool_code_upgrade,
//   stonfi.v2.finalize_upgrades, stonfi.v2.update_pool_code, stonfi.v2.internal_update_pool_code,
//   stonfi.v2.set_params, stonfi.v2.internal_set_params, stonfi.v2.set_rate,
//   pton.v1.deploy_wallet, pton.v1.reset_gas,
//   pton.v2.ton_transfer, pton.v2.ton_refund, pton.v2.deploy_wallet, pton.v2.internal_deploy, pton.v2.reset_gas
// Forward payloads (decodeForwardPayload → KnownPayload):
//   stonfi.v1.swap_payload, stonfi.v1.provide_lp_payload, stonfi.v1.exit_code_payload,
//   stonfi.v2.swap_payload, stonfi.v2.cross_swap_payload, stonfi.v2.provide_lp_payload,
//   stonfi.v2.exit_code_payload
// plus `unknown` and `malformed` from both.
//
// Rules for ops that mean more than one layout (contracts.md §2.3, §2.8, §3.3, §3.8, §2.11, §3.11):
// 1. Context first. `decodeBody` reads internal-message bodies (op, query_id, ...); `decodeForwardPayload`
//    reads the cell inside a forward_payload (or a `dex_payload` / `custom_payload` ref). So swap/provide_lp
//    ops are the router→pool messages in decodeBody and the user payloads in decodeForwardPayload.
// 2. Shape next, where the layouts differ (checked without exceptions):
//    * v2 reset_gas 0x29d22935: nothing after query_id → stonfi.v2.reset_gas (admin → router,
//      user → LpAccount); otherwise → stonfi.v2.reset_gas_pool (router → pool, carries excesses).
//    * v1 collect_fees 0x1fcb7d3d: nothing after query_id → stonfi.v1.collect_fees_pool; else the admin form.
//    * v1 set_fees 0x355423e5: has a ref → stonfi.v1.set_fees (admin → router); else stonfi.v1.set_fees_pool.
//    * v2 set_params / internal_set_params: the pool type is read from the shape (see those files).
//    * A forward payload of exactly 32 bits and no refs is an exit-code payload, whatever its value.
// 3. Hint last, where layouts are identical:
//    * hint.pton: reset_gas 0x42a0fb43 → pton.v1.reset_gas, 0x29d22935 → pton.v2.reset_gas (default:
//      the STON.fi kinds). pTON's transfer / transfer_notification are always the jetton kinds.
//    * hint.dex "v1": burn_notification 0x7bdd97de → stonfi.v1.burn_notification (default: jetton).
//    * Exit-code payloads: hint.dex picks the family; without it, the v1 payout codes (swap_ok, swap_ok_ref,
//      swap_refund_no_liq, swap_refund_reserve_err, burn_ok, refund_ok, 0 — v2 payouts carry no exit code,
//      §8.11) give stonfi.v1.exit_code_payload and every other value gives stonfi.v2.exit_code_payload
//      (the shared transfer_bounce_locked / _invalid_request therefore default to v2).
//
// Both decoders never throw: a short/unknown op gives `unknown`, a failing codec gives `malformed`.
import type { Cell, Slice } from "@ton/core";
import { STONFI_EXIT_CODE } from "../exit-codes.ts";
import { type Codec, hex32, toCell } from "./common.ts";
import { BODY_CODECS, type KnownBody, type KnownPayload, PAYLOAD_CODECS, shared } from "./registry.ts";

export type { EitherPayload } from "./common.ts";
export * from "./jetton/burn.ts";

// Record types, decoders and encoders of every message (one module per message).
export * from "./jetton/burn-notification.ts";
export * from "./jetton/excesses.ts";
export * from "./jetton/internal-transfer.ts";
export * from "./jetton/mint.ts";
export * from "./jetton/opcodes.ts";
export * from "./jetton/provide-wallet-address.ts";
export * from "./jetton/take-wallet-address.ts";
export * from "./jetton/transfer.ts";
export * from "./jetton/transfer-notification.ts";
export * from "./pton/v1/deploy-wallet.ts";
export * from "./pton/v1/opcodes.ts";
export * from "./pton/v1/query-only.ts";
export * from "./pton/v2/deploy-wallet.ts";
export * from "./pton/v2/internal-deploy.ts";
export * from "./pton/v2/opcodes.ts";
export * from "./pton/v2/query-only.ts";
export * from "./pton/v2/ton-transfer.ts";
export type { KnownBody, KnownPayload } from "./registry.ts";
export * from "./stonfi/v1/add-liquidity.ts";
export * from "./stonfi/v1/burn-notification.ts";
export * from "./stonfi/v1/cb-add-liquidity.ts";
export * from "./stonfi/v1/cb-refund-me.ts";
export * from "./stonfi/v1/collect-fees.ts";
export * from "./stonfi/v1/direct-add-liquidity.ts";
export * from "./stonfi/v1/exit-code-payload.ts";
export * from "./stonfi/v1/init-admin-upgrade.ts";
export * from "./stonfi/v1/init-code-upgrade.ts";
export * from "./stonfi/v1/opcodes.ts";
export * from "./stonfi/v1/pay-to.ts";
export * from "./stonfi/v1/provide-lp.ts";
export * from "./stonfi/v1/provide-lp-payload.ts";
export * from "./stonfi/v1/query-only.ts";
export * from "./stonfi/v1/reset-pool-gas.ts";
export * from "./stonfi/v1/set-fees.ts";
export * from "./stonfi/v1/set-fees-pool.ts";
export * from "./stonfi/v1/swap.ts";
export * from "./stonfi/v1/swap-payload.ts";
export * from "./stonfi/v2/add-liquidity.ts";
export * from "./stonfi/v2/burn-notification-ext.ts";
export * from "./stonfi/v2/cb-add-liquidity.ts";
export * from "./stonfi/v2/cb-refund-me.ts";
export * from "./stonfi/v2/collect-fees.ts";
export * from "./stonfi/v2/deposit-ref-fee.ts";
export * from "./stonfi/v2/direct-add-liquidity.ts";
export * from "./stonfi/v2/exit-code-payload.ts";
export * from "./stonfi/v2/init-admin-upgrade.ts";
export * from "./stonfi/v2/init-code-upgrade.ts";
export * from "./stonfi/v2/init-pool-code-upgrade.ts";
export * from "./stonfi/v2/internal-set-fees.ts";
export * from "./stonfi/v2/internal-set-params.ts";
export * from "./stonfi/v2/internal-update-pool-code.ts";
export * from "./stonfi/v2/internal-update-status.ts";
export * from "./stonfi/v2/opcodes.ts";
export * from "./stonfi/v2/pay-to.ts";
export * from "./stonfi/v2/pay-vault.ts";
export * from "./stonfi/v2/pool-params.ts";
export * from "./stonfi/v2/provide-lp.ts";
export * from "./stonfi/v2/provide-lp-payload.ts";
export * from "./stonfi/v2/query-only.ts";
export * from "./stonfi/v2/refund-me.ts";
export * from "./stonfi/v2/reset-gas-pool.ts";
export * from "./stonfi/v2/reset-pool-gas.ts";
export * from "./stonfi/v2/set-fees.ts";
export * from "./stonfi/v2/set-params.ts";
export * from "./stonfi/v2/set-rate.ts";
export * from "./stonfi/v2/swap.ts";
export * from "./stonfi/v2/swap-payload.ts";
export * from "./stonfi/v2/update-pool-code.ts";
export * from "./stonfi/v2/update-pool-status.ts";
export * from "./stonfi/v2/vault-pay-to.ts";
export * from "./stonfi/v2/withdraw-fee.ts";

export type UnknownBody = { kind: "unknown"; op: number | null; reason: string };
/** `family` is the kind the bytes were decoded as, e.g. "stonfi.v2.swap". */
export type MalformedBody = { kind: "malformed"; op: number; family: string; reason: string };
export type Decoded = KnownBody | UnknownBody | MalformedBody;
export type DecodedPayload = KnownPayload | UnknownBody | MalformedBody;
export type DecodeHint = { dex?: "v1" | "v2"; pton?: boolean };

export type BodyKind = KnownBody["kind"];
export type PayloadKind = KnownPayload["kind"];
export const BODY_KINDS: readonly BodyKind[] = BODY_CODECS.map((c) => c.kind);
export const PAYLOAD_KINDS: readonly PayloadKind[] = PAYLOAD_CODECS.map((c) => c.kind);

type Chooser = (s: Slice, hint: DecodeHint) => Codec<KnownBody>;

/** Bits of `op:uint32 query_id:uint64`. */
const HEAD_BITS = 96;
const onlyHead = (s: Slice) => s.remainingBits === HEAD_BITS && s.remainingRefs === 0;

const SHARED_OPS: ReadonlyMap<number, Chooser> = new Map<number, Chooser>([
  [
    0x7bdd97de,
    (_s, h) => (h.dex === "v1" ? shared.stonfiV1BurnNotificationCodec : shared.jettonBurnNotificationCodec),
  ],
  [0x42a0fb43, (_s, h) => (h.pton ? shared.ptonV1ResetGasCodec : shared.stonfiV1ResetGasCodec)],
  [
    0x29d22935,
    (s, h) =>
      h.pton
        ? shared.ptonV2ResetGasCodec
        : onlyHead(s)
          ? shared.stonfiV2ResetGasCodec
          : shared.stonfiV2ResetGasPoolCodec,
  ],
  [0x1fcb7d3d, (s) => (onlyHead(s) ? shared.stonfiV1CollectFeesPoolCodec : shared.stonfiV1CollectFeesCodec)],
  [0x355423e5, (s) => (s.remainingRefs > 0 ? shared.stonfiV1SetFeesCodec : shared.stonfiV1SetFeesPoolCodec)],
]);

function buildBodyRoutes(): ReadonlyMap<number, Chooser> {
  const routes = new Map<number, Chooser>(SHARED_OPS);
  for (const c of BODY_CODECS) {
    if (!routes.has(c.op)) routes.set(c.op, () => c);
  }
  return routes;
}

const BODY_ROUTES = buildBodyRoutes();
const PAYLOAD_ROUTES: ReadonlyMap<number, Codec<KnownPayload>> = new Map<number, Codec<KnownPayload>>(
  PAYLOAD_CODECS.filter((c) => c.op >= 0).map((c) => [c.op, c]),
);
const BY_KIND: ReadonlyMap<string, Codec<KnownBody>> = new Map(BODY_CODECS.map((c) => [c.kind, c]));
const PAYLOAD_BY_KIND: ReadonlyMap<string, Codec<KnownPayload>> = new Map(
  PAYLOAD_CODECS.map((c) => [c.kind, c]),
);

const V1_PAYOUT_CODES: ReadonlySet<number> = new Set<number>([
  STONFI_EXIT_CODE.ok,
  STONFI_EXIT_CODE.swap_ok,
  STONFI_EXIT_CODE.swap_ok_ref,
  STONFI_EXIT_CODE.swap_refund_no_liq,
  STONFI_EXIT_CODE.swap_refund_reserve_err,
  STONFI_EXIT_CODE.burn_ok,
  STONFI_EXIT_CODE.refund_ok,
]);

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function runCodec<T extends { kind: string }>(c: Codec<T>, s: Slice, op: number): T | MalformedBody {
  try {
    return c.decode(s);
  } catch (e) {
    return { kind: "malformed", op, family: c.kind, reason: reasonOf(e) };
  }
}

function openCell(cell: Cell): Slice | UnknownBody {
  if (cell.isExotic) return { kind: "unknown", op: null, reason: "exotic cell" };
  const s = cell.beginParse();
  if (s.remainingBits < 32) {
    const reason = s.remainingBits === 0 ? "empty cell" : `only ${s.remainingBits} bits, no 32-bit op`;
    return { kind: "unknown", op: null, reason };
  }
  return s;
}

/** Decodes an internal-message body (op, query_id, ...). Never throws. */
export function decodeBody(body: Cell, hint: DecodeHint = {}): Decoded {
  const s = openCell(body);
  if ("kind" in s) return s;
  const op = s.preloadUint(32);
  const pick = BODY_ROUTES.get(op);
  if (pick === undefined) return { kind: "unknown", op, reason: `unknown op 0x${hex32(op)}` };
  return runCodec(pick(s, hint), s, op);
}

/**
 * Decodes the DEX command inside a forward payload (the Either's inline remainder or its ref; also a
 * `dex_payload` or `custom_payload` cell), or an exit-code payload. Never throws.
 */
export function decodeForwardPayload(payload: Cell, hint: Pick<DecodeHint, "dex"> = {}): DecodedPayload {
  const s = openCell(payload);
  if ("kind" in s) return s;
  if (s.remainingBits === 32 && s.remainingRefs === 0) {
    const code = s.preloadUint(32);
    const v1 = hint.dex === undefined ? V1_PAYOUT_CODES.has(code) : hint.dex === "v1";
    const c: Codec<KnownPayload> = v1
      ? shared.stonfiV1ExitCodePayloadCodec
      : shared.stonfiV2ExitCodePayloadCodec;
    return runCodec(c, s, code);
  }
  const op = s.preloadUint(32);
  const c = PAYLOAD_ROUTES.get(op);
  if (c === undefined) return { kind: "unknown", op, reason: `unknown payload op 0x${hex32(op)}` };
  return runCodec(c, s, op);
}

/** Encodes any decoded body record back to its cell. */
export function encodeBody(x: KnownBody): Cell {
  const c = BY_KIND.get(x.kind);
  if (c === undefined) throw new Error(`encodeBody: no codec for kind ${x.kind}`);
  return toCell(c.store(x));
}

/** Encodes any decoded forward-payload record back to its cell. */
export function encodeForwardPayload(x: KnownPayload): Cell {
  const c = PAYLOAD_BY_KIND.get(x.kind);
  if (c === undefined) throw new Error(`encodeForwardPayload: no codec for kind ${x.kind}`);
  return toCell(c.store(x));
}
