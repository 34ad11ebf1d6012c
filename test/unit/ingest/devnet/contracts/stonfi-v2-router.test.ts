/**
 * The devnet STON.fi v2 router and pool get-methods as the real @ston-fi/sdk and dex/chain-state read them
 * (contracts.md §3.10), for every router type in both builds, and the router's own refusals and the lock
 * switches (§3.5, §3.7, §3.8): same offer and ask wallet, too little gas, a payload without a reference,
 * a locked router, a locked pool. Each trace: (a) every message decodes, (c) classifier = ground truth.
 */
import { Address, beginCell, type Cell, type TupleItem } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import { swap } from "../../../../../dex/amm/index.ts";
import { addressArg } from "../../../../../dex/chain-state.ts";
import { encodeJettonTransfer, STONFI_V2_OP } from "../../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../../dex/exit-codes.ts";
import { jettonWalletAddress } from "../../../../../ingest/devnet/contracts/jetton/index.ts";
import {
  V2_LP_ACCOUNT_CODE,
  V2_LP_WALLET_CODE,
  V2_POOL_CODE,
  V2_ROUTER_TYPES,
  V2_VAULT_CODE,
  type V2Minor,
  type V2RouterType,
  v2LpAccountAddress,
  v2LpWalletAddress,
  v2PoolAddress,
  v2UpdatePoolStatusBody,
} from "../../../../../ingest/devnet/contracts/stonfi-v2/index.ts";
import { comparable } from "../../../../helpers/truth.ts";
import {
  balanceOf,
  checkHistory,
  checkTrace,
  createWorld,
  isToken0,
  MILLI,
  paramsFor,
  provideTx,
  readPool,
  seed,
  swapTx,
  TON,
  type World,
} from "../../../../helpers/truth-v2.ts";

const ALL: [V2RouterType, V2Minor][] = V2_ROUTER_TYPES.flatMap((type) => [
  [type, 1],
  [type, 2],
]) as [V2RouterType, V2Minor][];

const flow = (
  name: string,
  exec: (t: ExecutionContext, type: V2RouterType, minor: V2Minor) => Promise<void>,
) =>
  test.macro<[V2RouterType, V2Minor]>({ exec, title: (_p, type, minor) => `${type} v2.${minor}: ${name}` });

const exitOf = (w: World, address: Address, method: string, args: TupleItem[]) =>
  w.chain.runGetMethod(address, method, args).exitCode;

const routerGetters = flow("router get-methods", async (t, type, minor) => {
  const w = createWorld(type, minor);
  t.deepEqual(await w.sdk.getRouterVersion(), { major: 2, minor, development: "release" });
  const data = await w.state.getV2RouterData(w.router);
  t.deepEqual(
    [data?.id, data?.dexType, data?.isLocked, data?.admin.equals(w.admin)],
    [7n, type, false, true],
  );
  t.deepEqual(
    [data?.poolCode, data?.lpWalletCode, data?.lpAccountCode, data?.vaultCode].map((c) =>
      c?.hash().toString("hex"),
    ),
    [V2_POOL_CODE[type], V2_LP_WALLET_CODE, V2_LP_ACCOUNT_CODE, V2_VAULT_CODE].map((c) =>
      c.hash().toString("hex"),
    ),
  );
  t.is((await w.sdk.getRouterData()).dexType, type);
  const [a, b] = [w.routerWallet(w.A), w.routerWallet(w.B)];
  const expected = v2PoolAddress(w.router, a, b, type);
  t.true((await w.sdk.getPoolAddress({ token0: a, token1: b })).equals(expected));
  t.true((await w.sdk.getPoolAddress({ token0: b, token1: a })).equals(expected));
  t.true((await w.sdk.getPoolAddressByJettonMinters({ token0: w.A, token1: w.B })).equals(expected));
  t.is(exitOf(w, w.router, "get_pool_address", [addressArg(a), addressArg(a)]), 86);
  const masterchain = new Address(-1, a.hash);
  t.is(exitOf(w, w.router, "get_pool_address", [addressArg(a), addressArg(masterchain)]), 85);
  checkHistory(t, w);
});

const poolGetters = flow("pool, LP wallet and LpAccount get-methods", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.A, w.B);
  const sdkPool = w.pool(pool);
  t.is(await sdkPool.getPoolType(), type);
  const data = await sdkPool.getPoolData();
  const engine = await readPool(w, pool);
  t.deepEqual(
    [data.reserve0, data.reserve1, data.totalSupplyLP, data.lpFee, data.protocolFee, data.isLocked],
    [engine.reserve0, engine.reserve1, engine.lpSupply, 20n, 10n, false],
  );
  t.true(data.routerAddress.equals(w.router));
  const params = paramsFor(w, w.A);
  const raw = await w.state.getV2PoolData(pool);
  if (params?.poolType === "stableswap") t.is(raw?.amp, 200n);
  if (params?.poolType === "weighted_stableswap") {
    t.deepEqual([raw?.amp, raw?.rateSetter?.equals(w.admin)], [params.amp, true]);
    t.true((raw?.rate ?? 0n) > 0n, "the first deposit set the rate");
  }
  const jetton = await sdkPool.getJettonData();
  t.deepEqual([jetton.totalSupply, jetton.adminAddress?.equals(w.router)], [engine.lpSupply, true]);
  const uri = jetton.contentRaw.beginParse().skip(8).loadStringTail();
  t.is(uri, `https://meta.ston.fi/lp/v1/0:${pool.hash.toString("hex").toUpperCase()}.json`);
  const lpWallet = await sdkPool.getWalletAddress(w.alice);
  t.true(lpWallet.equals(v2LpWalletAddress(w.alice, pool)));
  const lp = await w.state.getJettonWalletData(lpWallet);
  t.deepEqual(
    [
      lp?.balance,
      lp?.owner.equals(w.alice),
      lp?.master.equals(pool),
      lp?.walletCode.equals(V2_LP_WALLET_CODE),
    ],
    [engine.lpSupply - 1001n, true, true, true],
  );
  const lpAccount = await sdkPool.getLpAccountAddress({ ownerAddress: w.bob });
  t.true(lpAccount.equals(v2LpAccountAddress(w.bob, pool)));
  t.is(await w.state.getLpAccountData(lpAccount), null, "never deployed");
  checkHistory(t, w);
});

/** A refusal by the router: the offered jettons come back with the exit code, no pool is touched. */
async function refused(
  t: ExecutionContext,
  w: World,
  transfer: { to: Address; value: bigint; body: Cell },
  code: number,
  isSwap: boolean,
) {
  const a = await balanceOf(w, w.alice, w.A);
  const trace = w.send(w.alice, [transfer]);
  checkTrace(t, trace);
  t.is(await balanceOf(w, w.alice, w.A), a, "refunded");
  const refund = trace.txs.find((x) => comparable(x.account) === comparable(w.router))?.out_msgs[0];
  t.is(refund?.destination, comparable(w.routerWallet(w.A)) as string);
  t.deepEqual(
    trace.truth.map((r) => [r.type, r.fields.pool, r.fields.exit_code]),
    isSwap ? [["swap", null, code]] : [],
  );
}

const refusals = flow(
  "router refusals: same token, low gas, no payload ref, router locked",
  async (t, type, minor) => {
    const w = createWorld(type, minor);
    await seed(w);
    const same = await swapTx(w, w.alice, w.A, 10n * TON, w.A, { queryId: 500n });
    await refused(t, w, { ...same, body: same.body! }, STONFI_EXIT_CODE.transfer_bounce_invalid_pool, true);
    const low = await swapTx(w, w.alice, w.A, 10n * TON, w.B, {
      queryId: 501n,
      forwardGasAmount: 100n * MILLI,
    });
    await refused(t, w, { ...low, body: low.body! }, STONFI_EXIT_CODE.transfer_bounce_low_gas, true);
    const inline = encodeJettonTransfer({
      kind: "jetton.transfer",
      queryId: 502n,
      amount: 10n * TON,
      destination: w.router,
      responseDestination: w.alice,
      customPayload: null,
      forwardTonAmount: 240n * MILLI,
      forwardPayload: { inRef: false, payload: beginCell().storeUint(STONFI_V2_OP.swap, 32).endCell() },
    });
    const to = jettonWalletAddress(w.alice, w.A);
    await refused(t, w, { to, value: 300n * MILLI, body: inline }, 0, false);
    w.send(w.admin, [
      {
        to: w.router,
        value: 50n * MILLI,
        body: beginCell().storeUint(STONFI_V2_OP.update_status, 32).storeUint(503n, 64).endCell(),
      },
    ]);
    t.true((await w.state.getV2RouterData(w.router))?.isLocked);
    const locked = await swapTx(w, w.alice, w.A, 10n * TON, w.B, { queryId: 504n });
    await refused(t, w, { ...locked, body: locked.body! }, STONFI_EXIT_CODE.transfer_bounce_locked, true);
    checkHistory(t, w);
  },
);

/** Admin update_pool_status for the A/B pool: toggles its lock. */
function toggle(w: World, queryId: bigint) {
  const wallets = { wallet0: w.routerWallet(w.A), wallet1: w.routerWallet(w.B) };
  const body = v2UpdatePoolStatusBody({ queryId, ...wallets, excesses: w.admin });
  return w.send(w.admin, [{ to: w.router, value: 100n * MILLI, body }]);
}

const poolLock = flow("a locked pool refunds swaps and fails mints", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.A, w.B);
  checkTrace(t, toggle(w, 600n));
  const before = await readPool(w, pool);
  t.true(before.isLocked);
  const trace = w.sendSdk(w.alice, await swapTx(w, w.alice, w.A, 10n * TON, w.B, { queryId: 601n }));
  checkTrace(t, trace);
  t.deepEqual(
    trace.truth.map((r) => r.fields.exit_code),
    [STONFI_EXIT_CODE.swap_pool_locked],
  );
  t.deepEqual(await readPool(w, pool), before);
  const provide = w.sendSdk(
    w.alice,
    await provideTx(w, w.alice, w.A, 10n * TON, w.B, { queryId: 602n, single: true }),
  );
  checkTrace(t, provide);
  t.deepEqual(
    provide.truth.map((r) => [r.type, r.fields.success]),
    [
      ["liquidity_provide", true],
      ["liquidity_mint", false],
    ],
  );
  t.deepEqual(await readPool(w, pool), before);
  checkTrace(t, toggle(w, 603n));
  const open = await readPool(w, pool);
  const again = w.sendSdk(w.alice, await swapTx(w, w.alice, w.A, 10n * TON, w.B, { queryId: 604n }));
  checkTrace(t, again);
  const direction = (await isToken0(w, pool, w.routerWallet(w.A))) ? "0to1" : "1to0";
  t.deepEqual(await readPool(w, pool), swap(open, { direction, amountIn: 10n * TON, minOut: 1n }).pool);
  checkHistory(t, w);
});

test("deterministic: the same SDK actions give byte-identical transactions", async (t) => {
  const run = async () => {
    const w = createWorld("weighted_stableswap", 2);
    await seed(w);
    return w.history.txs.map((x) => x.hash);
  };
  const [first, second] = [await run(), await run()];
  t.true(first.length > 50);
  t.deepEqual(first, second);
});

for (const [type, minor] of ALL) test(routerGetters, type, minor);
for (const [type, minor] of ALL.filter(([, m]) => m === 2)) {
  test(poolGetters, type, minor);
  test(refusals, type, minor);
  test(poolLock, type, minor);
}
