/**
 * Spot price, swap rate and price impact — the numbers behind `/v1/swap/simulate`. All are exact ratios
 * of raw token units (no decimals adjustment; the API scales by the assets' decimals):
 *
 * - **spot price** (marginal price) of a direction: ask units received per offer unit for an
 *   infinitesimal trade, before any fee — the slope −dy/dx of the pool's curve at its reserves.
 * - **swap rate**: what a concrete swap pays, `amount_out / amount_in` (after all fees).
 * - **price impact**: the part of the output lost to the curve's slope alone, fees excluded:
 *   `1 − out_no_fee / (amount_in · spot)`, where `out_no_fee` is the curve's exact output for the same
 *   input with LP, protocol and referral fees all 0. It is 0 for a constant-sum pool and grows with size.
 */
import { CURVES } from "./curves/index.ts";
import { stableInvariant } from "./curves/stableswap.ts";
import { wstableSlopes } from "./curves/weighted-stableswap.ts";
import { emptyPool } from "./errors.ts";
import { E } from "./fixed-point.ts";
import { type Ratio, ratio } from "./ratio.ts";
import type { CurveState, Direction, PoolState } from "./types.ts";

/** −dy/dx in "ask per offer" orientation, from the offer side's and ask side's partial derivatives. */
function spotFromSlopes(direction: Direction, d0: bigint, d1: bigint): Ratio {
  // For an invariant F(x0, x1), trading token0 in gives dx1/dx0 = −(∂F/∂x0)/(∂F/∂x1).
  return direction === "0to1" ? ratio(d0, d1) : ratio(d1, d0);
}

/**
 * Per state object, what does not depend on the amount: the spot price of each direction and the state
 * with every fee at 0. States are never mutated (a swap makes a new one), so these never go stale; quoting
 * many amounts on one state computes them once.
 */
type PerState = { "0to1"?: Ratio; "1to0"?: Ratio; feeless?: PoolState };
const perState = new WeakMap<CurveState, PerState>();
function kept(pool: CurveState): PerState {
  let k = perState.get(pool);
  if (k === undefined) {
    k = {};
    perState.set(pool, k);
  }
  return k;
}

/** The same pool with its LP, protocol and referral fees at 0 (one object per state). */
export function feelessState(pool: PoolState): PoolState {
  const k = kept(pool);
  k.feeless ??= { ...pool, lpFeeBps: 0n, protocolFeeBps: 0n, refFeeBps: 0n };
  return k.feeless;
}

/** The curve's exact output for `amountIn` with every fee at 0. */
export function outputWithoutFees(pool: PoolState, direction: Direction, amountIn: bigint): bigint {
  return CURVES[pool.type].baseOut(feelessState(pool), direction, amountIn);
}

export function spotPrice(pool: CurveState, direction: Direction): Ratio {
  const k = kept(pool);
  const known = k[direction];
  if (known !== undefined) return known;
  const spot = computeSpot(pool, direction);
  k[direction] = spot;
  return spot;
}

function computeSpot(pool: CurveState, direction: Direction): Ratio {
  const { reserve0: x, reserve1: y } = pool;
  if (x === 0n || y === 0n) throw emptyPool();
  switch (pool.type) {
    case "v1_constant_product":
    case "v2_constant_product":
      return spotFromSlopes(direction, y, x);
    case "v2_constant_sum":
      return ratio(1n, 1n);
    case "v2_stableswap": {
      // F = A(x+y) + D − A·D − D³/(4xy): ∂F/∂x ∝ 4A·x²y² + D³·y, ∂F/∂y ∝ 4A·x²y² + D³·x.
      const d = stableInvariant(pool.amp, x, y);
      const common = 4n * pool.amp * x * x * y * y;
      const d3 = d * d * d;
      return spotFromSlopes(direction, common + d3 * y, common + d3 * x);
    }
    case "v2_weighted_const_product": {
      // Balancer spot price: (B_out/W_out)/(B_in/W_in); ∂F/∂x_i ∝ W_i/x_i.
      return spotFromSlopes(direction, pool.w0 * y, (E - pool.w0) * x);
    }
    case "v2_weighted_stableswap": {
      const { dx, dy } = wstableSlopes(pool);
      return spotFromSlopes(direction, dx, dy);
    }
  }
}

export function swapRate(amountIn: bigint, amountOut: bigint): Ratio {
  return ratio(amountOut, amountIn);
}

/**
 * Price impact of offering `amountIn` (fees excluded), as a ratio in [0, 1]; see the module comment.
 * `outNoFee`: `outputWithoutFees` of the same request when the caller has it already.
 */
export function priceImpact(
  pool: PoolState,
  direction: Direction,
  amountIn: bigint,
  outNoFee: bigint = outputWithoutFees(pool, direction, amountIn),
): Ratio {
  const spot = spotPrice(pool, direction);
  // ideal = amountIn·spot = amountIn·num/den; impact = (ideal − out)/ideal = (amountIn·num − out·den)/(amountIn·num)
  const ideal = amountIn * spot.num;
  const lost = ideal - outNoFee * spot.den;
  if (ideal === 0n) return ratio(0n, 1n);
  return ratio(lost < 0n ? 0n : lost, ideal);
}
