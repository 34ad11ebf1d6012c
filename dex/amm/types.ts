/** Pool state and the shapes every AMM operation returns. All amounts are raw token units (bigint). */

import { POOL_TYPES, type PoolType } from "../../schemas/pool-types.ts";

export { POOL_TYPES, type PoolType };

export function isPoolType(x: unknown): x is PoolType {
  return typeof x === "string" && (POOL_TYPES as readonly string[]).includes(x);
}

export const dexVersionOf = (type: PoolType): "v1" | "v2" => (type.startsWith("v1_") ? "v1" : "v2");

/**
 * What the pool contract stores that the math reads. token0/token1 are the pool's stored order
 * (contracts.md §1.2). Fees are basis points (FEE_DIVIDER = 10000).
 */
export type PoolState = {
  readonly type: PoolType;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly lpSupply: bigint;
  readonly lpFeeBps: bigint;
  readonly protocolFeeBps: bigint;
  /** v1 only: the pool's stored referral fee, charged when a swap names a referrer. v2 takes it per swap. */
  readonly refFeeBps: bigint;
  readonly collectedProtocolFee0: bigint;
  readonly collectedProtocolFee1: bigint;
  /** v2 only (v1 pools have no lock). */
  readonly isLocked: boolean;
  /** v2_stableswap: plain integer 1..2000. v2_weighted_stableswap: 18-decimal fixed point. Else 0. */
  readonly amp: bigint;
  /** v2_weighted_stableswap: 18-decimal price rate of token1 in token0 units. Else 0. */
  readonly rate: bigint;
  /** Weighted pools: token0 weight in 18-decimal fixed point (token1 weight = 1e18 − w0). Else 0. */
  readonly w0: bigint;
};

/**
 * What a curve's marginal price depends on: its type, reserves and curve parameters (no fee, supply or lock).
 * Pricing and TVL read only these (dex/pricing, the API's state history).
 */
export type CurveState = Pick<PoolState, "type" | "reserve0" | "reserve1" | "amp" | "rate" | "w0">;

/** `true` when token0 is offered (contracts.md: amount0 > 0, "side"). */
export type Direction = "0to1" | "1to0";

export function poolState(partial: Partial<PoolState> & Pick<PoolState, "type">): PoolState {
  return {
    reserve0: 0n,
    reserve1: 0n,
    lpSupply: 0n,
    lpFeeBps: 20n,
    protocolFeeBps: 10n,
    refFeeBps: 10n,
    collectedProtocolFee0: 0n,
    collectedProtocolFee1: 0n,
    isLocked: false,
    amp: 0n,
    rate: 0n,
    w0: 0n,
    ...partial,
  };
}

/** The reserves seen from one trade direction. */
export function sides(pool: PoolState, direction: Direction): { reserveIn: bigint; reserveOut: bigint } {
  return direction === "0to1"
    ? { reserveIn: pool.reserve0, reserveOut: pool.reserve1 }
    : { reserveIn: pool.reserve1, reserveOut: pool.reserve0 };
}
