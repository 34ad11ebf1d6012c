/**
 * A quote's JSON text (`SwapAnswer.json`, what the quote lane sends) is the text of its object
 * (`SwapAnswer.dto`, what the Koa route sends): `JSON.stringify(dto())`, byte for byte — for drawn amounts
 * and slippages on every fixture pool (every pool type) in both directions, both modes, with and without a
 * referrer (which changes the gas parameters) and a referral fee, and with the pool named or chosen.
 */
import test from "ava";
import fc from "fast-check";
import { isHttpError } from "../../../api/errors.ts";
import { bestSwapAnswer, type Mode } from "../../../api/queries/swap-simulations.ts";
import type { SwapSimulateQuery } from "../../../schemas/api/simulate.ts";
import { POOLS, WALLET } from "./fixtures.ts";
import { testDeps } from "./harness.ts";

const SEED = 19;

const request = fc.record({
  pool: fc.constantFrom(...POOLS),
  zeroToOne: fc.boolean(),
  mode: fc.constantFrom<Mode>("swap", "reverse"),
  /** Parts per 10^9 of the offered (or wanted) side's reserve. */
  ppb: fc.oneof(fc.bigInt(1n, 1_000n), fc.bigInt(1n, 50_000_000n)),
  slippage: fc.bigInt(0n, 10n ** 6n),
  referral: fc.boolean(),
  referralFeeBps: fc.option(fc.bigInt(0n, 100n), { nil: undefined }),
  named: fc.boolean(),
});

test("a quote's JSON text is its object's, byte for byte", async (t) => {
  const deps = testDeps();
  let answered = 0;
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const { pool, zeroToOne } = r;
      const [offer, ask] = zeroToOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
      const state = pool.state;
      if (state === null || offer === null || ask === null) return true;
      const side = zeroToOne === (r.mode === "swap") ? state.reserve0 : state.reserve1;
      const q: SwapSimulateQuery = {
        offer_address: offer,
        ask_address: ask,
        units: (side * r.ppb) / 1_000_000_000n + 1n,
        slippage_tolerance: { num: r.slippage, den: 10n ** 6n },
        ...(r.referral ? { referral_address: WALLET } : {}),
        ...(r.referral && r.referralFeeBps !== undefined ? { referral_fee_bps: r.referralFeeBps } : {}),
        ...(r.named ? { pool_address: pool.address } : {}),
      };
      try {
        const answer = await bestSwapAnswer(deps, q, r.mode);
        answered++;
        t.is(answer.json(), JSON.stringify(answer.dto()));
      } catch (e) {
        if (!isHttpError(e)) throw e;
      }
      return true;
    }),
    { seed: SEED, numRuns: 3_000 },
  );
  t.true(answered > 2_000, `most drawn quotes are answered (${answered})`);
});
