/** Constant product x·y = k, v1 and v2 alike (contracts.md §2.9, §3.9.2). */
import { FEE_DIVIDER, floorDiv } from "../math.ts";
import { sqrtV1, sqrtV2 } from "../sqrt.ts";
import { type Direction, type PoolState, sides } from "../types.ts";
import type { Curve } from "./curve.ts";

/** `floor(a·r_out / (r_in·D + a))` with `a = amount_in·(D − L)` (floor). */
export function cpiBaseOut(pool: PoolState, direction: Direction, amountIn: bigint): bigint {
  const { reserveIn, reserveOut } = sides(pool, direction);
  const a = amountIn * (FEE_DIVIDER - pool.lpFeeBps);
  return floorDiv(a * reserveOut, reserveIn * FEE_DIVIDER + a);
}

export const constantProductV2: Curve = {
  baseOut: cpiBaseOut,
  invariant: (_pool, r0, r1) => sqrtV2(r0 * r1),
  initialSupply: (_pool, a0, a1) => ({ supply: sqrtV2(a0 * a1) }),
};

/** v1 mints floor(isqrt(a·b)/1000) on the first deposit, to the addr_none wallet (contracts.md §2.9). */
export const constantProductV1: Curve = {
  baseOut: cpiBaseOut,
  invariant: (_pool, r0, r1) => sqrtV1(r0 * r1),
  initialSupply: (_pool, a0, a1) => ({ supply: floorDiv(sqrtV1(a0 * a1), 1000n) }),
};
