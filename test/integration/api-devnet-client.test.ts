/**
 * The API over real devnet data (test/helpers/api-devnet.ts: a devnet market run indexed by the embedded
 * pipeline, `createApp` over the ClickHouse read model, the hot cache and the devnet's ChainState): every
 * method of the official `@ston-fi/api` client that the project's routes cover returns data for real devnet
 * addresses — a trader who swapped, an LP, a referrer with fee vaults — equal to what the devnet itself says
 * (its ground truth records and its contracts' get-methods); and every route answers a raw request for
 * those addresses with a body that parses with the route's zod response schema.
 */
import type { StonApiClient } from "@ston-fi/api";
import type { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import type { z } from "zod";
import { type PoolState, provide, reverseSwap, SWAP_EXIT, swap } from "../../dex/amm/index.ts";
import { describeExitCode } from "../../dex/exit-codes.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { ASSETS, TON_SYMBOL } from "../../ingest/devnet/sim/catalog.ts";
import { type PoolHandle, readPool } from "../../ingest/devnet/sim/pools.ts";
import { V2_ROUTERS } from "../../ingest/devnet/sim/types.ts";
import { assetListResponse, assetResponse, assetV2ListResponse } from "../../schemas/api/assets.ts";
import {
  eventsResponse,
  assetResponse as feedAssetResponse,
  latestBlockResponse,
  pairResponse,
} from "../../schemas/api/dexscreener.ts";
import {
  cmcResponse,
  geckoPairsResponse,
  geckoTickersResponse,
  geckoTradesResponse,
} from "../../schemas/api/markets.ts";
import { poolListResponse, poolResponse } from "../../schemas/api/pools.ts";
import {
  jettonAddressResponse,
  marketsResponse,
  routerListResponse,
  routerResponse,
} from "../../schemas/api/reference.ts";
import { liquiditySimulateResponse, swapSimulateResponse } from "../../schemas/api/simulate.ts";
import { actionTreeResponse, swapStatusResponse, txQueryResponse } from "../../schemas/api/transactions.ts";
import {
  feeVaultsResponse,
  lastTransactionsResponse,
  operationsResponse,
} from "../../schemas/api/wallets.ts";
import {
  type ApiDevnet,
  apiTime,
  assetAddress,
  fr,
  rawOf,
  startApiDevnet,
  TON_ADDRESS,
  truthField,
  walletTxOf,
} from "../helpers/api-devnet.ts";
import { request } from "../unit/api/harness.ts";
import { ohlcvCase, ROUTE_CASES, statsCases, tvlCases } from "../unit/api/routes-table.ts";

type Ctx = {
  env: ApiDevnet;
  client: StonApiClient;
  /** The trader with the most swaps, the LP (not the genesis one) with the most mints, the referrer with the most vault deposits. */
  trader: Address;
  lp: Address;
  referrer: Address;
  /** The trader's latest successful pool swap. */
  traderSwap: TruthRecord;
};
const test = anyTest as TestFn<Ctx>;

const SWAP_OK = SWAP_EXIT.swap_ok;

const most = <T>(items: readonly T[], key: (x: T) => string | null): string => {
  const counts = new Map<string, number>();
  for (const x of items) {
    const k = key(x);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (best === undefined) throw new Error("no candidate");
  return best[0];
};

test.before(async (t) => {
  const env = await startApiDevnet({ seed: 21, marketBlocks: 30 });
  const { world } = env.devnet;
  const poolSwaps = env.truth.filter((r) => r.type === "swap" && r.fields.pool !== null);
  const byRaw = (actors: readonly { address: Address }[], raw: string) =>
    actors.find((a) => rawOf(a.address) === raw)!.address;
  const traderRaw = most(poolSwaps, (r) => truthField(r, "sender") as string);
  const trader = byRaw(world.traders, traderRaw);
  const otherLps = new Set(world.lps.slice(1).map((a) => rawOf(a.address)));
  const lpRaw = most(
    env.truth.filter((r) => r.type === "liquidity_mint" && otherLps.has(truthField(r, "user") as string)),
    (r) => truthField(r, "user") as string,
  );
  const referrerRaw = most(
    env.truth.filter((r) => r.type === "vault_deposit"),
    (r) => truthField(r, "referrer") as string,
  );
  // A one-hop swap (a query id with a single pool leg), so its action tree has one action.
  const own = poolSwaps.filter((r) => truthField(r, "sender") === traderRaw);
  const traderSwap = own
    .filter((r) => r.fields.exit_code === SWAP_OK)
    .filter((r) => own.filter((x) => x.fields.query_id === r.fields.query_id).length === 1)
    .at(-1)!;
  t.context = {
    env,
    client: env.client,
    trader,
    lp: byRaw(world.lps, lpRaw),
    referrer: byRaw(world.referrers, referrerRaw),
    traderSwap,
  };
});
test.after.always((t) => t.context.env?.close());

/** The client's single-object getters hand a `null` field (unknown on the wire) over as `undefined`. */
const nullAsAbsent = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === null ? undefined : v])) as T;

const chainOf = (t: { context: Ctx }) => t.context.env.devnet.state;

/** What the chain says an owner holds of an asset (TON: the account balance). */
async function chainBalance(t: { context: Ctx }, owner: Address, symbol: string): Promise<bigint> {
  const { devnet } = t.context.env;
  if (symbol === TON_SYMBOL) return devnet.state.getBalance(owner);
  const wallet = await devnet.state.getJettonWalletAddress(devnet.actions.master(symbol), owner);
  return (await devnet.state.getJettonWalletData(wallet))?.balance ?? 0n;
}

const symbolOf = (t: { context: Ctx }, address: string): string => {
  const a = ASSETS.find((x) => assetAddress(t.context.env.devnet, x.symbol) === address);
  if (a === undefined) throw new Error(`not a devnet asset: ${address}`);
  return a.symbol;
};

test("the pipeline indexed the run without a pool-state mismatch", (t) => {
  t.deepEqual(
    t.context.env.warnings.map((w) => w.msg),
    [],
  );
  t.true(t.context.env.truth.filter((r) => r.type === "swap").length > 100);
});

test("routers and router: the devnet's six routers with their versions, types and pTON", async (t) => {
  const { client, env } = t.context;
  const { actions, world } = env.devnet;
  const expected = [...world.routers.values()].map((h) => {
    const v2 = h.key === "v1" ? null : V2_ROUTERS[h.key];
    // The facts show a router's pTON only through its TON pools (the stableswap router has none).
    const tonPool = env.devnet.pools.some(
      (p) => p.router === h.key && [p.token0, p.token1].includes(TON_SYMBOL),
    );
    const type = v2?.type ?? "constant_product";
    return {
      address: fr(h.address),
      majorVersion: v2 ? 2 : 1,
      minorVersion: v2 ? v2.minor : 0,
      routerType: {
        constant_product: "ConstantProduct",
        stableswap: "StableSwap",
        weighted_const_product: "WeightedConstProduct",
        weighted_stableswap: "WeightedStableSwap",
      }[type],
      poolCreationEnabled: true,
      // A router without a TON pool never showed its pTON in an operation: unknown (null), never invented.
      ptonMasterAddress: tonPool ? fr(h.ptonMinter) : null,
      ptonVersion: tonPool ? (v2 ? "v2_1" : "v1") : null,
      ptonWalletAddress: tonPool ? fr(actions.routerWallet(h.key, TON_SYMBOL)) : null,
    };
  });
  const byAddress = (a: { address: string }, b: { address: string }) => a.address.localeCompare(b.address);
  const routers = await client.getRouters();
  t.deepEqual([...routers].sort(byAddress), expected.sort(byAddress));
  for (const r of expected) t.deepEqual(await client.getRouter(r.address), nullAsAbsent(r));
  t.deepEqual(
    (await client.getRouters({ dexV2: false })).map((r) => r.address),
    [fr(world.routers.get("v1")!.address)],
  );
});

test("markets: one pair per traded asset pair of the devnet's pools", async (t) => {
  const { client, env } = t.context;
  const key = (a: string, b: string) => [a, b].sort().join("|");
  const expected = new Set(
    env.devnet.pools.map((p) => key(assetAddress(env.devnet, p.token0), assetAddress(env.devnet, p.token1))),
  );
  const pairs = await client.getSwapPairs();
  t.is(pairs.length, expected.size);
  t.deepEqual(pairs.map(([a, b]) => key(a, b)).sort(), [...expected].sort());
  const v1 = new Set(
    env.devnet.pools
      .filter((p) => p.router === "v1")
      .map((p) => key(assetAddress(env.devnet, p.token0), assetAddress(env.devnet, p.token1))),
  );
  t.deepEqual(
    (await client.getSwapPairs({ dexV2: false })).map(([a, b]) => key(a, b)).sort(),
    [...v1].sort(),
  );
});

test("assets: list and one asset carry every catalogue asset with its metadata (TON included)", async (t) => {
  const { client, env } = t.context;
  const expected = ASSETS.map((a) =>
    a.symbol === TON_SYMBOL
      ? { contractAddress: TON_ADDRESS, symbol: "TON", displayName: "Toncoin", decimals: 9, kind: "Ton" }
      : {
          contractAddress: assetAddress(env.devnet, a.symbol),
          symbol: a.symbol,
          displayName: a.name,
          imageUrl: `https://devnet.tondex.invalid/assets/${a.symbol}.png`,
          decimals: a.decimals,
          kind: "Jetton",
        },
  ).sort((a, b) => a.contractAddress.localeCompare(b.contractAddress));
  const pick = (a: Record<string, unknown>) =>
    Object.fromEntries(
      ["contractAddress", "symbol", "displayName", "imageUrl", "decimals", "kind"]
        .filter((k) => a[k] !== undefined)
        .map((k) => [k, a[k]]),
    );
  const list = (await client.getAssets()).map(pick);
  t.deepEqual(
    list.sort((a, b) => String(a.contractAddress).localeCompare(String(b.contractAddress))),
    expected,
  );
  for (const e of expected.filter((x) => ["TON", "dUSD", "dETH", "dBTC"].includes(x.symbol))) {
    t.deepEqual(pick(await client.getAsset(e.contractAddress)), e);
  }
});

test("assets query and search: wallet balances from the chain, search by symbol, unconditional assets", async (t) => {
  const { client, env, referrer } = t.context;
  const held: [string, string][] = [];
  for (const a of ASSETS) {
    const balance = await chainBalance(t, referrer, a.symbol);
    if (balance > 0n) held.push([a.symbol, `${balance}`]);
  }
  t.true(held.length < ASSETS.length, "the referrer holds only some assets: the condition filters");
  const withBalance = await client.queryAssets({
    condition: "asset:wallet_has_balance",
    walletAddress: fr(referrer),
  });
  t.deepEqual(withBalance.map((a) => [a.meta?.symbol ?? "", a.balance ?? ""]).sort(), held.sort());
  const search = await client.searchAssets({ searchString: "dUS", condition: "!asset:liquidity:no" });
  t.deepEqual(search.map((a) => a.meta?.symbol).sort(), ["dUSD", "dUSDC"]);
  const dBtc = assetAddress(env.devnet, "dBTC");
  const unconditional = await client.queryAssets({ condition: "false", unconditionalAssets: [dBtc] });
  t.deepEqual(
    unconditional.map((a) => [a.contractAddress, a.meta?.decimals]),
    [[dBtc, 8]],
  );
});

test("jetton wallet address: the master's get_wallet_address for the trader", async (t) => {
  const { client, env, trader } = t.context;
  for (const symbol of ["dUSD", "dNOT", "stTON"]) {
    const master = env.devnet.actions.master(symbol);
    const expected = fr(await chainOf(t).getJettonWalletAddress(master, trader));
    t.is(
      await client.getJettonWalletAddress({ jettonAddress: fr(master), ownerAddress: fr(trader) }),
      expected,
    );
  }
});

/** PoolInfo fields a pool's contract can vouch for, from its get-methods. */
async function chainPool(t: { context: Ctx }, p: PoolHandle) {
  const { devnet } = t.context.env;
  const s = (await readPool(devnet.state, p)) as PoolState;
  const hasAmp = s.type === "v2_stableswap" || s.type === "v2_weighted_stableswap";
  const hasW0 = s.type === "v2_weighted_const_product" || s.type === "v2_weighted_stableswap";
  return {
    address: fr(p.address),
    routerAddress: fr(devnet.actions.handle(p.router).address),
    token0Address: assetAddress(devnet, p.token0),
    token1Address: assetAddress(devnet, p.token1),
    reserve0: `${s.reserve0}`,
    reserve1: `${s.reserve1}`,
    lpTotalSupply: `${s.lpSupply}`,
    lpFee: `${s.lpFeeBps}`,
    protocolFee: `${s.protocolFeeBps}`,
    refFee: `${s.refFeeBps}`,
    // Not in the facts (a get-method value the tracked states do not carry): unknown, null.
    protocolFeeAddress: null,
    collectedToken0ProtocolFee: `${s.collectedProtocolFee0}`,
    collectedToken1ProtocolFee: `${s.collectedProtocolFee1}`,
    deprecated: false,
    ...(hasAmp ? { amp: `${s.amp}` } : {}),
    ...(s.type === "v2_weighted_stableswap" ? { rate: `${s.rate}` } : {}),
    ...(hasW0 ? { w0: `${s.w0}` } : {}),
  };
}

test("pools: list, one, by market and query equal the pool contracts' state", async (t) => {
  const { client, env } = t.context;
  const { devnet } = env;
  const expected = await Promise.all(devnet.pools.map((p) => chainPool(t, p)));
  const byAddress = (a: { address: string }, b: { address: string }) => a.address.localeCompare(b.address);
  t.deepEqual([...(await client.getPools())].sort(byAddress), [...expected].sort(byAddress));
  t.deepEqual(
    (await client.getPools({ dexV2: false })).map((p) => p.address).sort(),
    devnet.pools
      .filter((p) => p.router === "v1")
      .map((p) => fr(p.address))
      .sort(),
  );
  for (const e of expected) t.deepEqual(await client.getPool(e.address), nullAsAbsent(e));
  const ton = assetAddress(devnet, TON_SYMBOL);
  const usd = assetAddress(devnet, "dUSD");
  const tonUsd = expected.filter(
    (p) => [p.token0Address, p.token1Address].sort().join() === [ton, usd].sort().join(),
  );
  t.is(tonUsd.length, 3, "v1, v2.1 and v2.2 constant product");
  t.deepEqual(
    [...(await client.getPoolsByAssetPair({ asset0Address: usd, asset1Address: ton }))].sort(byAddress),
    tonUsd.sort(byAddress),
  );
  const ston = assetAddress(devnet, "dSTON");
  t.deepEqual(
    (await client.queryPools({ condition: "!deprecated", searchTerms: ["dSTON"] }))
      .map((p) => p.address)
      .sort(),
    expected
      .filter((p) => p.token0Address === ston || p.token1Address === ston)
      .map((p) => p.address)
      .sort(),
  );
});

test("simulations through the client equal dex/amm on the pools' chain state", async (t) => {
  const { client, env, lp } = t.context;
  const { devnet } = env;
  const ton = assetAddress(devnet, TON_SYMBOL);
  const usd = assetAddress(devnet, "dUSD");
  // Best pool for TON → dUSD: the largest output among the three pools of the pair.
  const tonUsd = devnet.pools.filter(
    (p) => [p.token0, p.token1].sort().join() === ["TON", "dUSD"].sort().join(),
  );
  const amount = 25_000_000_000n;
  const quotes = await Promise.all(
    tonUsd.map(async (p) => {
      const s = (await readPool(devnet.state, p))!;
      return { p, out: swap(s, { direction: p.token0 === TON_SYMBOL ? "0to1" : "1to0", amountIn: amount }) };
    }),
  );
  const best = quotes.sort((a, b) => (a.out.amountOut > b.out.amountOut ? -1 : 1))[0]!;
  const sim = await client.simulateSwap({
    offerAddress: ton,
    askAddress: usd,
    offerUnits: `${amount}`,
    slippageTolerance: "0.01",
  });
  t.like(sim, {
    poolAddress: fr(best.p.address),
    routerAddress: fr(devnet.actions.handle(best.p.router).address),
    offerUnits: `${amount}`,
    askUnits: `${best.out.amountOut}`,
    minAskUnits: `${(best.out.amountOut * 99n) / 100n}`,
  });
  // Reverse on a stableswap pool: the least input that pays the wanted output.
  const stable = devnet.pools.find((p) => p.router === "stable_v2_2" && p.token0 !== TON_SYMBOL)!;
  const ss = (await readPool(devnet.state, stable))!;
  const want = ss.reserve1 / 500n;
  const rev = reverseSwap(ss, { direction: "0to1", targetOut: want });
  const reverse = await client.simulateReverseSwap({
    offerAddress: assetAddress(devnet, stable.token0),
    askAddress: assetAddress(devnet, stable.token1),
    askUnits: `${want}`,
    slippageTolerance: "0.005",
    poolAddress: fr(stable.address),
  });
  const forward = swap(ss, { direction: "0to1", amountIn: rev.amountIn });
  t.like(reverse, { offerUnits: `${rev.amountIn}`, askUnits: `${forward.amountOut}` });
  t.true(forward.amountOut >= want);
  // Balanced provision for the LP on a v2 pool: the other side at the pool ratio, LP as dex/amm mints it.
  const pool = devnet.pools.find(
    (p) => p.router === "cpi_v2_2" && [p.token0, p.token1].sort().join() === "dDOGS,dNOT",
  )!;
  const ps = (await readPool(devnet.state, pool))!;
  const a0 = ps.reserve0 / 1000n;
  const a1 = (a0 * ps.reserve1 + ps.reserve0 - 1n) / ps.reserve0;
  const lpAccount = await devnet.state.getLpAccountAddress(pool.address, lp);
  const held = await devnet.state.getLpAccountData(lpAccount);
  const minted = provide(ps, {
    amount0: a0 + (held?.amount0 ?? 0n),
    amount1: a1 + (held?.amount1 ?? 0n),
    minLpOut: 1n,
  });
  const balanced = await client.simulateLiquidityProvision({
    provisionType: "Balanced",
    tokenA: assetAddress(devnet, pool.token0),
    tokenB: assetAddress(devnet, pool.token1),
    tokenAUnits: `${a0}`,
    poolAddress: fr(pool.address),
    slippageTolerance: "0.01",
    walletAddress: fr(lp),
  });
  t.like(balanced, {
    tokenBUnits: `${a1}`,
    lpAccountAddress: fr(lpAccount),
    estimatedLpUnits: `${minted.lpMinted}`,
    lpTotalSupply: `${minted.pool.lpSupply}`,
  });
  t.is(minted.status, "minted");
  // Initial: a pair no pool trades; the v2.2 constant-product router would deploy it at its predicted address.
  const router = devnet.actions.handle("cpi_v2_2");
  const [fish, cati] = ["dFISH", "dCATI"];
  const predicted = await devnet.state.getPoolAddress(
    router.address,
    devnet.actions.routerWallet("cpi_v2_2", fish),
    devnet.actions.routerWallet("cpi_v2_2", cati),
  );
  const initial = await client.simulateLiquidityProvision({
    provisionType: "Initial",
    tokenA: assetAddress(devnet, fish),
    tokenB: assetAddress(devnet, cati),
    tokenAUnits: "4000000000000",
    tokenBUnits: "300000000000",
    slippageTolerance: "0.01",
  });
  t.like(initial, { poolAddress: fr(predicted), routerAddress: fr(router.address) });
  t.true(BigInt(initial.estimatedLpUnits) > 0n);
});

test("swap status and transaction query: the trader's swap as the devnet executed it", async (t) => {
  const { client, env, trader, traderSwap: s } = t.context;
  const queryId = s.fields.query_id as bigint;
  const router = s.fields.router as Address;
  const status = await client.getSwapStatus({
    routerAddress: fr(router),
    ownerAddress: fr(trader),
    queryId: `${queryId}`,
  });
  const offer = symbolOf(t, poolAssetOf(t, s, "offer"));
  const ask = symbolOf(t, poolAssetOf(t, s, "ask"));
  t.deepEqual(status, {
    "@type": "Found",
    address: fr(trader),
    queryId: `${queryId}`,
    exitCode: "swap_ok",
    coins: `${s.fields.amount_out}`,
    logicalTime: `${s.lt}`,
    txHash: s.tx_hash,
    balanceDeltas: JSON.stringify({
      [assetAddress(env.devnet, offer)]: `-${s.fields.amount_in}`,
      [assetAddress(env.devnet, ask)]: `${s.fields.amount_out}`,
    }),
  });
  const unknownId = 987_654_321n;
  t.false(env.truth.some((r) => r.fields.query_id === unknownId));
  t.deepEqual(
    await client.getSwapStatus({
      routerAddress: fr(router),
      ownerAddress: fr(trader),
      queryId: `${unknownId}`,
    }),
    { "@type": "NotFound" },
  );
  const walletTx = walletTxOf(env.blocks, trader, queryId)!;
  const expected = { lt: Number(walletTx.lt), hash: walletTx.hash, contractAddress: fr(trader) };
  const since = new Date(env.blocks[0]!.utime * 1000);
  const byQuery = await client.queryTransactions({
    walletAddress: fr(trader),
    queryId: Number(queryId),
    minTxTimestamp: since,
  });
  t.deepEqual(byQuery.txId, expected);
  const extHash = Buffer.from(walletTx.in_msg!.hash, "hex").toString("base64");
  t.deepEqual(
    (await client.queryTransactions({ extMsgHash: extHash, minTxTimestamp: since })).txId,
    expected,
  );
  t.deepEqual(
    await client.queryTransactions({
      walletAddress: fr(trader),
      queryId: Number(unknownId),
      minTxTimestamp: since,
    }),
    {},
  );
});

/** The API asset address of a swap side, from the pool's token order. */
function poolAssetOf(t: { context: Ctx }, s: TruthRecord, side: "offer" | "ask"): string {
  const { devnet } = t.context.env;
  const pool = devnet.pools.find((p) => rawOf(p.address) === truthField(s, "pool"))!;
  const wallet = truthField(s, `${side}.router_wallet`);
  return assetAddress(devnet, rawOf(pool.wallet0) === wallet ? pool.token0 : pool.token1);
}

test("action tree of the trader's swap: one swap action, completed as executed", async (t) => {
  const { env, trader, traderSwap: s } = t.context;
  const walletTx = walletTxOf(env.blocks, trader, s.fields.query_id as bigint)!;
  const res = await request(env.api, "GET", `/v1/transactions/${walletTx.hash}/action_tree`);
  t.is(res.status, 200, res.text);
  const tree = actionTreeResponse.parse(res.json);
  t.true(tree.tx_chain_completed);
  t.deepEqual(tree.initial_tx_id, {
    lt: Number(walletTx.lt),
    hash: walletTx.hash,
    contract_address: fr(trader),
  });
  t.is(tree.actions.length, 1);
  const action = tree.actions[0]!;
  t.like(action, {
    "@type": "swap",
    contract_major_version: s.fields.dex as string,
    destination: fr(s.fields.pool as Address),
    status: {
      "@type": "completed",
      success: true,
      exit_code: "swap_ok",
      tx_id: { lt: Number(s.lt), hash: s.tx_hash, contract_address: fr(s.fields.pool as Address) },
      offer_jetton_wallet: fr(s.fields["offer.router_wallet"] as Address),
      offer_jetton_amount: `${s.fields.amount_in}`,
      ask_jetton_wallet: fr(s.fields["ask.router_wallet"] as Address),
      ask_jetton_amount: `${s.fields.amount_out}`,
    },
  });
  t.is(action.tx_payload.query_id, Number(s.fields.query_id));
  t.is(action.tx_payload.min_ask_amount, `${s.fields.min_out}`);
});

test("wallet assets: every catalogue asset with the trader's balance on the chain", async (t) => {
  const { client, env, trader } = t.context;
  const assets = await client.getWalletAssets(fr(trader));
  t.is(assets.length, ASSETS.length);
  for (const a of assets) {
    t.is(a.balance, `${await chainBalance(t, trader, symbolOf(t, a.contractAddress))}`, a.symbol);
  }
  for (const symbol of ["dUSD", "TON"]) {
    const one = await client.getWalletAsset({
      walletAddress: fr(trader),
      assetAddress: assetAddress(env.devnet, symbol),
    });
    t.is(one.balance, `${await chainBalance(t, trader, symbol)}`);
    if (symbol !== TON_SYMBOL) {
      const wallet = await chainOf(t).getJettonWalletAddress(env.devnet.actions.master(symbol), trader);
      t.is(one.walletAddress, fr(wallet));
    }
  }
});

test("wallet pools: the LP's positions equal its LP wallets and LpAccounts on the chain", async (t) => {
  const { client, env, lp } = t.context;
  const chain = chainOf(t);
  const expected: Record<string, unknown>[] = [];
  for (const p of env.devnet.pools) {
    const lpWallet = await chain.getJettonWalletAddress(p.address, lp);
    const balance = (await chain.getJettonWalletData(lpWallet))?.balance ?? 0n;
    const lpAccount = await chain.getLpAccountAddress(p.address, lp);
    const waiting = await chain.getLpAccountData(lpAccount);
    const [w0, w1] = [waiting?.amount0 ?? 0n, waiting?.amount1 ?? 0n];
    if (balance + w0 + w1 === 0n) continue;
    expected.push({
      ...(await chainPool(t, p)),
      lpWalletAddress: fr(lpWallet),
      lpBalance: `${balance}`,
      lpAccountAddress: fr(lpAccount),
      token0Balance: `${w0}`,
      token1Balance: `${w1}`,
    });
  }
  t.true(expected.length > 0);
  const byAddress = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.address).localeCompare(String(b.address));
  const pools = await client.getWalletPools({ walletAddress: fr(lp) });
  t.deepEqual([...pools].sort(byAddress) as unknown[], expected.sort(byAddress));
  t.deepEqual(
    await client.getWalletPool({ walletAddress: fr(lp), poolAddress: String(expected[0]!.address) }),
    nullAsAbsent(expected[0]!),
  );
  // A pool where the LP has nothing: zero balances, the chain's addresses.
  const none = env.devnet.pools.find((p) => !expected.some((e) => e.address === fr(p.address)))!;
  t.like(await client.getWalletPool({ walletAddress: fr(lp), poolAddress: fr(none.address) }), {
    lpBalance: "0",
    lpWalletAddress: fr(await chain.getJettonWalletAddress(none.address, lp)),
    lpAccountAddress: fr(await chain.getLpAccountAddress(none.address, lp)),
  });
});

test("wallet operations: the trader's swaps are the pool swaps the devnet executed for it", async (t) => {
  const { client, env, trader } = t.context;
  const raw = rawOf(trader);
  const truth = env.truth.filter(
    (r) => r.type === "swap" && r.fields.pool !== null && truthField(r, "sender") === raw,
  );
  t.true(truth.length >= 3, `only ${truth.length} swaps`);
  const ops = await client.getWalletOperations({
    walletAddress: fr(trader),
    since: new Date(env.blocks[0]!.utime * 1000),
    until: new Date((env.devnet.world.chain.utime + 1) * 1000),
    opType: "Swap",
  });
  const got = ops.map((o) => {
    const r = truth.find((x) => x.tx_hash === o.operation.poolTxHash);
    const offerIs0 = r !== undefined && o.operation.asset0Address === poolAssetOf(t, r, "offer");
    return {
      poolTxHash: o.operation.poolTxHash,
      poolTxLt: o.operation.poolTxLt,
      poolAddress: o.operation.poolAddress,
      exitCode: o.operation.exitCode,
      success: o.operation.success,
      offerAmount: offerIs0 ? o.operation.asset0Amount : o.operation.asset1Amount,
      walletAddress: o.operation.walletAddress,
    };
  });
  const expected = truth.map((r) => ({
    poolTxHash: r.tx_hash,
    poolTxLt: Number(r.lt),
    poolAddress: fr(r.fields.pool as Address),
    exitCode: describeExitCode(r.fields.exit_code as number, r.fields.dex as "v1" | "v2").name,
    success: r.fields.exit_code === SWAP_OK,
    offerAmount: `${r.fields.amount_in}`,
    walletAddress: fr(trader),
  }));
  t.deepEqual(got, expected);
});

test("wallet transactions/last: the trader's latest transactions, newest first", async (t) => {
  const { env, trader } = t.context;
  const raw = rawOf(trader);
  const own = env.blocks
    .flatMap((b) => b.transactions)
    .filter((tx) => tx.account.toUpperCase() === raw)
    .sort((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? 1 : -1))
    .slice(0, 4);
  const res = await request(env.api, "GET", `/v1/wallets/${fr(trader)}/transactions/last?limit=4`);
  t.is(res.status, 200, res.text);
  const body = lastTransactionsResponse.parse(res.json);
  t.deepEqual(
    body.tx_list,
    own.map((tx) => ({ lt: Number(tx.lt), hash: tx.hash, contract_address: fr(trader) })),
  );
});

test("fee vaults: the referrer's vaults hold what the vault contracts hold", async (t) => {
  const { client, env, referrer } = t.context;
  const chain = chainOf(t);
  const raw = rawOf(referrer);
  const vaults = new Map<string, TruthRecord>();
  for (const r of env.truth) {
    if (r.type === "vault_deposit" && truthField(r, "referrer") === raw) vaults.set(r.account, r);
  }
  t.true(vaults.size > 0);
  const expected = [];
  for (const r of vaults.values()) {
    const vault = r.fields.vault as Address;
    const data = (await chain.getVaultData(vault))!;
    const router = [...env.devnet.world.routers.values()].find((h) => h.address.equals(data.router))!;
    const pton = env.devnet.actions.routerWallet(router.key, TON_SYMBOL);
    const asset = data.tokenWallet.equals(pton)
      ? TON_ADDRESS
      : fr((await chain.getJettonWalletData(data.tokenWallet))!.master);
    expected.push({
      assetAddress: asset,
      balance: `${data.depositedAmount}`,
      routerAddress: fr(data.router),
      vaultAddress: fr(vault),
    });
  }
  const byVault = (a: { vaultAddress: string }, b: { vaultAddress: string }) =>
    a.vaultAddress.localeCompare(b.vaultAddress);
  t.deepEqual(
    [...(await client.getWalletVaultsFee({ walletAddress: fr(referrer) }))].sort(byVault),
    expected.sort(byVault),
  );
});

/** One request per route and alias (the same set as the unit schema test), with real devnet addresses. */
function devnetRoutes(
  c: Ctx,
): { method: "GET" | "POST"; template: string; path: string; body?: unknown; schema: z.ZodTypeAny }[] {
  const { devnet, blocks } = c.env;
  const w = fr(c.trader);
  const lp = fr(c.lp);
  const ton = assetAddress(devnet, TON_SYMBOL);
  const usd = assetAddress(devnet, "dUSD");
  const pool = devnet.pools.find((p) => p.router === "cpi_v2_2" && [p.token0, p.token1].includes("dUSD"))!;
  const router = fr(devnet.actions.handle(pool.router).address);
  const s = c.traderSwap;
  const walletTx = walletTxOf(blocks, c.trader, s.fields.query_id as bigint)!;
  const time = apiTime;
  const since = time(blocks[0]!.utime);
  const until = time(devnet.world.chain.utime + 1);
  const swapQuery = `offer_address=${ton}&ask_address=${usd}&units=1000000000&slippage_tolerance=0.01`;
  const liquidity = `provision_type=Balanced&token_a=${assetAddress(devnet, pool.token0)}&token_b=${assetAddress(devnet, pool.token1)}&token_a_units=1000000&pool_address=${fr(pool.address)}&slippage_tolerance=0.01&wallet_address=${lp}`;
  const catalog = {
    condition: "asset:wallet_has_balance | asset:liquidity:no",
    search_terms: ["dUS"],
    limit: 10,
  };
  return [
    { method: "GET", template: "/v1/routers", path: "/v1/routers?dex_v2=true", schema: routerListResponse },
    {
      method: "GET",
      template: "/v1/routers/{address}",
      path: `/v1/routers/${router}`,
      schema: routerResponse,
    },
    { method: "GET", template: "/v1/markets", path: "/v1/markets", schema: marketsResponse },
    { method: "GET", template: "/v1/assets", path: "/v1/assets", schema: assetListResponse },
    { method: "GET", template: "/v1/assets/{address}", path: `/v1/assets/${usd}`, schema: assetResponse },
    {
      method: "POST",
      template: "/v1/assets/query",
      path: "/v1/assets/query",
      body: { ...catalog, wallet_address: w },
      schema: assetV2ListResponse,
    },
    {
      method: "POST",
      template: "/v1/assets/search",
      path: "/v1/assets/search?search_string=dST&condition=!asset:liquidity:no",
      schema: assetV2ListResponse,
    },
    {
      method: "GET",
      template: "/v1/jetton/{address}/address",
      path: `/v1/jetton/${usd}/address?owner_address=${w}`,
      schema: jettonAddressResponse,
    },
    { method: "GET", template: "/v1/pools", path: "/v1/pools", schema: poolListResponse },
    {
      method: "GET",
      template: "/v1/pools/{address}",
      path: `/v1/pools/${fr(pool.address)}`,
      schema: poolResponse,
    },
    {
      method: "GET",
      template: "/v1/pools/by_market/{asset0}/{asset1}",
      path: `/v1/pools/by_market/${ton}/${usd}`,
      schema: poolListResponse,
    },
    {
      method: "POST",
      template: "/v1/pools/query",
      path: "/v1/pools/query?search_term=dUSD&dex_v2=true",
      schema: poolListResponse,
    },
    {
      method: "POST",
      template: "/v1/pools/query",
      path: "/v1/pools/query",
      body: { condition: "!deprecated", search_terms: ["TON"] },
      schema: poolListResponse,
    },
    {
      method: "POST",
      template: "/v1/pool/query",
      path: "/v1/pool/query?condition=!deprecated",
      schema: poolListResponse,
    },
    {
      method: "POST",
      template: "/v1/swap/simulate",
      path: `/v1/swap/simulate?${swapQuery}`,
      schema: swapSimulateResponse,
    },
    {
      method: "POST",
      template: "/v1/reverse_swap/simulate",
      path: `/v1/reverse_swap/simulate?${swapQuery}`,
      schema: swapSimulateResponse,
    },
    {
      method: "POST",
      template: "/v1/liquidity_provision/simulate",
      path: `/v1/liquidity_provision/simulate?${liquidity}`,
      schema: liquiditySimulateResponse,
    },
    {
      method: "GET",
      template: "/v1/swap/status",
      path: `/v1/swap/status?router_address=${fr(s.fields.router as Address)}&owner_address=${w}&query_id=${s.fields.query_id}`,
      schema: swapStatusResponse,
    },
    {
      method: "GET",
      template: "/v1/transactions/query",
      path: `/v1/transactions/query?wallet_address=${w}&query_id=${s.fields.query_id}&min_tx_timestamp=${since}`,
      schema: txQueryResponse,
    },
    {
      method: "POST",
      template: "/v1/transaction/query",
      path: "/v1/transaction/query",
      body: { ext_msg_hash: walletTx.in_msg!.hash, min_tx_timestamp: since },
      schema: txQueryResponse,
    },
    {
      method: "GET",
      template: "/v1/transactions/{hash}/action_tree",
      path: `/v1/transactions/${walletTx.hash}/action_tree`,
      schema: actionTreeResponse,
    },
    {
      method: "POST",
      template: "/v1/transaction/action_tree",
      path: `/v1/transaction/action_tree?hash=${walletTx.hash}`,
      schema: actionTreeResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/assets",
      path: `/v1/wallets/${w}/assets`,
      schema: assetListResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/assets/{asset}",
      path: `/v1/wallets/${w}/assets/${usd}`,
      schema: assetResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/pools",
      path: `/v1/wallets/${lp}/pools`,
      schema: poolListResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/pools/{pool}",
      path: `/v1/wallets/${lp}/pools/${fr(pool.address)}`,
      schema: poolResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/operations",
      path: `/v1/wallets/${w}/operations?since=${since}&until=${until}`,
      schema: operationsResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/transactions/last",
      path: `/v1/wallets/${w}/transactions/last?limit=5`,
      schema: lastTransactionsResponse,
    },
    {
      method: "GET",
      template: "/v1/wallets/{wallet}/fee_vaults",
      path: `/v1/wallets/${fr(c.referrer)}/fee_vaults`,
      schema: feeVaultsResponse,
    },
    ...statsCases(`since=${since}&until=${until}`, fr(c.referrer)),
    ohlcvCase(fr(pool.address)),
    ...tvlCases(fr(pool.address)),
    ...["/export/cmc/v1", "/export/aggregator_a/v1"].map((path) => ({
      method: "GET" as const,
      template: path,
      path,
      schema: cmcResponse,
    })),
    {
      method: "GET",
      template: "/export/coingecko/v1/pairs",
      path: "/export/coingecko/v1/pairs",
      schema: geckoPairsResponse,
    },
    {
      method: "GET",
      template: "/export/coingecko/v1/tickers",
      path: "/export/coingecko/v1/tickers",
      schema: geckoTickersResponse,
    },
    {
      method: "GET",
      template: "/export/coingecko/v1/historical_trades",
      path: `/export/coingecko/v1/historical_trades?ticker_id=${fr(pool.address)}&limit=10`,
      schema: geckoTradesResponse,
    },
    ...["/export/dexscreener/v1", "/export/aggregator_b/v1"].flatMap((base) => [
      {
        method: "GET" as const,
        template: `${base}/latest-block`,
        path: `${base}/latest-block`,
        schema: latestBlockResponse,
      },
      {
        method: "GET" as const,
        template: `${base}/asset/{address}`,
        path: `${base}/asset/${usd}`,
        schema: feedAssetResponse,
      },
      {
        method: "GET" as const,
        template: `${base}/pair/{address}`,
        path: `${base}/pair/${fr(pool.address)}`,
        schema: pairResponse,
      },
      {
        method: "GET" as const,
        // The first blocks: stored (the feed serves up to its latest block, which trails the index).
        template: `${base}/events`,
        path: `${base}/events?fromBlock=${blocks[0]!.mc_seqno}&toBlock=${blocks[0]!.mc_seqno + 3}`,
        schema: eventsResponse,
      },
    ]),
  ];
}

test("every route answers devnet requests with a body its zod response schema accepts", async (t) => {
  const routes = devnetRoutes(t.context);
  t.deepEqual(
    [...new Set(routes.map((r) => `${r.method} ${r.template}`))].sort(),
    [...new Set(ROUTE_CASES.map((r) => `${r.method} ${r.template}`))].sort(),
    "the same routes as the unit schema test",
  );
  for (const r of routes) {
    const res = await request(t.context.env.api, r.method, r.path, r.body);
    t.is(res.status, 200, `${r.method} ${r.path}: ${res.text}`);
    const parsed = r.schema.safeParse(res.json);
    t.true(
      parsed.success,
      `${r.method} ${r.template}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`,
    );
    // Non-trivial answers: lists are not empty, lookups found something.
    const body = res.json as Record<string, unknown>;
    for (const key of [
      "router_list",
      "asset_list",
      "pool_list",
      "operations",
      "tx_list",
      "vault_list",
      "pairs",
    ]) {
      if (Array.isArray(body[key])) t.true((body[key] as unknown[]).length > 0, `${r.path}: empty ${key}`);
    }
    if (r.template.includes("status")) t.is(body["@type"], "Found");
    if (r.template.includes("query") && r.schema === txQueryResponse) t.truthy(body.tx_id);
  }
});
