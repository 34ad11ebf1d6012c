/**
 * Two-token stableswap (contracts.md §3.9.4). `A` is the pool's uint32 `amp`, used directly.
 * Every instruction's result is range-checked as TVM does (`tvm`), in the pool's order of operations;
 * `muldiv` checks only its quotient (513-bit intermediate). So a large invariant over a small left
 * (token0) balance overflows ⌊d²/2x⌋·d and the pool refunds with exit 4 (contracts.md §11.1), while a
 * small right balance does not overflow the invariant; `t·t` in the output solver overflows when the
 * out-token balance is near 2^120 and the other tiny. Division by zero is exit 4 too.
 */
import { abs, ceilDiv, floorDiv, TvmExit, tvm } from "../math.ts";
import type { Direction, PoolState } from "../types.ts";
import type { Curve } from "./curve.ts";
import { lpFeeAdjusted } from "./fees.ts";

const MAX_ITERATIONS = 255;
export const NOT_CONVERGE = 5103;

const mul = (a: bigint, b: bigint) => tvm(a * b);
const add = (a: bigint, b: bigint) => tvm(a + b);
const fdiv = (a: bigint, b: bigint) => tvm(floorDiv(a, b));
const cdiv = (a: bigint, b: bigint) => tvm(ceilDiv(a, b));

/** The invariant D of balances x, y: Newton iteration, floor divisions. */
export function stableInvariant(amp: bigint, x: bigint, y: bigint): bigint {
  const s = add(x, y);
  if (s === 0n) return 0n;
  let d = s;
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    // dp = floor(floor(d·d/(2x))·d/(2y))
    const dp = fdiv(mul(fdiv(mul(d, d), mul(2n, x)), d), mul(2n, y));
    const prev = d;
    // d = muldiv(A·s + 2·dp, d, (A − 1)·d + 3·dp): both terms are range-checked, their product with d
    // is not (muldiv keeps a 513-bit intermediate), so a small right balance, which makes dp large,
    // does not overflow here.
    const first = add(mul(amp, s), mul(2n, dp));
    const second = add(mul(amp - 1n, d), mul(3n, dp));
    d = tvm(floorDiv(first * d, second));
    if (abs(d - prev) <= 1n) return d;
  }
  throw new TvmExit(NOT_CONVERGE, "stableswap invariant did not converge");
}

/** New balance of the out token for invariant `inv`, given the new in-token balance `sum`. */
function outBalance(amp: bigint, inv: bigint, x: bigint, y: bigint, sum: bigint, o: bigint): bigint {
  // pd = muldiv(2·x'·y', 2, D): floor, only the result is range-checked.
  const pd = tvm(floorDiv(mul(mul(2n, x), y) * 2n, inv));
  const invSq = mul(inv, inv);
  // c = ceil(D²/(A·pd))·o ; b = sum + floor(D/A)
  const c = mul(cdiv(invSq, mul(amp, pd)), o);
  const b = add(sum, fdiv(inv, amp));
  let t = cdiv(add(invSq, c), add(inv, b));
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    const prev = t;
    // t = ceil((t² + c)/(2t + b − D))
    t = cdiv(add(mul(t, t), c), add(mul(2n, t), b) - inv);
    if (abs(t - prev) <= 1n) return t;
  }
  throw new TvmExit(NOT_CONVERGE, "stableswap output did not converge");
}

/**
 * The invariant of a pool's reserves, kept per state object (states are never mutated: a swap makes a new
 * one), so quoting many amounts on one state solves it once. A state that does not converge is not kept.
 */
const invariants = new WeakMap<PoolState, bigint>();
function invariantOf(pool: PoolState): bigint {
  let d = invariants.get(pool);
  if (d === undefined) {
    d = stableInvariant(pool.amp, pool.reserve0, pool.reserve1);
    invariants.set(pool, d);
  }
  return d;
}

function baseOut(pool: PoolState, direction: Direction, amountIn: bigint): bigint {
  const bIn = lpFeeAdjusted(pool, amountIn);
  const { reserve0: x, reserve1: y, amp } = pool;
  const inv = invariantOf(pool);
  const zeroIn = direction === "0to1";
  const x1 = zeroIn ? add(x, bIn) : x;
  const y1 = zeroIn ? y : add(y, bIn);
  const o = zeroIn ? y : x;
  const t = outBalance(amp, inv, x1, y1, zeroIn ? x1 : y1, o);
  return o - t - 1n;
}

export const stableswap: Curve = {
  baseOut,
  invariant: (pool, r0, r1) => stableInvariant(pool.amp, r0, r1),
  initialSupply: (pool, a0, a1) => ({ supply: stableInvariant(pool.amp, a0, a1) }),
};
