/**
 * Liquidity simulation at its edges (issue 19 §3): an Initial provision below the minimum liquidity is a
 * 422 naming the amounts, exactly at the contracts' thresholds; the minimum token amounts of a provision
 * never count what the wallet's LpAccount already held. Expected values are worked out from contracts.md
 * §2.7/§2.9 (v1) and §3.8/§3.9.8 (v2) by hand, written out below.
 */
import anyTest, { type TestFn } from "ava";
import { simulateProvision } from "../../../api/queries/simulate-liquidity.ts";
import { poolState } from "../../../dex/amm/index.ts";
import { errorBody } from "../../../schemas/api/objects.ts";
import { liquiditySimulateResponse } from "../../../schemas/api/simulate.ts";
import { LP_ACCOUNT_AMOUNTS } from "./fixture-chain.ts";
import { P_CPI, R_V1, raw, STON, TON, USDT, WALLET } from "./fixtures.ts";
import { f, type RunningApi, request, startApi } from "./harness.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  t.context = { api: await startApi() };
});
test.after.always((t) => t.context.api.close());

const path = (p: Record<string, string>) =>
  `/v1/liquidity_provision/simulate?${new URLSearchParams(p).toString()}`;

const initial = (a: bigint, b: bigint) =>
  path({
    provision_type: "Initial",
    token_a: f(TON),
    token_b: f(STON),
    token_a_units: `${a}`,
    token_b_units: `${b}`,
    slippage_tolerance: "0.01",
  });

test("Initial of 1 and 1 on a v2 router: 422 below_minimum_liquidity naming both amounts", async (t) => {
  const res = await request(t.context.api, "POST", initial(1n, 1n));
  t.is(res.status, 422);
  const { error } = errorBody.parse(res.json);
  t.is(error.code, "below_minimum_liquidity");
  const details = error.details as { field: string; message: string }[];
  t.deepEqual(
    details.map((d) => d.field),
    ["token_a_units", "token_b_units"],
  );
  t.regex(details[0]!.message, /at least 1004004/);
});

test("v2 constant-product Initial threshold: isqrt(a·b) − 1001 ≥ 1, i.e. a·b ≥ 1002² = 1004004", async (t) => {
  // Just below: 1001·1003 = 1004003, isqrt = 1001, 1001 − 1001 = 0 LP: the pool refunds.
  t.is((await request(t.context.api, "POST", initial(1001n, 1003n))).status, 422);
  t.is((await request(t.context.api, "POST", initial(1n, 1_004_003n))).status, 422);
  // At it: 1002·1002, isqrt = 1002: supply 1002, 1 LP to the user, the whole deposit joins the reserves.
  for (const [a, b] of [
    [1002n, 1002n],
    [1n, 1_004_004n],
  ] as const) {
    const res = await request(t.context.api, "POST", initial(a, b));
    t.is(res.status, 200, `${a}·${b}`);
    const d = liquiditySimulateResponse.parse(res.json);
    t.like(d, {
      estimated_lp_units: "1",
      // floor(1 · 0.99) = 0 would be a min_lp_out the LpAccount ignores: the minimum is 1 LP.
      min_lp_units: "1",
      lp_total_supply: "1002",
      estimated_token_a_units: `${a}`,
      estimated_token_b_units: `${b}`,
    });
  }
});

test("v1 Initial: the LpAccount forwards only when both amounts exceed 1000; the first LP goes to addr_none", (t) => {
  const input = {
    type: "Initial" as const,
    router: R_V1,
    poolAddress: raw("new v1 pool"),
    token0: TON,
    token1: USDT,
    state: poolState({ type: "v1_constant_product" }),
    tokenA: TON,
    tokenB: USDT,
    slippage: { num: 1n, den: 100n },
  };
  const below = t.throws(() => simulateProvision({ ...input, unitsA: 1000n, unitsB: 5000n }));
  t.like(below, { status: 422, code: "below_minimum_liquidity" });
  t.deepEqual(
    (below as unknown as { details: { field: string }[] }).details.map((d) => d.field),
    ["token_a_units"],
  );
  // 1001 and 1001: forwarded; liquidity = floor(isqrt(1001·1001)/1000) = 1, minted to addr_none.
  const at = simulateProvision({ ...input, unitsA: 1001n, unitsB: 1001n });
  t.like(at, {
    estimated_lp_units: "0",
    min_lp_units: "0",
    lp_total_supply: "1",
    estimated_token_a_units: "1001",
  });
});

test("min_token_*_units count this request only, not what the wallet's LpAccount already held", async (t) => {
  // P_CPI (v2 CPI, token0 USDT r0 = 6.1e12, token1 TON r1 = 2e15, S = 1e14, L = 20, P = 10 bps); the
  // wallet's LpAccount holds 1_000_000 USDT. Balanced 500_000 USDT → TON = ceil(500000·2e15/6.1e12) = 163934427.
  // The LpAccount forwards (1_500_000, 163934427). v0 = isqrt(r0·r1); USDT is over-supplied:
  // ideal0 = floor(r0·v1/v0), protocol fee floor(diff0·10/10000) = 500 USDT, none on TON; LP = 16381147.
  const res = await request(
    t.context.api,
    "POST",
    path({
      provision_type: "Balanced",
      token_a: f(USDT),
      token_b: f(TON),
      token_a_units: "500000",
      pool_address: f(P_CPI.address),
      slippage_tolerance: "0.01",
      wallet_address: f(WALLET),
    }),
  );
  t.is(res.status, 200);
  const d = liquiditySimulateResponse.parse(res.json);
  t.is(LP_ACCOUNT_AMOUNTS.amount0, 1_000_000n);
  t.like(d, {
    token_a_units: "500000",
    token_b_units: "163934427",
    lp_account_token_a_balance: "1000000",
    lp_account_token_b_balance: "0",
    estimated_lp_units: "16381147",
    min_lp_units: "16217335",
    // What joins the reserves: everything the LpAccount forwards, less the protocol fee.
    estimated_token_a_units: "1499500",
    estimated_token_b_units: "163934427",
    // This request's part: floor(1499500·500000/1500000) = 499833, then floor(·0.99) = 494834 ≤ 500000
    // (counting the held USDT gave 1484505, above token_a_units).
    min_token_a_units: "494834",
    min_token_b_units: "162295082",
  });
});
