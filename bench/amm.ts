/**
 * AMM engine throughput: swap simulations per second per pool type on one core, next to a plain
 * bigint multiply/divide loop measured in the same run (the machine's baseline).
 * Targets: constant product ≥ 200k/s; stableswap and weighted ≥ 20k/s.
 */

import { E } from "../dex/amm/fixed-point.ts";
import { type PoolState, type PoolType, poolState, swap } from "../dex/amm/index.ts";
import { fmt, measure, type Rate } from "./harness.ts";

const R = 10n ** 21n;
const POOLS: Record<PoolType, PoolState> = {
  v1_constant_product: poolState({ type: "v1_constant_product", reserve0: R, reserve1: 3n * R, lpSupply: R }),
  v2_constant_product: poolState({ type: "v2_constant_product", reserve0: R, reserve1: 3n * R, lpSupply: R }),
  v2_stableswap: poolState({
    type: "v2_stableswap",
    reserve0: R,
    reserve1: (11n * R) / 10n,
    lpSupply: R,
    amp: 200n,
  }),
  v2_weighted_const_product: poolState({
    type: "v2_weighted_const_product",
    reserve0: R,
    reserve1: 3n * R,
    lpSupply: R,
    w0: (8n * E) / 10n,
  }),
  v2_weighted_stableswap: poolState({
    type: "v2_weighted_stableswap",
    reserve0: R,
    reserve1: (11n * R) / 10n,
    lpSupply: R,
    amp: 100n * E,
    rate: (R * E) / ((11n * R) / 10n),
    w0: E / 2n,
  }),
  v2_constant_sum: poolState({ type: "v2_constant_sum", reserve0: R, reserve1: R, lpSupply: R }),
};
const TARGET: Record<PoolType, number> = {
  v1_constant_product: 200_000,
  v2_constant_product: 200_000,
  v2_constant_sum: 200_000,
  v2_stableswap: 20_000,
  v2_weighted_const_product: 20_000,
  v2_weighted_stableswap: 20_000,
};

/** Amounts vary per call so nothing is cached: 0.001 %..1 % of the reserve. */
const amountAt = (i: number) => (R / 100_000n) * BigInt(1 + (i % 1000));

export type AmmBench = { baseline: Rate; pools: (Rate & { target: number })[] };

export function runAmmBench(seconds = 1): AmmBench {
  const baseline = measure(
    "bigint mul/div loop",
    (i) => (amountAt(i) * 9980n * (3n * R)) / (R * 10000n + amountAt(i) * 9980n),
    seconds,
  );
  const pools = (Object.keys(POOLS) as PoolType[]).map((type) => ({
    ...measure(
      type,
      (i) =>
        swap(POOLS[type], {
          direction: i % 2 === 0 ? "0to1" : "1to0",
          amountIn: amountAt(i),
          hasReferral: true,
          refFeeBps: 10n,
        }),
      seconds,
    ),
    target: TARGET[type],
  }));
  return { baseline, pools };
}

export function printAmmBench(r: AmmBench): void {
  console.log("AMM swap simulations per second (one core)");
  console.log(`  ${"baseline: bigint mul/div".padEnd(30)} ${fmt(r.baseline.opsPerSecond).padStart(12)}/s`);
  for (const p of r.pools) {
    const ratio = p.opsPerSecond / r.baseline.opsPerSecond;
    const verdict = p.opsPerSecond >= p.target ? "meets" : "BELOW";
    console.log(
      `  ${p.name.padEnd(30)} ${fmt(p.opsPerSecond).padStart(12)}/s  ratio ${ratio.toFixed(4)}  target ${fmt(p.target)}/s ${verdict}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printAmmBench(runAmmBench());
