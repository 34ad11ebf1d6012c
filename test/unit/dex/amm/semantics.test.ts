/** Engine behaviour that the vectors do not pin: named errors, spot price, price impact. */
import test from "ava";
import { E } from "../../../../dex/amm/fixed-point.ts";
import {
  type AmmInputError,
  isAmmInputError,
  OutputNotReachableError,
  poolState,
  priceImpact,
  provide,
  reverseSwap,
  spotPrice,
  swap,
  swapRate,
  toDecimalString,
} from "../../../../dex/amm/index.ts";

const cpi = poolState({
  type: "v2_constant_product",
  reserve0: 1_000_000n,
  reserve1: 4_000_000n,
  lpSupply: 2_000_000n,
});

test("impossible requests are named errors naming the field", (t) => {
  const zero = t.throws(() => swap(cpi, { direction: "0to1", amountIn: 0n }));
  t.true(isAmmInputError(zero));
  t.is((zero as AmmInputError).field, "amount_in");
  const fee = t.throws(() => swap({ ...cpi, lpFeeBps: 101n }, { direction: "0to1", amountIn: 5n }));
  t.is((fee as AmmInputError).code, "fee_out_of_range");
  t.is((fee as AmmInputError).field, "lp_fee_bps");
  const empty = t.throws(() =>
    reverseSwap({ ...cpi, reserve0: 0n, reserve1: 0n }, { direction: "0to1", targetOut: 5n }),
  );
  t.is((empty as AmmInputError).code, "empty_pool");
  const single = t.throws(() =>
    provide(cpi, { amount0: 5n, amount1: 5n, minLpOut: 1n, bothPositive: false }),
  );
  t.is((single as AmmInputError).field, "both_positive");
});

test("a target at or above the reserve is not reachable, with the best the pool can do", (t) => {
  const e = t.throws(() => reverseSwap(cpi, { direction: "0to1", targetOut: 4_000_000n }));
  t.true(e instanceof OutputNotReachableError);
  const err = e as OutputNotReachableError;
  t.is(err.code, "output_not_reachable");
  t.is(err.maxAmountIn, (1n << 120n) - 1n - 1_000_000n);
  t.true(err.amountOutAtMaxAmountIn < 4_000_000n && err.amountOutAtMaxAmountIn > 3_900_000n);
});

test("a refund is a result, not an error", (t) => {
  const r = swap({ ...cpi, isLocked: true }, { direction: "0to1", amountIn: 1000n });
  t.is(r.status, "refund");
  t.is(r.exitCode, 0x365c484d);
  t.is(r.refundAmount, 1000n);
  t.is(r.pool.reserve0, cpi.reserve0, "state unchanged");
});

test("constant-product spot price is the reserve ratio; impact of a fee-less trade is a/(x+a)", (t) => {
  t.deepEqual(spotPrice(cpi, "0to1"), { num: 4_000_000n, den: 1_000_000n });
  t.deepEqual(spotPrice(cpi, "1to0"), { num: 1_000_000n, den: 4_000_000n });
  // x = 1e6, a = 1e4 (fees excluded): out = floor(1e4·4e6/1.01e6) = 39603; impact = 1 − 39603/40000.
  // With fees: base = floor(1e4·9980·4e6/(1e10 + 1e4·9980)) = 39525, protocol ceil(39.525) = 40, out 39485.
  const impact = priceImpact(cpi, "0to1", 10_000n);
  t.is(toDecimalString(impact, 6, "half-up"), "0.009925");
  const r = swap(cpi, { direction: "0to1", amountIn: 10_000n });
  t.is(toDecimalString(swapRate(10_000n, r.amountOut), 4, "floor"), "3.9485");
});

test("every pool type has a spot price near its curve's slope at a balanced state", (t) => {
  const base = { reserve0: 10n ** 12n, reserve1: 10n ** 12n, lpSupply: 10n ** 12n };
  const cases = [
    poolState({ type: "v2_constant_sum", ...base }),
    poolState({ type: "v2_stableswap", ...base, amp: 100n }),
    poolState({ type: "v2_weighted_const_product", ...base, w0: E / 2n }),
    poolState({ type: "v2_weighted_stableswap", ...base, amp: 100n * E, rate: E, w0: E / 2n }),
  ];
  for (const pool of cases) {
    const p = spotPrice(pool, "0to1");
    t.is(toDecimalString(p, 6, "half-up"), "1", pool.type);
    // A trade of 1e-6 of the pool moves the price by ~nothing.
    const impact = priceImpact({ ...pool, lpFeeBps: 0n }, "0to1", 10n ** 6n);
    t.true(impact.num * 10n ** 5n <= impact.den, `${pool.type} impact ${toDecimalString(impact, 9, "ceil")}`);
  }
});
