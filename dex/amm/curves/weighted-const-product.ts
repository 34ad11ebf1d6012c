/**
 * Weighted constant product (Balancer `calcOutGivenIn`, contracts.md §3.9.6). Weights are 18-decimal
 * fixed point; token1's weight is 1e18 − w0. Every fixed-point step floors as FunC does.
 */

import { complement, div, divUp, E, mul, powUp } from "../fixed-point.ts";
import { floorDiv, TvmExit } from "../math.ts";
import type { Direction, PoolState } from "../types.ts";
import type { Curve } from "./curve.ts";
import { lpFeeAdjusted } from "./fees.ts";

/** A swap may take at most 30 % of the input reserve (exit 97, `max_in_ratio`). */
export const MAX_IN_RATIO = 97;
const MAX_IN_RATIO_FP = (3n * E) / 10n;

const toUnits = (x: bigint) => floorDiv(x, E);

/** The output before `toUnits`: ask balance · (1 − power), 18-decimal fixed point. */
function fineOut(pool: PoolState, direction: Direction, amountIn: bigint): bigint {
  const bIn = lpFeeAdjusted(pool, amountIn);
  const zeroIn = direction === "0to1";
  const wIn = zeroIn ? pool.w0 : E - pool.w0;
  const bi = (zeroIn ? pool.reserve0 : pool.reserve1) * E;
  const bo = (zeroIn ? pool.reserve1 : pool.reserve0) * E;
  const ai = bIn * E;
  if (ai > mul(bi, MAX_IN_RATIO_FP)) throw new TvmExit(MAX_IN_RATIO, "input above 30% of the reserve");
  const base = divUp(bi, bi + ai);
  const exponent = div(wIn, E - wIn);
  const power = powUp(base, exponent);
  return mul(bo, complement(power));
}

function baseOut(pool: PoolState, direction: Direction, amountIn: bigint): bigint {
  return toUnits(fineOut(pool, direction, amountIn));
}

/** V(x, y) = x^w0 · y^(1−w0) in fixed point (upper-rounded powers), as deposits compare it. */
function invariant(pool: PoolState, r0: bigint, r1: bigint): bigint {
  return mul(powUp(r0 * E, pool.w0), powUp(r1 * E, E - pool.w0));
}

export const weightedConstProduct: Curve = {
  baseOut,
  fine: { out: fineOut, unit: E },
  invariant,
  initialSupply: (pool, a0, a1) => ({ supply: toUnits(invariant(pool, a0, a1)) }),
};
