/**
 * The weighted stableswap solver keeps the powers of Newton's first step per state object (the step
 * starts from the reserve being solved for, whatever the amount). Kept or computed, the output is the
 * same: every amount here is evaluated on the state object that has them kept and on a fresh copy that
 * computes them, in both directions, from 1 unit up to inputs the curve refuses, with the exit code of a
 * refusal compared too.
 */
import test from "ava";
import { CURVES } from "../../../../dex/amm/curves/index.ts";
import { E } from "../../../../dex/amm/fixed-point.ts";
import { type Direction, type PoolState, poolState } from "../../../../dex/amm/index.ts";
import { isTvmExit } from "../../../../dex/amm/math.ts";
import { devnetWeightedStableswap } from "../../../helpers/amm-pools.ts";

const { baseOut } = CURVES.v2_weighted_stableswap;

/** A devnet weighted stableswap pool (seed 1), and one with uneven weights and a rate far from 1. */
const pools: PoolState[] = [
  devnetWeightedStableswap,
  poolState({
    type: "v2_weighted_stableswap",
    reserve0: 5_000_000_000_000n,
    reserve1: 730_000_000n,
    lpSupply: 10n ** 15n,
    lpFeeBps: 30n,
    protocolFeeBps: 0n,
    refFeeBps: 0n,
    amp: 3n * E,
    rate: 6849n * E,
    w0: (7n * E) / 10n,
  }),
];

function outcome(pool: PoolState, direction: Direction, amountIn: bigint): bigint | string {
  try {
    return baseOut(pool, direction, amountIn);
  } catch (e) {
    if (isTvmExit(e)) return `exit ${e.exitCode}`;
    throw e;
  }
}

test("kept first step: the same output or exit as computing it, over amounts and directions", (t) => {
  let refusals = 0;
  for (const pool of pools) {
    for (const direction of ["0to1", "1to0"] as const) {
      const reserveIn = direction === "0to1" ? pool.reserve0 : pool.reserve1;
      const amounts = [1n, 2n, 999n, 10n ** 6n + 3n];
      for (let d = 1_000_000n; d >= 1n; d /= 10n) amounts.push(reserveIn / d + d);
      amounts.push(reserveIn * 10n, reserveIn * 10n ** 9n);
      for (const amountIn of amounts) {
        const computed = outcome({ ...pool }, direction, amountIn);
        const kept = outcome(pool, direction, amountIn);
        t.is(kept, computed, `${direction} ${amountIn}`);
        if (typeof kept === "string") refusals++;
      }
    }
  }
  t.log(`${refusals} refusals compared`);
});
