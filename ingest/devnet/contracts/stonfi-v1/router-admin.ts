/**
 * Admin → v1 router governance (contracts.md §2.8; [v1-src] `router/admin-calls.func`): fee changes and
 * protocol-fee collection forwarded to a pool, lock/unlock, reset_gas / reset_pool_gas, and the timelocked
 * admin and code upgrades. The devnet has no set-code action, so a finalized code upgrade clears the
 * pending code without changing the handler.
 */
import { type Address, beginCell } from "@ton/core";
import { type Decoded, encodeBody } from "../../../../dex/codecs/index.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import {
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { encodeStonfiV1SetFeesPool } from "../encode.ts";
import { done, drainMessage, fail, ROUTER_TON_RESERVE, V1_THROW } from "./common.ts";
import { HOLE_ADDRESS, type V1RouterState, type V1TempUpgrade, v1PoolInit } from "./storage.ts";

type Result = HandlerResult<V1RouterState>;

/** Timelocks of the v1 router ([v1-src] `router/params.func`). */
export const V1_ADMIN_UPGRADE_DELAY = 172_800n;
export const V1_CODE_UPGRADE_DELAY = 604_800n;

/** FunC `empty_cell()`: what the router stores as "no pending code". */
const emptyCell = () => beginCell().endCell();

function poolOf(state: V1RouterState, ctx: ExecutionContext, a: Address | null, b: Address | null): Address {
  if (a === null || b === null) return fail(V1_THROW.cellUnderflow, "pool wallet is addr_none");
  return contractAddressOf(v1PoolInit({ ...state, address: ctx.address }, a, b));
}

const toPool = (to: Address, body: OutgoingMessage["body"]): OutgoingMessage => ({
  to,
  value: 0n,
  bounce: true,
  body,
  mode: SendMode.CARRY_INBOUND_VALUE,
});

function upgrade(state: V1RouterState, patch: Partial<V1TempUpgrade>): Result {
  return done({ ...state, tempUpgrade: { ...state.tempUpgrade, ...patch } });
}

/** `finalize_upgrades`: applies each pending upgrade whose timelock has passed. */
function finalize(state: V1RouterState, now: bigint): Result {
  const u = state.tempUpgrade;
  if (u.endCode + u.endAdmin <= 0n) fail(V1_THROW.invalidCall, "no upgrade in progress");
  let next: V1RouterState = state;
  let temp = u;
  if (u.endCode > 0n && now >= u.endCode) temp = { ...temp, endCode: 0n, pendingCode: emptyCell() };
  if (u.endAdmin > 0n && now >= u.endAdmin) {
    next = { ...next, admin: u.pendingAdmin };
    temp = { ...temp, endAdmin: 0n, pendingAdmin: HOLE_ADDRESS };
  }
  return done({ ...next, tempUpgrade: temp });
}

function timelocks(state: V1RouterState, body: Decoded, now: bigint): Result | null {
  const u = state.tempUpgrade;
  switch (body.kind) {
    case "stonfi.v1.init_code_upgrade":
      if (u.endCode !== 0n) fail(V1_THROW.invalidCall, "code upgrade already in progress");
      return upgrade(state, { endCode: now + V1_CODE_UPGRADE_DELAY, pendingCode: body.newCode });
    case "stonfi.v1.init_admin_upgrade":
      if (u.endAdmin !== 0n) fail(V1_THROW.invalidCall, "admin upgrade already in progress");
      return upgrade(state, { endAdmin: now + V1_ADMIN_UPGRADE_DELAY, pendingAdmin: body.newAdmin });
    case "stonfi.v1.cancel_admin_upgrade":
      if (u.endAdmin <= 0n) fail(V1_THROW.invalidCall, "no admin upgrade in progress");
      return upgrade(state, { endAdmin: 0n, pendingAdmin: HOLE_ADDRESS });
    case "stonfi.v1.cancel_code_upgrade":
      if (u.endCode <= 0n) fail(V1_THROW.invalidCall, "no code upgrade in progress");
      return upgrade(state, { endCode: 0n, pendingCode: emptyCell() });
    case "stonfi.v1.finalize_upgrades":
      return finalize(state, now);
    default:
      return null;
  }
}

export function routerAdminCall(
  state: V1RouterState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  body: Decoded,
): Result {
  switch (body.kind) {
    case "stonfi.v1.set_fees": {
      const pool = poolOf(state, ctx, body.jettonWallet0, body.jettonWallet1);
      const { queryId, lpFee, protocolFee, refFee, protocolFeeAddress } = body;
      const fees = { queryId, lpFee, protocolFee, refFee, protocolFeeAddress };
      return done(state, [
        toPool(pool, encodeStonfiV1SetFeesPool({ kind: "stonfi.v1.set_fees_pool", ...fees })),
      ]);
    }
    case "stonfi.v1.collect_fees": {
      const pool = poolOf(state, ctx, body.jettonWallet0, body.jettonWallet1);
      const collect = encodeBody({ kind: "stonfi.v1.collect_fees_pool", queryId: body.queryId });
      return done(state, [toPool(pool, collect)]);
    }
    case "stonfi.v1.reset_pool_gas": {
      const pool = poolOf(state, ctx, body.jettonWallet0, body.jettonWallet1);
      return done(state, [toPool(pool, encodeBody({ kind: "stonfi.v1.reset_gas", queryId: body.queryId }))]);
    }
    case "stonfi.v1.lock":
      return done({ ...state, isLocked: true });
    case "stonfi.v1.unlock":
      return done({ ...state, isLocked: false });
    case "stonfi.v1.reset_gas":
      return done(state, [drainMessage(state.admin ?? msg.source, ctx.balance, ROUTER_TON_RESERVE)]);
    default:
      return timelocks(state, body, BigInt(ctx.now)) ?? fail(V1_THROW.wrongOp);
  }
}
