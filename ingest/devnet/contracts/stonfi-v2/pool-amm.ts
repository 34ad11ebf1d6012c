/**
 * The bridge between a devnet v2 pool's storage (shared/reference/contracts.md §3.2) and the exact AMM
 * engine (dex/amm, §3.9): the pool never computes a swap, a mint or a burn itself.
 */
import type { Address } from "@ton/core";
import { type PoolState, poolState } from "../../../../dex/amm/index.ts";
import { ContractThrow, type InboundInternal } from "../../chain/types.ts";
import { V2_ERROR } from "./constants.ts";
import type { V2PoolState } from "./storage.ts";

export function ammPool(p: V2PoolState): PoolState {
  return poolState({
    type: `v2_${p.type}`,
    reserve0: p.reserve0,
    reserve1: p.reserve1,
    lpSupply: p.totalSupplyLp,
    lpFeeBps: BigInt(p.lpFee),
    protocolFeeBps: BigInt(p.protocolFee),
    // v2 takes the referral fee per swap, not from the pool
    refFeeBps: 0n,
    collectedProtocolFee0: p.collected0,
    collectedProtocolFee1: p.collected1,
    isLocked: p.isLocked,
    amp: p.amp,
    rate: p.rate,
    w0: p.w0,
  });
}

/** The pool storage after the engine's result (reserves, supply, collected fees, WStable's first rate). */
export function withAmm(p: V2PoolState, a: PoolState): V2PoolState {
  return {
    ...p,
    reserve0: a.reserve0,
    reserve1: a.reserve1,
    totalSupplyLp: a.lpSupply,
    collected0: a.collectedProtocolFee0,
    collected1: a.collectedProtocolFee1,
    rate: a.rate,
  };
}

/** Every v2 contract checks who sent a message it acts on (82 otherwise, §3.1). */
export function requireSender(msg: InboundInternal, expected: Address): void {
  if (!msg.source.equals(expected)) throw new ContractThrow(V2_ERROR.invalid_caller);
}
