/**
 * The official `@ston-fi/api` client, unchanged, against tondex: every client method of the covered
 * endpoints returns data; and every route (with its aliases) answers a raw request with a body that parses
 * with the route's zod response schema.
 */
import { StonApiClient } from "@ston-fi/api";
import anyTest, { type TestFn } from "ava";
import type { RawAddress } from "../../../api/read-model.ts";
import { jettonWalletOf, WALLET_USDT_BALANCE } from "./fixture-chain.ts";
import {
  P_CPI,
  P_V1,
  POOLS,
  R_CPI,
  R_V1,
  ROUTERS,
  STON,
  TON,
  TRACE_ROOT,
  USDT,
  WALLET,
  WALLET_QUERY_ID,
  WALLET_TX,
} from "./fixtures.ts";
import { f, type RunningApi, request, SWAP_QUERY_ID, startApi, T0 } from "./harness.ts";
import { ROUTE_CASES, traceQueryId } from "./routes-table.ts";

const test = anyTest as TestFn<{ api: RunningApi; client: StonApiClient }>;

test.before(async (t) => {
  const api = await startApi();
  t.context = { api, client: new StonApiClient({ baseURL: api.baseURL }) };
});
test.after.always((t) => t.context.api.close());

const w = f(WALLET);

test("routers, router, markets", async (t) => {
  const { client } = t.context;
  t.is((await client.getRouters()).length, ROUTERS.length, "dex_v2 defaults to true");
  t.deepEqual(
    (await client.getRouters({ dexV2: false })).map((r) => r.address),
    [f(R_V1.address)],
  );
  const router = await client.getRouter(f(R_CPI.address));
  t.like(router, {
    address: f(R_CPI.address),
    majorVersion: 2,
    minorVersion: 2,
    routerType: "ConstantProduct",
  });
  const pairs = await client.getSwapPairs();
  t.true(pairs.some(([a, b]) => (a === f(TON) && b === f(USDT)) || (a === f(USDT) && b === f(TON))));
  t.true((await client.getSwapPairs({ dexV2: false })).length < pairs.length);
});

test("assets: list, one, query, deprecated search, jetton wallet address", async (t) => {
  const { client } = t.context;
  t.true((await client.getAssets()).length >= 6);
  t.like(await client.getAsset(f(USDT)), {
    contractAddress: f(USDT),
    symbol: "USDT",
    decimals: 6,
    kind: "Jetton",
  });
  const essential = await client.queryAssets({
    condition: "asset:essential",
    sortBy: ["popularity_index:desc"],
  });
  t.deepEqual(
    essential.map((a) => a.meta?.symbol),
    ["TON", "USDT"],
  );
  const withWallet = await client.queryAssets({ condition: "asset:wallet_has_balance", walletAddress: w });
  t.deepEqual(withWallet.map((a) => [a.meta?.symbol, a.balance]).sort(), [
    ["TON", "5000000000"],
    ["USDT", `${WALLET_USDT_BALANCE}`],
  ]);
  const search = await client.searchAssets({ searchString: "USD", condition: "asset:essential" });
  t.deepEqual(
    search.map((a) => a.meta?.symbol),
    ["USDT"],
  );
  const unconditional = await client.queryAssets({ condition: "false", unconditionalAssets: [f(STON)] });
  t.deepEqual(
    unconditional.map((a) => a.contractAddress),
    [f(STON)],
  );
  const jw = await client.getJettonWalletAddress({ jettonAddress: f(USDT), ownerAddress: w });
  t.is(jw, f(jettonWalletOf(USDT, WALLET)));
});

test("pools: list, one, by market, query", async (t) => {
  const { client } = t.context;
  t.is((await client.getPools()).length, 5);
  t.is((await client.getPools({ dexV2: false })).length, 1);
  const pool = await client.getPool(f(P_CPI.address));
  t.like(pool, {
    address: f(P_CPI.address),
    reserve0: `${P_CPI.state.reserve0}`,
    lpFee: "20",
    protocolFee: "10",
  });
  const pair = await client.getPoolsByAssetPair({ asset0Address: f(USDT), asset1Address: f(TON) });
  t.deepEqual(pair.map((p) => p.address).sort(), [f(P_CPI.address), f(P_V1.address)].sort());
  const queried = await client.queryPools({
    condition: "asset:popular",
    searchTerms: [f(STON)],
    dexV2: true,
  });
  t.deepEqual(
    queried.map((p) => p.w0),
    ["800000000000000000"],
  );
  // A text term matches symbols as substrings: "STON" also finds tsTON's pool.
  t.is((await client.queryPools({ condition: "asset:popular", searchTerms: ["STON"] })).length, 2);
});

test("pools query with a wallet: wallet tags of the pools' assets, the wallet's position on its pools", async (t) => {
  const { client } = t.context;
  const trading = (assets: RawAddress[]) =>
    POOLS.filter((p) => assets.includes(p.token0) || assets.includes(p.token1))
      .map((p) => f(p.address))
      .sort();
  // The wallet holds LP tokens of P_CPI only: its two assets carry asset:wallet_has_liquidity_in_pool.
  const liquidity = await client.queryPools({
    condition: "asset:wallet_has_liquidity_in_pool",
    walletAddress: w,
  });
  t.deepEqual(liquidity.map((p) => p.address).sort(), trading([P_CPI.token0, P_CPI.token1]));
  t.deepEqual(
    liquidity.filter((p) => p.lpBalance !== undefined).map((p) => [p.address, p.lpBalance]),
    [[f(P_CPI.address), "1000000"]],
  );
  // The wallet holds TON and USDT (fake chain balances).
  const balance = await client.queryPools({ condition: "asset:wallet_has_balance", walletAddress: w });
  t.deepEqual(balance.map((p) => p.address).sort(), trading([TON, USDT]));
  // Without a wallet the wallet tags hold for nothing, and no pool carries a position.
  t.deepEqual(await client.queryPools({ condition: "asset:wallet_has_liquidity_in_pool" }), []);
  const plain = await client.queryPools({ condition: "asset:popular" });
  t.true(plain.length > 0 && plain.every((p) => p.lpBalance === undefined));
});

test("simulations: swap, reverse swap, liquidity (Initial, Balanced, Arbitrary)", async (t) => {
  const { client } = t.context;
  const base = { offerAddress: f(TON), askAddress: f(USDT), slippageTolerance: "0.01" };
  const swap = await client.simulateSwap({ ...base, offerUnits: "1000000000" });
  t.is(swap.offerUnits, "1000000000");
  t.true(BigInt(swap.askUnits) > 0n && BigInt(swap.minAskUnits) < BigInt(swap.askUnits));
  t.is(swap.router.address, swap.routerAddress);
  const reverse = await client.simulateReverseSwap({ ...base, askUnits: "3000000", dexVersion: [1] });
  t.is(reverse.poolAddress, f(P_V1.address));
  t.true(BigInt(reverse.askUnits) >= 3_000_000n);
  const balanced = await client.simulateLiquidityProvision({
    provisionType: "Balanced",
    tokenA: f(TON),
    tokenB: f(USDT),
    poolAddress: f(P_CPI.address),
    tokenAUnits: "1000000000",
    slippageTolerance: "0.01",
  });
  t.true(BigInt(balanced.estimatedLpUnits) > 0n);
  const arbitrary = await client.simulateLiquidityProvision({
    provisionType: "Arbitrary",
    tokenA: f(USDT),
    tokenB: f(TON),
    poolAddress: f(P_CPI.address),
    tokenAUnits: "5000000",
    tokenBUnits: "0",
    slippageTolerance: "0.01",
  });
  t.true(BigInt(arbitrary.estimatedLpUnits) > 0n, "single-sided v2 provision mints");
  const initial = await client.simulateLiquidityProvision({
    provisionType: "Initial",
    tokenA: f(TON),
    tokenB: f(STON),
    tokenAUnits: "1000000000",
    tokenBUnits: "3000000000",
    slippageTolerance: "0.01",
  });
  t.is(initial.router.address, f(R_CPI.address));
});

test("swap status and transaction query", async (t) => {
  const { client } = t.context;
  const found = await client.getSwapStatus({
    routerAddress: f(R_CPI.address),
    ownerAddress: w,
    queryId: `${SWAP_QUERY_ID}`,
  });
  t.like(found, { "@type": "Found", exitCode: "swap_ok", queryId: "42" });
  const missing = await client.getSwapStatus({
    routerAddress: f(R_CPI.address),
    ownerAddress: w,
    queryId: "43",
  });
  t.deepEqual(missing, { "@type": "NotFound" });
  const byQuery = await client.queryTransactions({ walletAddress: w, queryId: Number(WALLET_QUERY_ID) });
  t.like(byQuery.txId, { hash: WALLET_TX.hash, lt: Number(WALLET_TX.lt), contractAddress: w });
  const byHash = await client.queryTransactions({
    extMsgHash: Buffer.from(TRACE_ROOT.in_msg?.hash ?? "", "hex").toString("base64"),
  });
  t.is(byHash.txId?.lt, Number(TRACE_ROOT.lt));
  t.deepEqual(await client.queryTransactions({ walletAddress: w, queryId: 1 }), {});
  // The trace's query id is above 2^53, beyond the client's `number`: the raw request carries it exactly.
  const raw = await request(
    t.context.api,
    "GET",
    `/v1/transactions/query?wallet_address=${f(TRACE_ROOT.account)}&query_id=${traceQueryId()}`,
  );
  t.like(raw.json, { tx_id: { hash: TRACE_ROOT.hash }, wallet_seqno: 7 });
});

test("wallet endpoints", async (t) => {
  const { client } = t.context;
  const assets = await client.getWalletAssets(w);
  t.is(assets.find((a) => a.symbol === "USDT")?.balance, `${WALLET_USDT_BALANCE}`);
  const usdt = await client.getWalletAsset({ walletAddress: w, assetAddress: f(USDT) });
  t.is(usdt.walletAddress, f(jettonWalletOf(USDT, WALLET)));
  const pools = await client.getWalletPools({ walletAddress: w, dexV2: true });
  t.deepEqual(
    pools.map((p) => [p.address, p.lpBalance]),
    [[f(P_CPI.address), "1000000"]],
  );
  const pool = await client.getWalletPool({ walletAddress: w, poolAddress: f(P_V1.address) });
  t.is(pool.lpBalance, "0");
  const ops = await client.getWalletOperations({
    walletAddress: w,
    since: new Date(T0 * 1000),
    until: new Date((T0 + 1000) * 1000),
    opType: "Swap",
  });
  t.deepEqual(
    ops.map((o) => o.operation.poolTxLt),
    [45_000_000_000_001, 45_000_000_000_003],
  );
  t.is(ops[0]?.asset1Info.symbol, "USDT");
  const v1Only = await client.getWalletOperations({
    walletAddress: w,
    since: new Date(T0 * 1000),
    until: new Date((T0 + 1000) * 1000),
    dexV2: false,
  });
  t.is(v1Only.length, 1);
  const vaults = await client.getWalletVaultsFee({ walletAddress: w });
  t.like(vaults[0], { assetAddress: f(USDT), balance: "12345", routerAddress: f(R_CPI.address) });
});

for (const c of ROUTE_CASES) {
  test(`${c.method} ${c.path.split("?")[0]}${c.body ? " (JSON body)" : ""}: 200 and the response schema`, async (t) => {
    const res = await request(t.context.api, c.method, c.path, c.body);
    t.is(res.status, 200, res.text);
    const parsed = c.schema.safeParse(res.json);
    t.true(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues));
  });
}
