/**
 * Weighted stableswap (contracts.md §3.9.7): invariant K = a·(x + r·y) + x^p·(r·y)^q with p = w0,
 * q = 1 − w0, solved for the output balance by Newton's method. All parameters are 18-decimal fixed
 * point; balances are scaled by 1e18 inside K. Newton deltas can be negative: floor, never truncate.
 */

import { div, E, mul, powDown } from "../fixed-point.ts";
import { abs, floorDiv, TvmExit } from "../math.ts";
import type { CurveState, Direction, PoolState } from "../types.ts";
import type { Curve } from "./curve.ts";
import { lpFeeAdjusted } from "./fees.ts";

const MAX_ITERATIONS = 255;
const NOT_CONVERGE = 5103;
const DF_ZERO = 5104;
/** Convergence threshold on |δK| (1e−3 of an 18-decimal-scaled quantity, in 1e18 units). */
const EPSILON = 10n ** 24n;

type Params = { a: bigint; r: bigint; p: bigint; q: bigint };

const paramsOf = (pool: CurveState, rate = pool.rate): Params => ({
  a: pool.amp,
  r: rate,
  p: pool.w0,
  q: E - pool.w0,
});

export function wstableK({ a, r, p, q }: Params, x: bigint, y: bigint): bigint {
  const X = x * E;
  const Y = y * E;
  const rY = mul(r, Y);
  return mul(X + rY, a) + mul(powDown(X, p), powDown(rY, q));
}

function dKdy({ a, r, p, q }: Params, x: bigint, y: bigint): bigint {
  return mul(a, r) + mul(mul(mul(q, powDown(y * E, q - E)), powDown(r, q)), powDown(x * E, p));
}

function dKdx({ a, r, p, q }: Params, x: bigint, y: bigint): bigint {
  return a + mul(mul(mul(p, powDown(x * E, p - E)), powDown(r, q)), powDown(y * E, q));
}

/** Newton on one balance: `move(v)` gives (K − k, dK) at candidate v; returns the solved balance. */
function newton(start: bigint, step: (v: bigint) => { delta: bigint; slope: bigint }): bigint {
  let v = start;
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    const { delta, slope } = step(v);
    if (slope === 0n) throw new TvmExit(DF_ZERO, "weighted stableswap derivative is zero");
    // v −= floor(floor(δ·E/g)/E): the update is applied before the convergence test of its δ.
    v -= floorDiv(floorDiv(delta * E, slope), E);
    if (abs(delta) <= EPSILON) return v;
  }
  throw new TvmExit(NOT_CONVERGE, "weighted stableswap solver did not converge");
}

/** The two powers of the solved balance v in a step: the one in K, and the one lower (by 1) in its slope. */
type FirstStep = { vq: bigint; vq1: bigint };
type PoolConstants = { k: bigint; rq: bigint; from0?: FirstStep; from1?: FirstStep };
/**
 * What depends on the pool state only, kept per state object (states are immutable): K at the reserves,
 * r^q, and the powers of Newton's first step in each direction. Newton starts every solve from the
 * reserve being solved for, so its first step raises the same two values for every amount: computed on
 * first use, at the point of the solve where they are first needed (an exception one of them raises comes
 * out there, and is not kept: the next solve raises it again), and bit-identical afterwards, being the
 * same pure function of the same inputs. A small trade's solve takes two steps: 3 powers instead of 5.
 */
const perPool = new WeakMap<PoolState, PoolConstants>();

function poolConstants(pool: PoolState, prm: Params): PoolConstants {
  let c = perPool.get(pool);
  if (c === undefined) {
    c = { k: wstableK(prm, pool.reserve0, pool.reserve1), rq: powDown(prm.r, prm.q) };
    perPool.set(pool, c);
  }
  return c;
}

/**
 * The Newton loops evaluate K and its slope at (fixed side, candidate). The powers of the fixed side and
 * of the rate do not change between iterations, so they are computed once — same inputs, same floors,
 * so the result is bit-identical to evaluating K and dK from scratch, with 2 powers per step instead of 5
 * (none in a first step whose powers are kept, `PoolConstants`).
 */
function solveOut0to1(prm: Params, x: bigint, y: bigint, bIn: bigint, c: PoolConstants): bigint {
  const { a, r, p, q } = prm;
  const { k, rq } = c;
  const X = (x + bIn) * E;
  const xp = powDown(X, p);
  const ar = mul(a, r);
  const ySolved = newton(y, (v) => {
    const Y = v * E;
    const rY = mul(r, Y);
    // (rY)^q and Y^(q−1) at v = y, the start, are the state's: the kept first step.
    let first = v === y ? c.from0 : undefined;
    if (first === undefined) {
      first = { vq: powDown(rY, q), vq1: powDown(Y, q - E) };
      if (v === y) c.from0 = first;
    }
    const delta = mul(X + rY, a) + mul(xp, first.vq) - k;
    return { delta, slope: ar + mul(mul(mul(q, first.vq1), rq), xp) };
  });
  return y - ySolved;
}

function solveOut1to0(prm: Params, x: bigint, y: bigint, bIn: bigint, c: PoolConstants): bigint {
  const { a, r, p, q } = prm;
  const { k, rq } = c;
  const Y = (y + bIn) * E;
  const rY = mul(r, Y);
  const ryq = powDown(rY, q);
  const yq = powDown(Y, q);
  const xSolved = newton(x, (v) => {
    const X = v * E;
    // X^p and X^(p−1) at v = x, the start, are the state's: the kept first step.
    let first = v === x ? c.from1 : undefined;
    if (first === undefined) {
      // X^p then X^(p−1): the same base twice in a row, so pow reuses ln(X).
      first = { vq: powDown(X, p), vq1: powDown(X, p - E) };
      if (v === x) c.from1 = first;
    }
    const delta = mul(X + rY, a) + mul(first.vq, ryq) - k;
    return { delta, slope: a + mul(mul(mul(p, first.vq1), rq), yq) };
  });
  return x - xSolved;
}

function baseOut(pool: PoolState, direction: Direction, amountIn: bigint): bigint {
  const bIn = lpFeeAdjusted(pool, amountIn);
  const prm = paramsOf(pool);
  const c = poolConstants(pool, prm);
  return direction === "0to1"
    ? solveOut0to1(prm, pool.reserve0, pool.reserve1, bIn, c)
    : solveOut1to0(prm, pool.reserve0, pool.reserve1, bIn, c);
}

/** ∂K/∂x and ∂K/∂y at the pool's reserves (18-decimal fixed point), for its spot price. */
export function wstableSlopes(pool: CurveState): { dx: bigint; dy: bigint } {
  const prm = paramsOf(pool);
  return { dx: dKdx(prm, pool.reserve0, pool.reserve1), dy: dKdy(prm, pool.reserve0, pool.reserve1) };
}

export const weightedStableswap: Curve = {
  baseOut,
  invariant: (pool, r0, r1) => wstableK(paramsOf(pool), r0, r1),
  initialSupply: (pool, a0, a1) => {
    // The first deposit fixes the rate at a0/a1 (18 decimals, floor) before computing K.
    const rate = div(a0 * E, a1 * E);
    return { supply: floorDiv(wstableK(paramsOf(pool, rate), a0, a1), E), rate };
  },
};
