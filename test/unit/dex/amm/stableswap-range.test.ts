/**
 * Stableswap states the vectors do not cover: balances near the Coins limit (2^120 − 1) and very
 * unbalanced pools. TVM integers are 257-bit signed, and the pool range-checks each instruction's
 * result, except inside `muldiv`, which keeps a 513-bit intermediate (contracts.md §0.2, §3.9.4, §11.1).
 *
 * In the invariant's Newton step the contract computes
 *   dp = (dp·d)/(2x) then (dp·d)/(2y)       — two MUL + DIV: each product is range-checked
 *   d  = muldiv(A·s + 2·dp, d, (A − 1)·d + 3·dp) — only the two terms and the quotient are checked
 * so a large left balance with a small right one (dp ≫ d) never overflows there, while a small left
 * balance does (the product ⌊d²/2x⌋·d goes above 2^256: vector 0570 and the cases below).
 *
 * Every expected value below was computed with an independent model of the pool's math.fc that
 * range-checks each TVM instruction (MUL, ADD, SUB, DIV, DIVC, MULDIV) and agrees with every
 * v2_stableswap swap vector; the magnitudes that decide each outcome are asserted in the test.
 */
import test from "ava";
import { MAX_COINS, poolState, provide, SWAP_EXIT, swap } from "../../../../dex/amm/index.ts";

const TVM_LIMIT = 1n << 256n;

/** Magnitudes of the first Newton step of the invariant (d = x + y), computed with plain bigint. */
function firstStep(amp: bigint, x: bigint, y: bigint) {
  const d = x + y;
  const leftProduct = ((d * d) / (2n * x)) * d; // range-checked by the contract
  const dp = leftProduct / (2n * y);
  const first = amp * d + 2n * dp;
  const second = (amp - 1n) * d + 3n * dp;
  return { leftProduct, first, second, muldivProduct: first * d };
}

const stable = (amp: bigint, reserve0: bigint, reserve1: bigint) =>
  poolState({
    type: "v2_stableswap",
    amp,
    reserve0,
    reserve1,
    lpSupply: 1_000_000n,
    lpFeeBps: 20n,
    protocolFeeBps: 10n,
  });

test("the states below take the muldiv path: its product exceeds 2^256, every checked value does not", (t) => {
  for (const [amp, y] of [
    [1n, 1_000_000n],
    [1n, 10n ** 15n],
    [2000n, 10n ** 30n],
  ] as const) {
    const s = firstStep(amp, MAX_COINS, y);
    t.true(s.muldivProduct >= TVM_LIMIT, `A=${amp} y=${y}: (A·s + 2dp)·d ≥ 2^256`);
    t.true(s.leftProduct < TVM_LIMIT && s.first < TVM_LIMIT && s.second < TVM_LIMIT);
  }
  // The mirrored state (small left balance) overflows in a range-checked product: a real exit 4.
  t.true(firstStep(1n, 1_000_000n, MAX_COINS).leftProduct >= TVM_LIMIT);
});

test("full left reserve, tiny right reserve: a tiny input is refunded with swap_refund_0_out, not exit 4", (t) => {
  const pool = stable(1n, MAX_COINS, 1_000_000n);
  // D = 191905011780778012026291654; the new token1 balance comes out 1 above the old: base_out = −2.
  for (const amountIn of [1n, 1_000_000_000n]) {
    const r = swap(pool, { direction: "0to1", amountIn });
    t.is(r.status, "refund");
    t.is(r.exitCode, SWAP_EXIT.swap_refund_0_out);
    t.is(r.refundAmount, amountIn);
  }
});

test("the other direction of that pool does overflow in the contract: t·t in get_out_balance", (t) => {
  // o = 2^120 − 1 multiplies c up to ~2^240; the first approximation t ≈ 2^152, so t·t ≈ 2^304.
  const r = swap(stable(1n, MAX_COINS, 1_000_000n), { direction: "1to0", amountIn: 1n });
  t.is(r.status, "refund");
  t.is(r.exitCode, 4);
});

test("near the Coins limit the invariant can oscillate: not_converge (5103), as the contract throws", (t) => {
  const r = swap(stable(1n, MAX_COINS, 10n ** 15n), { direction: "0to1", amountIn: 1n });
  t.is(r.status, "refund");
  t.is(r.exitCode, 5103);
  const r2 = swap(stable(100n, MAX_COINS, 1_000_000_000n), { direction: "0to1", amountIn: 1n });
  t.is(r2.exitCode, 5103);
});

test("amp 2000, full left reserve, 10^30 right: swaps succeed with exact outputs", (t) => {
  const pool = stable(2000n, MAX_COINS, 10n ** 30n);
  const a = swap(pool, { direction: "1to0", amountIn: 1000n });
  t.is(a.status, "ok");
  t.is(a.baseOut, 601337290n);
  t.is(a.protocolFeeOut, 601338n);
  t.is(a.amountOut, 600735952n);
  // The math succeeds (base_out 1655), then reserve0 would pass 2^120 − 1: swap_refund_reserve_err.
  const full = swap(pool, { direction: "0to1", amountIn: 1_000_000_000n });
  t.is(full.exitCode, SWAP_EXIT.swap_refund_reserve_err);
  const b = swap(stable(2000n, MAX_COINS - 10n ** 18n, 10n ** 30n), {
    direction: "0to1",
    amountIn: 1_000_000_000n,
  });
  t.is(b.status, "ok");
  t.is(b.baseOut, 1655n);
  t.is(b.amountOut, 1653n);
  const c = swap(pool, { direction: "0to1", amountIn: 1n });
  t.is(c.exitCode, SWAP_EXIT.swap_refund_0_out);
});

test("balanced pool at the Coins limit: a 1-unit swap is refunded with swap_refund_0_out", (t) => {
  const r = swap(stable(100n, MAX_COINS, MAX_COINS), { direction: "0to1", amountIn: 1n });
  t.is(r.exitCode, SWAP_EXIT.swap_refund_0_out);
});

test("initial provision of large, very unbalanced amounts mints the invariant less the 1001 locked", (t) => {
  const empty = (amp: bigint) => poolState({ type: "v2_stableswap", amp });
  const big = provide(empty(1n), { amount0: MAX_COINS, amount1: 1_000_000n, minLpOut: 1n });
  t.is(big.status, "minted");
  t.is(big.pool.lpSupply, 191905011780778012026291654n);
  t.is(big.lpMinted, 191905011780778012026290653n);
  t.deepEqual([big.pool.reserve0, big.pool.reserve1], [MAX_COINS, 1_000_000n]);

  const mid = provide(empty(2000n), { amount0: 1n << 100n, amount1: 1n << 40n, minLpOut: 1n });
  t.is(mid.status, "minted");
  t.is(mid.lpMinted, 24178362746286738296820194n);

  // Mirrored amounts overflow ⌊d²/2x⌋·d in the contract: liquidity 0, the amounts go back to the LpAccount.
  const mirrored = provide(empty(2000n), { amount0: 1n << 40n, amount1: 1n << 100n, minLpOut: 1n });
  t.is(mirrored.status, "refunded");
  t.deepEqual(mirrored.lpAccount, [1n << 40n, 1n << 100n]);
  // And an invariant that does not converge (5103) is swallowed the same way.
  const oscillating = provide(empty(100n), { amount0: MAX_COINS, amount1: 1_000_000n, minLpOut: 1n });
  t.is(oscillating.status, "refunded");
});
