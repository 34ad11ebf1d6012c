/**
 * Router governance used by the devnet (shared/reference/contracts.md §3.8): `set_fees` → pool
 * `internal_set_fees`, `set_params` (non-CPI routers) → pool `internal_set_params`, `update_status`
 * (router lock) and `update_pool_status` → pool `internal_update_status`. Every router → pool message
 * carries the pool StateInit, so an admin can configure a pool before its first deposit. Also the body
 * builders an admin wallet (or the market simulator) sends.
 */
import type { Address, Cell } from "@ton/core";
import {
  decodeStonfiV2SetFees,
  decodeStonfiV2SetParams,
  decodeStonfiV2UpdatePoolStatus,
  type PoolParams,
  STONFI_V2_OP,
} from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import {
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
} from "../../chain/types.ts";
import {
  encodeStonfiV2InternalSetFees,
  encodeStonfiV2InternalSetParams,
  encodeStonfiV2InternalUpdateStatus,
  encodeStonfiV2SetFees,
  encodeStonfiV2SetParams,
  encodeStonfiV2UpdatePoolStatus,
} from "../encode.ts";
import { FP_ONE, MAX_FEE_BPS, STABLE_MAX_AMP, V2_ERROR, WSTABLE_MAX_AMP } from "./constants.ts";
import { carry, parseOr9 } from "./messages.ts";
import { type V2RouterState, v2PoolInit } from "./storage.ts";

type Result = HandlerResult<V2RouterState>;

function toPool(
  state: V2RouterState,
  ctx: ExecutionContext,
  w0: Address | null,
  w1: Address | null,
  body: Cell,
) {
  if (w0 === null || w1 === null) throw new ContractThrow(V2_ERROR.cell_underflow);
  if (w0.equals(w1)) throw new ContractThrow(V2_ERROR.wrong_address);
  const init = v2PoolInit(ctx.address, w0, w1, state.type);
  return carry(contractAddressOf(init), body, { init });
}

function setFees(state: V2RouterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const b = parseOr9(() => decodeStonfiV2SetFees(readCell(msg.body)));
  if (b.lpFee > MAX_FEE_BPS || b.protocolFee > MAX_FEE_BPS) throw new ContractThrow(V2_ERROR.fee_out_range);
  const body = encodeStonfiV2InternalSetFees({
    kind: "stonfi.v2.internal_set_fees",
    queryId: b.queryId,
    lpFee: b.lpFee,
    protocolFee: b.protocolFee,
    protocolFeeAddress: b.protocolFeeAddress,
    excessesAddress: b.excessesAddress,
  });
  return { exitCode: 0, state, outMessages: [toPool(state, ctx, b.jettonWallet0, b.jettonWallet1, body)] };
}

/** Range checks of §3.8; the devnet throws 92 (invalid_amount) for a value out of range, 86 for a bad side. */
function checkParams(p: PoolParams, w0: Address, w1: Address): void {
  if (p.poolType === "stableswap") {
    if (p.amp < 1 || BigInt(p.amp) > STABLE_MAX_AMP) throw new ContractThrow(V2_ERROR.invalid_amount);
    return;
  }
  if (p.w <= 0n || p.w >= FP_ONE) throw new ContractThrow(V2_ERROR.invalid_amount);
  if (p.poolType === "weighted_stableswap" && p.amp > WSTABLE_MAX_AMP) {
    throw new ContractThrow(V2_ERROR.invalid_amount);
  }
  const side = p.sideWallet;
  if (side === null || !(side.equals(w0) || side.equals(w1))) {
    throw new ContractThrow(V2_ERROR.wrong_address);
  }
}

function setParams(state: V2RouterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  // constant_product routers have no set_params; the others parse only their own layout
  if (state.type === "constant_product") throw new ContractThrow(V2_ERROR.wrong_op);
  const b = parseOr9(() => decodeStonfiV2SetParams(readCell(msg.body)));
  if (b.params.poolType !== state.type) throw new ContractThrow(V2_ERROR.cell_underflow);
  if (b.jettonWallet0 === null || b.jettonWallet1 === null) throw new ContractThrow(V2_ERROR.cell_underflow);
  checkParams(b.params, b.jettonWallet0, b.jettonWallet1);
  const body = encodeStonfiV2InternalSetParams({
    kind: "stonfi.v2.internal_set_params",
    queryId: b.queryId,
    excessesAddress: b.excessesAddress,
    params: b.params,
  });
  return { exitCode: 0, state, outMessages: [toPool(state, ctx, b.jettonWallet0, b.jettonWallet1, body)] };
}

function updatePoolStatus(state: V2RouterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const b = parseOr9(() => decodeStonfiV2UpdatePoolStatus(readCell(msg.body)));
  const body = encodeStonfiV2InternalUpdateStatus({
    kind: "stonfi.v2.internal_update_status",
    queryId: b.queryId,
    excessesAddress: b.excessesAddress,
  });
  return { exitCode: 0, state, outMessages: [toPool(state, ctx, b.jettonWallet0, b.jettonWallet1, body)] };
}

/** Admin ops by op code; undefined for an op that is not an admin op. */
export function adminOp(
  op: number,
): ((s: V2RouterState, m: InboundInternal, c: ExecutionContext) => Result) | undefined {
  const ops: Record<number, (s: V2RouterState, m: InboundInternal, c: ExecutionContext) => Result> = {
    [STONFI_V2_OP.set_fees]: setFees,
    [STONFI_V2_OP.set_params]: setParams,
    [STONFI_V2_OP.update_pool_status]: updatePoolStatus,
    [STONFI_V2_OP.update_status]: (s) => ({
      exitCode: 0,
      state: { ...s, isLocked: !s.isLocked },
      outMessages: [],
    }),
  };
  return ops[op];
}

export type PoolRef = { queryId: bigint; wallet0: Address; wallet1: Address; excesses: Address | null };

/** Admin → router `set_fees` body: lp and protocol fee in bps (0..100) and the protocol-fee address. */
export function v2SetFeesBody(
  f: PoolRef & { lpFee: number; protocolFee: number; protocolFeeAddress: Address | null },
): Cell {
  return encodeStonfiV2SetFees({
    kind: "stonfi.v2.set_fees",
    queryId: f.queryId,
    lpFee: f.lpFee,
    protocolFee: f.protocolFee,
    protocolFeeAddress: f.protocolFeeAddress,
    jettonWallet0: f.wallet0,
    jettonWallet1: f.wallet1,
    excessesAddress: f.excesses,
  });
}

/** Admin → router `set_params` body (stableswap amp; WCPI weight; WStable amp, rate, weight, setter). */
export function v2SetParamsBody(f: PoolRef & { params: PoolParams }): Cell {
  return encodeStonfiV2SetParams({
    kind: "stonfi.v2.set_params",
    queryId: f.queryId,
    params: f.params,
    jettonWallet0: f.wallet0,
    jettonWallet1: f.wallet1,
    excessesAddress: f.excesses,
  });
}

/** Admin → router `update_pool_status` body: toggles the pool's lock. */
export function v2UpdatePoolStatusBody(f: PoolRef): Cell {
  return encodeStonfiV2UpdatePoolStatus({
    kind: "stonfi.v2.update_pool_status",
    queryId: f.queryId,
    jettonWallet0: f.wallet0,
    jettonWallet1: f.wallet1,
    excessesAddress: f.excesses,
  });
}
