/**
 * The exact-out search on curves without a closed form, where it is hardest: a weighted pool whose
 * prices are so far apart that one unit of output takes ~2·10^11 units of input (long flat steps of the
 * output), and many targets quoted on one state object (the search keeps the curve at the largest input
 * per state). Checked against the definition, independently of the search: the forward swap of the
 * answer pays the target, the swap of one unit less does not; and a fresh copy of the state (nothing
 * kept) gives the same answer.
 */
import test from "ava";
import { CURVES } from "../../../../dex/amm/curves/index.ts";
import {
  minimalInput,
  type PoolState,
  poolState,
  reverseSwap,
  type SwapRequest,
  swap,
} from "../../../../dex/amm/index.ts";
import { floorDiv } from "../../../../dex/amm/math.ts";
import { devnetWeightedStableswap } from "../../../helpers/amm-pools.ts";
import { int, prng } from "../../../helpers/prng.ts";

/** A devnet weighted constant-product pool (seed 1): 4.2·10^19 units of token0 against 2.1·10^8 of token1. */
const farApart = poolState({
  type: "v2_weighted_const_product",
  reserve0: 42040861075126546974n,
  reserve1: 211928693n,
  lpSupply: 94388149585626n,
  lpFeeBps: 20n,
  protocolFeeBps: 10n,
  refFeeBps: 0n,
  w0: 500000000000000000n,
});

/** A devnet weighted stableswap pool (seed 1). */
const wstable = devnetWeightedStableswap;

function checkTargets(t: import("ava").ExecutionContext, pool: PoolState, targets: bigint[]) {
  for (const direction of ["0to1", "1to0"] as const) {
    const req = { direction, hasReferral: true, refFeeBps: 30n } as const;
    const fwd = (amountIn: bigint) => swap(pool, { ...req, amountIn } satisfies SwapRequest);
    for (const targetOut of targets) {
      const found = minimalInput(pool, { ...req, targetOut });
      const at = fwd(found.amountIn);
      t.is(at.status, "ok");
      t.true(at.amountOut >= targetOut, `${direction} ${targetOut}: the answer pays the target`);
      t.true(fwd(found.amountIn - 1n).amountOut < targetOut, `${direction} ${targetOut}: one less does not`);
      t.deepEqual(found.swap, at);
      const fresh = minimalInput({ ...pool }, { ...req, targetOut });
      t.is(fresh.amountIn, found.amountIn);
      t.is(reverseSwap(pool, { ...req, targetOut }).amountIn, found.amountIn);
    }
  }
}

test("weighted constant product with prices far apart: minimal inputs across long output steps", (t) => {
  // 0to1 pays ~1 unit of token1 per 2·10^11 of token0; 1to0 the other way round.
  checkTargets(t, farApart, [1n, 2n, 7n, 2120n, 2121n, 100_000n, 2_119_287n]);
});

test("weighted stableswap: minimal inputs for many targets on one state", (t) => {
  checkTargets(t, wstable, [1n, 999n, 1_000_000n, 886_380_841n, 886_380_842n, 10n ** 12n]);
});

/** A stableswap pool with the devnet's shape (amp 100, reserves ~10^13). */
const stable = poolState({
  type: "v2_stableswap",
  reserve0: 9_700_000_000_000n,
  reserve1: 10_300_000_000_000n,
  lpSupply: 20_000_000_000_000n,
  lpFeeBps: 20n,
  protocolFeeBps: 10n,
  refFeeBps: 0n,
  amp: 100n,
});

test("seeded targets from 1 unit to a tenth of the smaller reserve: every answer minimal", (t) => {
  // The search steps from the spot price's guess by secants, then by growing steps; whichever way it
  // brackets the answer, the answer is the definition's (checkTargets).
  const r = prng(19);
  for (const pool of [wstable, farApart, stable]) {
    const most = (pool.reserve0 < pool.reserve1 ? pool.reserve0 : pool.reserve1) / 10n;
    const targets = [most];
    for (let i = 0; i < 40; i++) {
      const scaled = most / 10n ** BigInt(int(r, most.toString().length)) + 1n;
      targets.push(BigInt(Math.floor(r() * Number(scaled))) + 1n);
    }
    checkTargets(t, pool, targets);
  }
});

test("a curve's finer value floors to its output, and throws where it does", (t) => {
  for (const [type, curve] of Object.entries(CURVES)) {
    if (curve.fine === undefined) continue;
    const pool =
      type === farApart.type ? farApart : poolState({ ...farApart, type: type as PoolState["type"] });
    for (const direction of ["0to1", "1to0"] as const) {
      for (let k = 0n; k < 200n; k++) {
        const amountIn = ((k * k * k * 7919n) % (pool.reserve0 + pool.reserve1)) + 1n;
        const run = (f: () => bigint) => {
          try {
            return f();
          } catch (e) {
            return (e as { exitCode?: number }).exitCode ?? -1;
          }
        };
        const out = run(() => curve.baseOut(pool, direction, amountIn));
        const fine = run(() => floorDiv(curve.fine!.out(pool, direction, amountIn), curve.fine!.unit));
        t.is(fine, out, `${type} ${direction} ${amountIn}`);
      }
    }
  }
});
