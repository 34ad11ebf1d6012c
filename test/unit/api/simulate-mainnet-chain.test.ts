/**
 * The API on a pool only the chain knows, read through toncenter v3 `runGetMethod` (infra/toncenter) from a
 * local stand-in that answers with the real pool's data: USD₮/pTON on the v2.2 CPI router `0:92E141…`
 * (`EQCS4UEa…`, contracts.md §5), pool `0:8649CAD9…`, state from its recorded data cell
 * (test/vectors/messages/stonfi-getmethods.json). `/v1/swap/simulate` must equal dex/amm on that state, and
 * `/v1/pools/{address}` must answer the pool with it.
 */
import { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import type { RouterRecord } from "../../../api/read-model.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { poolState, priceImpact, swap, toDecimalString } from "../../../dex/amm/index.ts";
import { createMemoryCache } from "../../../infra/cache/memory.ts";
import { toncenterChainState } from "../../../infra/toncenter/chain-state.ts";
import { ToncenterClient } from "../../../infra/toncenter/client.ts";
import { poolResponse } from "../../../schemas/api/pools.ts";
import { swapSimulateResponse } from "../../../schemas/api/simulate.ts";
import {
  mainnetChainData,
  ROUTER_V22_CPI,
  USDT_MASTER,
  type V2Storage,
  vector,
} from "../../helpers/mainnet-chain-data.ts";
import { type StandIn, startToncenterStandIn } from "../../helpers/toncenter/chain-state.ts";
import { TON } from "./fixtures.ts";
import { f, memoryData, type RunningApi, request, startApi, testDeps } from "./harness.ts";

const test = anyTest as TestFn<{ api: RunningApi; standIn: StandIn }>;

const POOL = vector("stonfi v2 const product");
const S = POOL.independently_parsed_storage as unknown as V2Storage;
const raw = (friendly: string) => Address.parse(friendly).toRawString().toUpperCase();

/** The router as contracts.md §5 lists it: v2.2 constant product, its pTON v2.1 wallet `EQCSIMGB…`. */
const ROUTER: RouterRecord = {
  address: ROUTER_V22_CPI,
  majorVersion: 2,
  minorVersion: 2,
  routerType: "ConstantProduct",
  poolCreationEnabled: true,
  ptonMaster: raw("EQBnGWMCf3-FZZq1W4IWcWiGAc3PHuZ0_H-7sad2oY00o83S"),
  ptonVersion: "v2_1",
  ptonWallet: raw("EQCSIMGBps_qzRG3uPYhON8bucyCtu0mYdL1-u4gSz77IBa3"),
};

/** What the chain says, as the engine reads it (contracts.md §3.2 fields). */
const STATE = poolState({
  type: "v2_constant_product",
  reserve0: BigInt(S.reserve0),
  reserve1: BigInt(S.reserve1),
  lpSupply: BigInt(S.total_supply_lp),
  lpFeeBps: BigInt(S.lp_fee),
  protocolFeeBps: BigInt(S.protocol_fee),
  refFeeBps: 0n,
  collectedProtocolFee0: BigInt(S.collected_token0_protocol_fee),
  collectedProtocolFee1: BigInt(S.collected_token1_protocol_fee),
  isLocked: S.is_locked,
});

test.before(async (t) => {
  const { accounts, files } = mainnetChainData();
  const standIn = await startToncenterStandIn(accounts, files);
  const chain = toncenterChainState({
    http: new ToncenterClient({ url: standIn.url, requestsPerSecond: 1000, timeoutMs: 2000 }),
    cache: createMemoryCache({ maxEntries: 1000 }),
    ttlMs: 60_000,
    fixedTtlMs: 3_600_000,
    offchain: { timeoutMs: 300, maxBytes: 4096, ttlMs: 60_000 },
  });
  const data = memoryData();
  const api = await startApi(
    testDeps({ data: new MemoryReadModel({ ...data, routers: [...(data.routers ?? []), ROUTER] }), chain }),
  );
  t.context = { api, standIn };
});
test.after.always(async (t) => {
  await t.context.api.close();
  await t.context.standIn.close();
});

test("the stand-in's pool is the recorded one: token1 is the router's pTON wallet, token0 its USD₮ wallet", (t) => {
  t.is(S.router, ROUTER_V22_CPI);
  t.is(S.token1, ROUTER.ptonWallet as string);
  t.not(S.token0, ROUTER.ptonWallet as string);
});

for (const [label, offer, amount] of [
  ["TON → USD₮", TON, 10_000_000_000n],
  ["USD₮ → TON", USDT_MASTER, 25_000_000n],
] as const) {
  test(`/v1/swap/simulate ${label} on the chain's state equals dex/amm`, async (t) => {
    const { api } = t.context;
    const direction = offer === USDT_MASTER ? "0to1" : "1to0";
    const ask = offer === TON ? USDT_MASTER : TON;
    const q = new URLSearchParams({
      offer_address: f(offer),
      ask_address: f(ask),
      units: `${amount}`,
      slippage_tolerance: "0.01",
      pool_address: f(POOL.account),
    });
    const res = await request(api, "POST", `/v1/swap/simulate?${q}`);
    t.is(res.status, 200, res.text);
    const d = swapSimulateResponse.parse(res.json);
    const r = swap(STATE, { direction, amountIn: amount });
    const feeless = swap({ ...STATE, lpFeeBps: 0n, protocolFeeBps: 0n }, { direction, amountIn: amount });
    t.is(d.ask_units, `${r.amountOut}`);
    t.is(d.fee_units, `${feeless.amountOut - r.amountOut}`);
    t.is(d.min_ask_units, `${(r.amountOut * 99n) / 100n}`);
    t.is(d.price_impact, toDecimalString(priceImpact(STATE, direction, amount), 18, "ceil"));
    t.is(d.pool_address, f(POOL.account));
    t.is(d.router_address, f(ROUTER_V22_CPI));
  });
}

test("/v1/pools/{address} answers the chain-only pool with its chain state and tokens", async (t) => {
  const res = await request(t.context.api, "GET", `/v1/pools/${f(POOL.account)}`);
  t.is(res.status, 200, res.text);
  const { pool } = poolResponse.parse(res.json);
  t.is(pool.address, f(POOL.account));
  t.is(pool.router_address, f(ROUTER_V22_CPI));
  t.is(pool.reserve0, S.reserve0);
  t.is(pool.reserve1, S.reserve1);
  t.is(pool.lp_total_supply, S.total_supply_lp);
  t.is(pool.token0_address, f(USDT_MASTER));
  t.is(pool.token1_address, f(TON));
  t.is(pool.lp_fee, S.lp_fee);
  t.is(pool.protocol_fee, S.protocol_fee);
  // the chain was asked through runGetMethod (and, the pool's state being fresh, cached)
  t.true(t.context.standIn.log.some((l) => l.endsWith(`${POOL.account} get_pool_data`)));
});
