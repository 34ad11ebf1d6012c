/**
 * A v2 pool's governance messages (shared/reference/contracts.md §3.8): `internal_set_fees`,
 * `internal_set_params` and `internal_update_status` from its router, `set_rate` from the weighted
 * stableswap rate setter. Each sends the remaining value to the excesses address, as the pool does.
 */
import type { Address } from "@ton/core";
import {
  decodeStonfiV2InternalSetFees,
  decodeStonfiV2InternalSetParams,
  decodeStonfiV2InternalUpdateStatus,
  decodeStonfiV2SetRate,
  type PoolParams,
} from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { ContractThrow, type HandlerResult, type InboundInternal } from "../../chain/types.ts";
import { FP_ONE, V2_ERROR } from "./constants.ts";
import { excesses, parseOr9 } from "./messages.ts";
import { requireSender } from "./pool-amm.ts";
import type { V2PoolState } from "./storage.ts";

type Result = HandlerResult<V2PoolState>;

function done(state: V2PoolState, to: Address | null, queryId: bigint): Result {
  return { exitCode: 0, state, outMessages: to === null ? [] : [excesses(to, queryId)] };
}

export function poolSetFees(state: V2PoolState, msg: InboundInternal): Result {
  requireSender(msg, state.router);
  const b = parseOr9(() => decodeStonfiV2InternalSetFees(readCell(msg.body)));
  const next = {
    ...state,
    lpFee: b.lpFee,
    protocolFee: b.protocolFee,
    protocolFeeAddress: b.protocolFeeAddress,
  };
  return done(next, b.excessesAddress, b.queryId);
}

/** The weight is set once: `w` for the side wallet, token0 gets `1e18 − w` when the side is token1. */
function firstWeight(state: V2PoolState, w: bigint, side: Address | null): bigint {
  if (state.w0 !== 0n) return state.w0;
  return side?.equals(state.token0) ? w : FP_ONE - w;
}

function applyParams(state: V2PoolState, p: PoolParams): V2PoolState {
  if (p.poolType !== state.type) throw new ContractThrow(V2_ERROR.cell_underflow);
  if (p.poolType === "stableswap") return { ...state, amp: BigInt(p.amp) };
  if (p.poolType === "weighted_const_product") return { ...state, w0: firstWeight(state, p.w, p.sideWallet) };
  return {
    ...state,
    amp: p.amp,
    rate: p.rate !== 0n ? p.rate : state.rate,
    rateSetter: p.rateSetter,
    w0: firstWeight(state, p.w, p.sideWallet),
  };
}

export function poolSetParams(state: V2PoolState, msg: InboundInternal): Result {
  requireSender(msg, state.router);
  const b = parseOr9(() => decodeStonfiV2InternalSetParams(readCell(msg.body)));
  return done(applyParams(state, b.params), b.excessesAddress, b.queryId);
}

export function poolUpdateStatus(state: V2PoolState, msg: InboundInternal): Result {
  requireSender(msg, state.router);
  const b = parseOr9(() => decodeStonfiV2InternalUpdateStatus(readCell(msg.body)));
  return done({ ...state, isLocked: !state.isLocked }, b.excessesAddress, b.queryId);
}

export function poolSetRate(state: V2PoolState, msg: InboundInternal): Result {
  if (state.type !== "weighted_stableswap") throw new ContractThrow(V2_ERROR.wrong_op);
  if (state.rateSetter === null || !msg.source.equals(state.rateSetter)) {
    throw new ContractThrow(V2_ERROR.invalid_caller);
  }
  const b = parseOr9(() => decodeStonfiV2SetRate(readCell(msg.body)));
  if (b.newRate <= 0n) throw new ContractThrow(V2_ERROR.invalid_amount);
  return done({ ...state, rate: b.newRate }, msg.source, b.queryId);
}
