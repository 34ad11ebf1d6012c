/**
 * Exact simulation values: every number the simulate routes return is recomputed here with dex/amm on the
 * same pool state (swap, reverseSwap, provide, priceImpact), for every pool type, both directions, with and
 * without referral; plus best-pool selection, the hot cache and the chain fallback.
 */
import anyTest, { type TestFn } from "ava";
import type { ApiDeps } from "../../../api/deps.ts";
import type { KnownPoolRecord as PoolRecord } from "../../../api/read-model.ts";
import {
  type Direction,
  type PoolState,
  poolState,
  priceImpact,
  provide,
  reverseSwap,
  swap,
  toDecimalString,
} from "../../../dex/amm/index.ts";
import {
  type LiquiditySimulationDto,
  liquiditySimulateResponse,
  type SwapSimulationDto,
  swapSimulateResponse,
} from "../../../schemas/api/simulate.ts";
import { LP_ACCOUNT_AMOUNTS, predictedPool } from "./fixture-chain.ts";
import {
  CHAIN_ONLY_POOL,
  CHAIN_ONLY_STATE,
  P_CPI,
  P_STABLE,
  P_V1,
  P_WCPI,
  P_WSTABLE,
  R_CPI,
  routerWallet,
  STON,
  TON,
  USDT,
  WALLET,
} from "./fixtures.ts";
import { f, type RunningApi, request, startApi, testDeps } from "./harness.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  t.context = { api: await startApi() };
});
test.after.always((t) => t.context.api.close());

type Params = Record<string, string | string[]>;
const qs = (p: Params) =>
  Object.entries(p)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}=${encodeURIComponent(x)}`))
    .join("&");

async function simulate(api: RunningApi, route: string, p: Params): Promise<SwapSimulationDto> {
  const res = await request(api, "POST", `/v1/${route}/simulate?${qs(p)}`);
  if (res.status !== 200) throw new Error(`${res.status}: ${res.text}`);
  return swapSimulateResponse.parse(res.json);
}

async function liquidity(api: RunningApi, p: Params): Promise<LiquiditySimulationDto> {
  const res = await request(api, "POST", `/v1/liquidity_provision/simulate?${qs(p)}`);
  if (res.status !== 200) throw new Error(`${res.status}: ${res.text}`);
  return liquiditySimulateResponse.parse(res.json);
}

type Ref = { hasReferral: boolean; refFeeBps?: bigint };
const NO_REF: Ref = { hasReferral: false };

/** What the API must answer, from dex/amm alone (slippage 1 %). */
function expected(state: PoolState, direction: Direction, amountIn: bigint, ref: Ref = NO_REF) {
  const r = swap(state, { direction, amountIn, ...ref });
  const feeless = swap(
    { ...state, lpFeeBps: 0n, protocolFeeBps: 0n, refFeeBps: 0n },
    { direction, amountIn },
  );
  return {
    offer_units: `${amountIn}`,
    ask_units: `${r.amountOut}`,
    fee_units: `${feeless.amountOut - r.amountOut}`,
    min_ask_units: `${(r.amountOut * 99n) / 100n}`,
    price_impact: toDecimalString(priceImpact(state, direction, amountIn), 18, "ceil"),
  };
}

const pick = (d: SwapSimulationDto) => ({
  offer_units: d.offer_units,
  ask_units: d.ask_units,
  fee_units: d.fee_units,
  min_ask_units: d.min_ask_units,
  price_impact: d.price_impact,
});

type Case = [
  label: string,
  pool: PoolRecord | { address: string; token0: string; token1: string; state: PoolState },
  offer: string,
  amount: bigint,
];
const CHAIN_POOL = { address: CHAIN_ONLY_POOL, token0: TON, token1: STON, state: CHAIN_ONLY_STATE };
const CASES: Case[] = [
  ["v1 constant product, TON → USDT", P_V1, TON, 10_000_000_000n],
  ["v1 constant product, USDT → TON", P_V1, USDT, 30_000_000n],
  ["v2 constant product, TON → USDT", P_CPI, TON, 10_000_000_000n],
  ["v2 constant product, USDT → TON", P_CPI, USDT, 30_000_000n],
  ["v2 stableswap, USDT → USDC", P_STABLE, USDT, 1_000_000_000n],
  ["v2 stableswap, USDC → USDT", P_STABLE, P_STABLE.token1, 777_000_000n],
  ["v2 weighted constant product, STON → USDT", P_WCPI, STON, 1_000_000_000_000n],
  ["v2 weighted constant product, USDT → STON", P_WCPI, USDT, 100_000_000n],
  ["v2 weighted stableswap, tsTON → TON", P_WSTABLE, P_WSTABLE.token0, 28_363n],
  ["v2 weighted stableswap, TON → tsTON", P_WSTABLE, TON, 1_000_000n],
  ["chain-only v2 pool (ChainState fallback), TON → STON", CHAIN_POOL, TON, 1_000_000_000_000n],
];

for (const [label, pool, offer, amount] of CASES) {
  const ask = offer === pool.token0 ? pool.token1 : pool.token0;
  const direction: Direction = offer === pool.token0 ? "0to1" : "1to0";
  const base = {
    offer_address: f(offer),
    ask_address: f(ask),
    slippage_tolerance: "0.01",
    pool_address: f(pool.address),
  };

  test(`swap/simulate equals dex/amm swap: ${label}`, async (t) => {
    const d = await simulate(t.context.api, "swap", { ...base, units: `${amount}` });
    t.deepEqual(pick(d), expected(pool.state, direction, amount));
    t.is(d.pool_address, f(pool.address));
  });

  test(`reverse_swap/simulate equals dex/amm reverseSwap: ${label}`, async (t) => {
    const want = swap(pool.state, { direction, amountIn: amount }).amountOut / 2n + 1n;
    const r = reverseSwap(pool.state, { direction, targetOut: want });
    const d = await simulate(t.context.api, "reverse_swap", { ...base, units: `${want}` });
    t.is(d.offer_units, `${r.amountIn}`);
    t.is(d.ask_units, `${r.swap.amountOut}`);
    t.deepEqual(pick(d), expected(pool.state, direction, r.amountIn));
  });
}

test("referral: v2 charges referral_fee_bps, v1 its own stored ref fee", async (t) => {
  const { api } = t.context;
  const base = {
    offer_address: f(TON),
    ask_address: f(USDT),
    units: "10000000000",
    slippage_tolerance: "0.01",
  };
  const ref = { ...base, referral_address: f(WALLET), referral_fee_bps: "50" };
  const v2 = await simulate(api, "swap", { ...ref, pool_address: f(P_CPI.address) });
  t.deepEqual(
    pick(v2),
    expected(P_CPI.state, "1to0", 10_000_000_000n, { hasReferral: true, refFeeBps: 50n }),
  );
  const v2Default = await simulate(api, "swap", {
    ...base,
    referral_address: f(WALLET),
    pool_address: f(P_CPI.address),
  });
  t.deepEqual(
    pick(v2Default),
    expected(P_CPI.state, "1to0", 10_000_000_000n, { hasReferral: true, refFeeBps: 10n }),
  );
  const v1 = await simulate(api, "swap", { ...ref, pool_address: f(P_V1.address) });
  t.deepEqual(pick(v1), expected(P_V1.state, "0to1", 10_000_000_000n, { hasReferral: true }));
  const v1NoRef = await simulate(api, "swap", { ...base, pool_address: f(P_V1.address) });
  t.true(BigInt(v1NoRef.ask_units) > BigInt(v1.ask_units), "the v1 referral fee comes out of the output");
});

test("without pool_address the best pool wins, within dex_v2 / dex_version", async (t) => {
  const { api } = t.context;
  const p = {
    offer_address: f(TON),
    ask_address: f(USDT),
    units: "10000000000",
    slippage_tolerance: "0.005",
  };
  const v1 = BigInt(expected(P_V1.state, "0to1", 10_000_000_000n).ask_units);
  const v2 = BigInt(expected(P_CPI.state, "1to0", 10_000_000_000n).ask_units);
  const best = await simulate(api, "swap", p);
  t.is(best.ask_units, `${v1 > v2 ? v1 : v2}`);
  t.is(best.pool_address, f(v1 > v2 ? P_V1.address : P_CPI.address));
  t.is(best.min_ask_units, `${((v1 > v2 ? v1 : v2) * 995n) / 1000n}`);
  t.is((await simulate(api, "swap", { ...p, dex_v2: "false" })).pool_address, f(P_V1.address));
  t.is((await simulate(api, "swap", { ...p, dex_version: ["2"] })).pool_address, f(P_CPI.address));
  const both = await simulate(api, "swap", { ...p, dex_version: ["1", "2"] });
  t.is(both.pool_address, best.pool_address);
  t.is(both.router.address, both.router_address);
  t.like(both.gas_params, { forward_gas: both.router.major_version === 1 ? "185000000" : "300000000" });
});

test("the hot cache's state is preferred; a cache outage falls back to the store", async (t) => {
  const cached = { ...P_CPI.state, reserve0: P_CPI.state.reserve0 * 2n };
  const p = {
    offer_address: f(USDT),
    ask_address: f(TON),
    units: "30000000",
    slippage_tolerance: "0.01",
    pool_address: f(P_CPI.address),
  };
  const withCache = await startApi(
    testDeps({ cache: { getPoolState: async (a) => (a === P_CPI.address ? cached : null) } }),
  );
  t.teardown(() => withCache.close());
  t.deepEqual(pick(await simulate(withCache, "swap", p)), expected(cached, "0to1", 30_000_000n));
  const down: Partial<ApiDeps> = {
    cache: { getPoolState: async () => Promise.reject(new Error("redis down")) },
  };
  const fallback = await startApi(testDeps(down));
  t.teardown(() => fallback.close());
  t.deepEqual(pick(await simulate(fallback, "swap", p)), expected(P_CPI.state, "0to1", 30_000_000n));
});

test("liquidity Balanced equals dex/amm provide at the pool ratio, with the wallet's LpAccount", async (t) => {
  const s = P_CPI.state;
  const ton = 1_000_000_000n;
  const usdt = (ton * s.reserve0 + s.reserve1 - 1n) / s.reserve1; // ceil
  const d = await liquidity(t.context.api, {
    provision_type: "Balanced",
    token_a: f(TON),
    token_b: f(USDT),
    token_a_units: `${ton}`,
    pool_address: f(P_CPI.address),
    slippage_tolerance: "0.01",
    wallet_address: f(WALLET),
  });
  const r = provide(s, {
    amount0: usdt + LP_ACCOUNT_AMOUNTS.amount0,
    amount1: ton,
    minLpOut: 1n,
    bothPositive: true,
  });
  t.like(d, {
    token_a_units: `${ton}`,
    token_b_units: `${usdt}`,
    estimated_lp_units: `${r.lpMinted}`,
    min_lp_units: `${(r.lpMinted * 99n) / 100n}`,
    lp_account_token_b_balance: `${LP_ACCOUNT_AMOUNTS.amount0}`,
    lp_account_token_a_balance: "0",
    lp_total_supply: `${r.pool.lpSupply}`,
  });
  t.truthy(d.lp_account_address);
  // On the wire, every field in the order the response schema lists them (the LpAccount's address after
  // the amounts). The body as sent: a schema's parse would put its keys in its own order.
  const wire = await request(
    t.context.api,
    "POST",
    `/v1/liquidity_provision/simulate?${qs({ provision_type: "Balanced", token_a: f(TON), token_b: f(USDT), token_a_units: `${ton}`, pool_address: f(P_CPI.address), slippage_tolerance: "0.01", wallet_address: f(WALLET) })}`,
  );
  t.deepEqual(Object.keys(wire.json as object), Object.keys(liquiditySimulateResponse.shape));
});

test("liquidity Arbitrary single-sided (v2) equals provide with both_positive = false", async (t) => {
  const d = await liquidity(t.context.api, {
    provision_type: "Arbitrary",
    token_a: f(USDT),
    token_b: f(TON),
    token_a_units: "5000000",
    token_b_units: "0",
    pool_address: f(P_CPI.address),
    slippage_tolerance: "0.02",
  });
  const r = provide(P_CPI.state, { amount0: 5_000_000n, amount1: 0n, minLpOut: 1n, bothPositive: false });
  t.is(r.status, "minted");
  t.like(d, { estimated_lp_units: `${r.lpMinted}`, min_lp_units: `${(r.lpMinted * 98n) / 100n}` });
  t.is(d.estimated_token_a_units, `${5_000_000n - r.protocolFeeCharged[0]}`);
});

test("liquidity Initial: new v2 pool on the newest open constant-product router", async (t) => {
  const d = await liquidity(t.context.api, {
    provision_type: "Initial",
    token_a: f(TON),
    token_b: f(STON),
    token_a_units: "1000000000",
    token_b_units: "4000000000",
    slippage_tolerance: "0.01",
  });
  const r = provide(poolState({ type: "v2_constant_product" }), {
    amount0: 1_000_000_000n,
    amount1: 4_000_000_000n,
    minLpOut: 1n,
  });
  t.like(d, { estimated_lp_units: `${r.lpMinted}`, router_address: f(R_CPI.address), price_impact: "0" });
  t.is(d.pool_address, f(predictedPool(R_CPI.address, R_CPI.ptonWallet, routerWallet(R_CPI, STON))));
});
