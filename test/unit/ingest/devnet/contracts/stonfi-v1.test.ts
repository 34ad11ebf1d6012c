/**
 * The devnet STON.fi DEX v1 contracts end to end (contracts.md §2): every user message is built by the
 * real `@ston-fi/sdk` v1 classes opened on the devnet, so their get-method calls hit the devnet contracts.
 * Each flow checks (a) every emitted body and forward payload decodes with dex/codecs, (b) the pool state
 * read through dex/chain-state equals what dex/amm computes from the previous state, and (c) the trace
 * classifier's operations match the contracts' ground truth field by field (test/helpers/truth.ts).
 */
import { DEX, pTON } from "@ston-fi/sdk";
import { type Address, type SenderArguments, TupleReader } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import {
  burn,
  type Direction,
  type PoolState,
  poolState,
  provide,
  swap,
} from "../../../../../dex/amm/index.ts";
import { addressArg, createChainState } from "../../../../../dex/chain-state.ts";
import { classify, type Operation } from "../../../../../dex/classify/index.ts";
import {
  encodeStonfiV1CbRefundMe,
  encodeStonfiV1PayTo,
  encodeStonfiV1Swap,
} from "../../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../../dex/exit-codes.ts";
import {
  Chain,
  CodeRegistry,
  openOnChain,
  registerWallet,
  stateOf,
  walletHandler,
  walletInit,
  walletTransferBody,
} from "../../../../../ingest/devnet/chain/index.ts";
import type { TruthRecord, TruthType } from "../../../../../ingest/devnet/chain/truth.ts";
import {
  jettonMintBody,
  jettonMinterInit,
  jettonWalletAddress,
  registerJettons,
} from "../../../../../ingest/devnet/contracts/jetton/index.ts";
import {
  ptonV1MinterInit,
  ptonV1WalletInit,
  registerPton,
} from "../../../../../ingest/devnet/contracts/pton/index.ts";
import {
  HOLE_ADDRESS,
  orderWallets,
  registerStonfiV1,
  V1_LP_ACCOUNT_CODE,
  V1_LP_WALLET_CODE,
  V1_POOL_CODE,
  v1CollectFeesBody,
  v1LockBody,
  v1LpAccountAddress,
  v1LpWalletAddress,
  v1PoolAddress,
  v1RouterInit,
  v1SetFeesBody,
} from "../../../../../ingest/devnet/contracts/stonfi-v1/index.ts";
import { runTrace, type Trace, truthMismatches, undecodedMessages } from "../../../../helpers/truth.ts";

const TON = 1_000_000_000n;
const USDX = 1_000_000n; // 6 decimals
const STN = 1_000_000_000n; // 9 decimals
const SEED_USDX = 10_000n * USDX;
const SEED_STN = 5_000n * STN;

type World = ReturnType<typeof world>;

function world() {
  const registry = registerStonfiV1(registerPton(registerJettons(registerWallet(new CodeRegistry()))));
  const chain = new Chain({ registry });
  const [admin, alice, bob, carol, referrer, collector] = [1n, 2n, 3n, 4n, 5n, 6n].map((id) =>
    chain.deployGenesis(walletInit(id), 10_000n * TON),
  ) as [Address, Address, Address, Address, Address, Address];
  const minter = (symbol: string, decimals: number) =>
    chain.deployGenesis(jettonMinterInit({ admin, metadata: { symbol, name: symbol, decimals } }), TON);
  const usdx = minter("USDX", 6);
  const stn = minter("STN", 9);
  const ptonMinter = chain.deployGenesis(ptonV1MinterInit(), TON);
  const router = chain.deployGenesis(v1RouterInit({ admin }), 10n * TON);
  // The router's pTON wallet exists from genesis, as on mainnet.
  const ptonWallet = chain.deployGenesis(ptonV1WalletInit(router, ptonMinter), TON);
  const send = (from: Address, p: SenderArguments): Trace =>
    runTrace(chain, () => {
      const { seqno } = stateOf(chain.account(from)!.contract!, walletHandler);
      const transfer = { to: p.to, value: p.value, body: p.body ?? undefined, bounce: p.bounce ?? true };
      chain.sendExternal(from, walletTransferBody(seqno, 0xffffffff, [transfer]));
    });
  for (const user of [alice, bob, carol]) {
    for (const [master, amount] of [
      [usdx, 1_000_000n * USDX],
      [stn, 1_000_000n * STN],
    ] as const) {
      const body = jettonMintBody({
        queryId: 1n,
        to: user,
        amount,
        responseAddress: admin,
        tonAmount: TON / 20n,
      });
      send(admin, { to: master, value: TON / 10n, body });
    }
  }
  const state = createChainState({
    runGetMethod: async (a, method, args) => chain.runGetMethod(a, method, args),
    getBalance: async (a) => chain.account(a)?.balance ?? 0n,
  });
  const sdk = openOnChain(chain, new DEX.v1.Router(router));
  const proxyTon = new pTON.v1(ptonMinter);
  const routerWallet = (master: Address) =>
    master.equals(ptonMinter) ? ptonWallet : jettonWalletAddress(router, master);
  const poolOf = (a: Address, b: Address) => v1PoolAddress(router, routerWallet(a), routerWallet(b));
  const users = { admin, alice, bob, carol, referrer, collector };
  const tokens = { usdx, stn, ptonMinter, ptonWallet, router };
  return { chain, send, state, sdk, proxyTon, routerWallet, poolOf, ...users, ...tokens };
}

/** A jetton balance (0 while the wallet does not exist). */
async function balanceOf(w: World, owner: Address, master: Address): Promise<bigint> {
  return (await w.state.getJettonWalletData(jettonWalletAddress(owner, master)))?.balance ?? 0n;
}

/** LP balance; read raw because the locked first mint sits in the wallet of owner addr_none. */
function lpBalance(w: World, pool: Address, owner: Address | null): bigint {
  const { exitCode, stack } = w.chain.runGetMethod(v1LpWalletAddress(pool, owner), "get_wallet_data");
  return exitCode === 0 ? new TupleReader(stack).readBigNumber() : 0n;
}

/** The pool as dex/amm sees it, read only through get-methods (`get_pool_data` + `get_jetton_data`). */
async function ammOf(w: World, pool: Address): Promise<PoolState> {
  const d = await w.state.getV1PoolData(pool);
  const j = await w.state.getJettonData(pool);
  if (d === null || j === null) throw new Error(`pool ${pool.toRawString()} is not deployed`);
  return poolState({
    type: "v1_constant_product",
    reserve0: d.reserve0,
    reserve1: d.reserve1,
    lpSupply: j.totalSupply,
    lpFeeBps: BigInt(d.lpFee),
    protocolFeeBps: BigInt(d.protocolFee),
    refFeeBps: BigInt(d.refFee),
    collectedProtocolFee0: d.collectedToken0ProtocolFee,
    collectedProtocolFee1: d.collectedToken1ProtocolFee,
  });
}

/** `[a, b]` amounts reordered as the pool's (token0, token1) (contracts.md §1.2). */
function inPoolOrder(w: World, a: Address, amountA: bigint, b: Address, amountB: bigint): [bigint, bigint] {
  const [token0] = orderWallets(w.routerWallet(a), w.routerWallet(b));
  return token0.equals(w.routerWallet(a)) ? [amountA, amountB] : [amountB, amountA];
}

function direction(w: World, offer: Address, ask: Address): Direction {
  return inPoolOrder(w, offer, 1n, ask, 0n)[0] === 1n ? "0to1" : "1to0";
}

/** (a) every body decodes, the contracts reported `types`, and (c) the classifier agrees with them. */
function check(t: ExecutionContext, trace: Trace, types: TruthType[]): Operation[] {
  t.deepEqual(undecodedMessages(trace.txs), []);
  t.deepEqual(
    trace.truth.map((r) => r.type),
    types,
  );
  const ops = classify(trace.txs);
  t.deepEqual(truthMismatches(ops, trace.truth), []);
  return ops;
}

function record(trace: Trace, type: TruthType): TruthRecord["fields"] {
  const found = trace.truth.find((r) => r.type === type);
  if (!found) throw new Error(`no ${type} in the trace's truth`);
  return found.fields;
}

const isAddr = (v: unknown, a: Address) => typeof v === "object" && v !== null && a.equals(v as Address);

async function provideJetton(
  w: World,
  user: Address,
  give: Address,
  other: Address,
  amount: bigint,
  queryId: number,
  minLpOut = 1n,
): Promise<Trace> {
  const p = await w.sdk.getProvideLiquidityJettonTxParams({
    userWalletAddress: user,
    sendTokenAddress: give,
    otherTokenAddress: other,
    sendAmount: amount,
    minLpOut,
    queryId,
  });
  return w.send(user, p);
}

async function swapJetton(
  w: World,
  user: Address,
  offer: Address,
  ask: Address,
  amount: bigint,
  minOut: bigint,
  queryId: number,
  referralAddress?: Address,
): Promise<Trace> {
  const p = await w.sdk.getSwapJettonToJettonTxParams({
    userWalletAddress: user,
    offerJettonAddress: offer,
    askJettonAddress: ask,
    offerAmount: amount,
    minAskAmount: minOut,
    queryId,
    referralAddress,
  });
  return w.send(user, p);
}

/** Alice's USDX/STN pool: 10_000 USDX then 5_000 STN (the first mint is locked). */
async function seedJettonPool(w: World): Promise<Address> {
  await provideJetton(w, w.alice, w.usdx, w.stn, SEED_USDX, 10);
  await provideJetton(w, w.alice, w.stn, w.usdx, SEED_STN, 11);
  return w.poolOf(w.usdx, w.stn);
}

/** Bob's two-sided deposit in the seeded pool's ratio. */
async function bobProvides(w: World): Promise<Trace> {
  await provideJetton(w, w.bob, w.usdx, w.stn, 1_000n * USDX, 20);
  return provideJetton(w, w.bob, w.stn, w.usdx, 500n * STN, 21);
}

// ---- liquidity -----------------------------------------------------------------------------------------

test("initial provide from both sides deploys the pool and locks the first mint with addr_none", async (t) => {
  const w = world();
  const pool = w.poolOf(w.usdx, w.stn);
  t.is(w.chain.account(pool), undefined);
  check(t, await provideJetton(w, w.alice, w.usdx, w.stn, SEED_USDX, 10), ["liquidity_provide"]);
  t.truthy(w.chain.account(pool)?.contract, "provide_lp deployed the pool");
  const stored = await w.state.getLpAccountData(v1LpAccountAddress(pool, w.alice));
  t.deepEqual([stored?.amount0, stored?.amount1], inPoolOrder(w, w.usdx, SEED_USDX, w.stn, 0n));
  const before = await ammOf(w, pool);
  const trace = await provideJetton(w, w.alice, w.stn, w.usdx, SEED_STN, 11);
  check(t, trace, ["liquidity_provide", "liquidity_mint"]);
  const [a0, a1] = inPoolOrder(w, w.usdx, SEED_USDX, w.stn, SEED_STN);
  const expected = provide(before, { amount0: a0, amount1: a1, minLpOut: 1n });
  t.is(expected.lpMintedTo, "addr_none");
  t.deepEqual(await ammOf(w, pool), expected.pool);
  t.is(lpBalance(w, pool, null), expected.lpMinted);
  t.is(await w.state.getJettonWalletData(v1LpWalletAddress(pool, w.alice)), null, "alice gets no LP");
  const mint = record(trace, "liquidity_mint");
  t.is(mint.receiver, null);
  t.is(mint.lp_amount, expected.lpMinted);
  const data = await w.state.getLpAccountData(v1LpAccountAddress(pool, w.alice));
  t.deepEqual([data?.amount0, data?.amount1], [0n, 0n]);
});

test("a balanced provide mints to the provider", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const before = await ammOf(w, pool);
  check(t, await provideJetton(w, w.bob, w.usdx, w.stn, 1_000n * USDX, 20), ["liquidity_provide"]);
  const trace = await provideJetton(w, w.bob, w.stn, w.usdx, 500n * STN, 21);
  check(t, trace, ["liquidity_provide", "liquidity_mint"]);
  const [a0, a1] = inPoolOrder(w, w.usdx, 1_000n * USDX, w.stn, 500n * STN);
  const expected = provide(before, { amount0: a0, amount1: a1, minLpOut: 1n });
  t.is(expected.lpMintedTo, "user");
  t.deepEqual(await ammOf(w, pool), expected.pool);
  t.is(lpBalance(w, pool, w.bob), expected.lpMinted);
  t.true(isAddr(record(trace, "liquidity_mint").receiver, w.bob));
});

test("burn pays both reserves out in one pay_to", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  await bobProvides(w);
  const lp = lpBalance(w, pool, w.bob);
  const before = await ammOf(w, pool);
  const expected = burn(before, lp / 2n);
  const [usdx0, stn0] = [await balanceOf(w, w.bob, w.usdx), await balanceOf(w, w.bob, w.stn)];
  const sdkPool = openOnChain(w.chain, new DEX.v1.Pool(pool));
  t.deepEqual(await sdkPool.getExpectedLiquidity({ jettonAmount: lp / 2n }), {
    amount0: expected.amount0Out,
    amount1: expected.amount1Out,
  });
  const params = await sdkPool.getBurnTxParams({ amount: lp / 2n, responseAddress: w.bob, queryId: 50 });
  const ops = check(t, w.send(w.bob, params), ["liquidity_withdraw"]);
  t.deepEqual(await ammOf(w, pool), expected.pool);
  t.is(lpBalance(w, pool, w.bob), lp - lp / 2n);
  const [usdxOut, stnOut] = inPoolOrder(w, w.usdx, expected.amount0Out, w.stn, expected.amount1Out);
  t.is(await balanceOf(w, w.bob, w.usdx), usdx0 + usdxOut);
  t.is(await balanceOf(w, w.bob, w.stn), stn0 + stnOut);
  t.is(ops.find((o) => o.type === "liquidity_withdraw")?.success, true, "both payouts delivered");
});

test("LpAccount refund_me returns a one-sided deposit", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const usdx0 = await balanceOf(w, w.carol, w.usdx);
  check(t, await provideJetton(w, w.carol, w.usdx, w.stn, 300n * USDX, 30), ["liquidity_provide"]);
  const before = await ammOf(w, pool);
  const address = await openOnChain(w.chain, new DEX.v1.Pool(pool)).getLpAccountAddress({
    ownerAddress: w.carol,
  });
  t.true(address.equals(v1LpAccountAddress(pool, w.carol)));
  const lpAccount = openOnChain(w.chain, new DEX.v1.LpAccount(address));
  const data = await lpAccount.getLpAccountData();
  t.deepEqual([data.amount0, data.amount1], inPoolOrder(w, w.usdx, 300n * USDX, w.stn, 0n));
  const trace = w.send(w.carol, await lpAccount.getRefundTxParams({ queryId: 31 }));
  check(t, trace, ["liquidity_withdraw"]);
  t.is(record(trace, "liquidity_withdraw").kind, "lp_refund");
  t.deepEqual(await ammOf(w, pool), before);
  t.is(await balanceOf(w, w.carol, w.usdx), usdx0);
  const after = await lpAccount.getLpAccountData();
  t.deepEqual([after.amount0, after.amount1], [0n, 0n]);
});

test("a mint below min_lp_out goes back to the LpAccount; direct_add_liquidity then mints", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const before = await ammOf(w, pool);
  await provideJetton(w, w.carol, w.usdx, w.stn, 1_000n * USDX, 40);
  const failed = await provideJetton(w, w.carol, w.stn, w.usdx, 500n * STN, 41, 10n ** 30n);
  check(t, failed, ["liquidity_provide", "liquidity_mint"]);
  t.deepEqual(record(failed, "liquidity_mint").success, false);
  t.deepEqual(await ammOf(w, pool), before, "a failed mint changes nothing");
  const [a0, a1] = inPoolOrder(w, w.usdx, 1_000n * USDX, w.stn, 500n * STN);
  const lpAccount = openOnChain(w.chain, new DEX.v1.LpAccount(v1LpAccountAddress(pool, w.carol)));
  const stored = await lpAccount.getLpAccountData();
  t.deepEqual([stored.amount0, stored.amount1], [a0, a1]);
  const params = await lpAccount.getDirectAddLiquidityTxParams({ amount0: a0, amount1: a1, queryId: 42 });
  const trace = w.send(w.carol, params);
  check(t, trace, ["liquidity_mint"]);
  const expected = provide(before, { amount0: a0, amount1: a1, minLpOut: 1n });
  t.deepEqual(await ammOf(w, pool), expected.pool);
  t.is(lpBalance(w, pool, w.carol), expected.lpMinted);
});

// ---- swaps ---------------------------------------------------------------------------------------------

test("jetton → jetton swap: output from dex/amm, quoted by get_expected_outputs", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const before = await ammOf(w, pool);
  const amountIn = 100n * USDX;
  const r = swap(before, { direction: direction(w, w.usdx, w.stn), amountIn, minOut: 1n });
  t.is(r.status, "ok");
  const quote = await openOnChain(w.chain, new DEX.v1.Pool(pool)).getExpectedOutputs({
    amount: amountIn,
    jettonWallet: w.routerWallet(w.usdx),
  });
  t.deepEqual(quote, { jettonToReceive: r.amountOut, protocolFeePaid: r.protocolFeeOut, refFeePaid: 0n });
  const [usdx0, stn0] = [await balanceOf(w, w.bob, w.usdx), await balanceOf(w, w.bob, w.stn)];
  const trace = await swapJetton(w, w.bob, w.usdx, w.stn, amountIn, 1n, 60);
  const ops = check(t, trace, ["swap"]);
  t.deepEqual(await ammOf(w, pool), r.pool);
  t.is(await balanceOf(w, w.bob, w.usdx), usdx0 - amountIn);
  t.is(await balanceOf(w, w.bob, w.stn), stn0 + r.amountOut);
  t.is(ops.find((o) => o.type === "swap")?.success, true, "payout delivered");
  t.is(record(trace, "swap").exit_code, STONFI_EXIT_CODE.swap_ok);
});

test("swap with a referrer pays the referral fee in its own pay_to (referral_payment)", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const before = await ammOf(w, pool);
  const amountIn = 2_000n * STN;
  const r = swap(before, { direction: direction(w, w.stn, w.usdx), amountIn, minOut: 1n, hasReferral: true });
  t.true(r.referralFeeOut > 0n);
  const trace = await swapJetton(w, w.bob, w.stn, w.usdx, amountIn, 1n, 61, w.referrer);
  check(t, trace, ["swap", "referral_payment"]);
  t.deepEqual(await ammOf(w, pool), r.pool);
  t.is(await balanceOf(w, w.referrer, w.usdx), r.referralFeeOut);
  t.is(record(trace, "referral_payment").amount, r.referralFeeOut);
  t.is(record(trace, "swap").referral_fee, r.referralFeeOut);
});

test("slippage: min_out equal to the output is refunded (v1 needs out > min_out)", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const before = await ammOf(w, pool);
  const amountIn = 100n * USDX;
  const dir = direction(w, w.usdx, w.stn);
  const quote = swap(before, { direction: dir, amountIn }).amountOut;
  const r = swap(before, { direction: dir, amountIn, minOut: quote });
  t.is(r.exitCode, STONFI_EXIT_CODE.swap_refund_no_liq);
  const usdx0 = await balanceOf(w, w.bob, w.usdx);
  const trace = await swapJetton(w, w.bob, w.usdx, w.stn, amountIn, quote, 62);
  check(t, trace, ["swap"]);
  t.deepEqual(await ammOf(w, pool), before);
  t.is(await balanceOf(w, w.bob, w.usdx), usdx0, "the offer came back");
  const truth = record(trace, "swap");
  t.is(truth.exit_code, STONFI_EXIT_CODE.swap_refund_no_liq);
  t.is(truth.amount_out, null);
});

test("TON → jetton and jetton → TON go through the router's pTON v1 wallet", async (t) => {
  const w = world();
  const pool = w.poolOf(w.ptonMinter, w.usdx);
  const tonIn = await w.sdk.getProvideLiquidityTonTxParams({
    userWalletAddress: w.alice,
    proxyTon: w.proxyTon,
    otherTokenAddress: w.usdx,
    sendAmount: 100n * TON,
    minLpOut: 1n,
    queryId: 70,
  });
  check(t, w.send(w.alice, tonIn), ["liquidity_provide"]);
  check(t, await provideJetton(w, w.alice, w.usdx, w.ptonMinter, 1_000n * USDX, 71), [
    "liquidity_provide",
    "liquidity_mint",
  ]);
  const ptonBalance = async () => (await w.state.getJettonWalletData(w.ptonWallet))?.balance;
  t.is(await ptonBalance(), 100n * TON);

  const before = await ammOf(w, pool);
  const buy = swap(before, { direction: direction(w, w.ptonMinter, w.usdx), amountIn: TON, minOut: 1n });
  const usdx0 = await balanceOf(w, w.bob, w.usdx);
  const params = await w.sdk.getSwapTonToJettonTxParams({
    userWalletAddress: w.bob,
    proxyTon: w.proxyTon,
    askJettonAddress: w.usdx,
    offerAmount: TON,
    minAskAmount: 1n,
    queryId: 72,
  });
  t.true(params.to.equals(w.ptonWallet), "TON goes straight to the router's pTON wallet");
  check(t, w.send(w.bob, params), ["swap"]);
  t.deepEqual(await ammOf(w, pool), buy.pool);
  t.is(await balanceOf(w, w.bob, w.usdx), usdx0 + buy.amountOut);
  t.is(await ptonBalance(), 101n * TON);

  const sell = swap(buy.pool, {
    direction: direction(w, w.usdx, w.ptonMinter),
    amountIn: 10n * USDX,
    minOut: 1n,
  });
  const back = await w.sdk.getSwapJettonToTonTxParams({
    userWalletAddress: w.bob,
    offerJettonAddress: w.usdx,
    proxyTon: w.proxyTon,
    offerAmount: 10n * USDX,
    minAskAmount: 1n,
    queryId: 73,
  });
  const trace = w.send(w.bob, back);
  const ops = check(t, trace, ["swap"]);
  t.deepEqual(await ammOf(w, pool), sell.pool);
  t.is(await ptonBalance(), 101n * TON - sell.amountOut);
  const payout = trace.txs
    .filter((x) => x.account === w.ptonWallet.toRawString().toUpperCase())
    .flatMap((x) => x.out_msgs)
    .find((m) => m.destination === w.bob.toRawString().toUpperCase());
  t.true(BigInt(payout?.value ?? "0") > sell.amountOut, "the TON arrives with the remaining gas");
  t.is(ops.find((o) => o.type === "swap")?.success, true);
});

// ---- governance and refusals ---------------------------------------------------------------------------

test("admin set_fees reaches the pool, later swaps use the new fees, collect_fees pays the protocol", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const [wallet0, wallet1] = [w.routerWallet(w.usdx), w.routerWallet(w.stn)];
  const fees = { lpFee: 30, protocolFee: 25, refFee: 15, protocolFeeAddress: w.collector, wallet0, wallet1 };
  const body = v1SetFeesBody({ queryId: 80n, ...fees });
  check(t, w.send(w.admin, { to: w.router, value: TON / 10n, body }), []);
  const data = await w.state.getV1PoolData(pool);
  t.deepEqual([data?.lpFee, data?.protocolFee, data?.refFee], [30, 25, 15]);
  t.true(data?.protocolFeeAddress?.equals(w.collector));
  const feesSet = await ammOf(w, pool);
  // A fee outside 0..100 bps is refused by the pool (85) and changes nothing.
  const bad = w.send(w.admin, {
    to: w.router,
    value: TON / 10n,
    body: v1SetFeesBody({ ...fees, queryId: 81n, lpFee: 101 }),
  });
  t.true(bad.txs.some((x) => x.account === pool.toRawString().toUpperCase() && x.compute.exit_code === 85));
  t.deepEqual(await ammOf(w, pool), feesSet);

  let expected = await ammOf(w, pool);
  for (const [offer, ask, amount, q] of [
    [w.usdx, w.stn, 500n * USDX, 82],
    [w.stn, w.usdx, 300n * STN, 83],
  ] as const) {
    expected = swap(expected, { direction: direction(w, offer, ask), amountIn: amount, minOut: 1n }).pool;
    check(t, await swapJetton(w, w.bob, offer, ask, amount, 1n, q), ["swap"]);
    t.deepEqual(await ammOf(w, pool), expected);
  }
  const [usdxFee, stnFee] = inPoolOrder(
    w,
    w.usdx,
    expected.collectedProtocolFee0,
    w.stn,
    expected.collectedProtocolFee1,
  );
  t.true(usdxFee > 0n && stnFee > 0n);
  const collect = v1CollectFeesBody(84n, wallet1, wallet0);
  check(t, w.send(w.admin, { to: w.router, value: TON / 2n, body: collect }), []);
  t.is(await balanceOf(w, w.collector, w.usdx), usdxFee);
  t.is(await balanceOf(w, w.collector, w.stn), stnFee);
  const after = await ammOf(w, pool);
  t.deepEqual([after.collectedProtocolFee0, after.collectedProtocolFee1], [0n, 0n]);
});

test("the router refunds a swap naming the offered wallet, and everything while locked", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const before = await ammOf(w, pool);
  const usdx0 = await balanceOf(w, w.bob, w.usdx);
  const same = await swapJetton(w, w.bob, w.usdx, w.usdx, 100n * USDX, 1n, 90);
  check(t, same, ["swap"]);
  const refused = record(same, "swap");
  t.is(refused.pool, null);
  t.is(refused.exit_code, STONFI_EXIT_CODE.transfer_bounce_invalid_request);
  t.is(await balanceOf(w, w.bob, w.usdx), usdx0);

  check(t, w.send(w.admin, { to: w.router, value: TON / 10n, body: v1LockBody(91n, true) }), []);
  t.true((await w.sdk.getRouterData()).isLocked);
  const locked = await swapJetton(w, w.bob, w.usdx, w.stn, 100n * USDX, 1n, 92);
  check(t, locked, ["swap"]);
  t.is(record(locked, "swap").exit_code, STONFI_EXIT_CODE.transfer_bounce_locked);
  // A provide is refunded the same way; the classifier has no operation for a refused provide.
  check(t, await provideJetton(w, w.bob, w.usdx, w.stn, 100n * USDX, 93), []);
  t.is(await balanceOf(w, w.bob, w.usdx), usdx0);
  t.deepEqual(await ammOf(w, pool), before);

  check(t, w.send(w.admin, { to: w.router, value: TON / 10n, body: v1LockBody(94n, false) }), []);
  check(t, await swapJetton(w, w.bob, w.usdx, w.stn, 100n * USDX, 1n, 95), ["swap"]);
  t.true((await balanceOf(w, w.bob, w.usdx)) < usdx0);
});

test("get-methods answer the SDK with the §2.10 stacks", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  await provideJetton(w, w.carol, w.stn, w.usdx, 7n * STN, 100);
  const routerData = await w.sdk.getRouterData();
  t.false(routerData.isLocked);
  t.true(routerData.adminAddress.equals(w.admin));
  t.true(routerData.poolCode.equals(V1_POOL_CODE));
  t.true(routerData.jettonLpWalletCode.equals(V1_LP_WALLET_CODE));
  t.true(routerData.lpAccountCode.equals(V1_LP_ACCOUNT_CODE));
  const [a, b] = [w.routerWallet(w.usdx), w.routerWallet(w.stn)];
  t.true((await w.sdk.getPoolAddress({ token0: a, token1: b })).equals(pool));
  t.true((await w.sdk.getPoolAddress({ token0: b, token1: a })).equals(pool));
  t.true((await w.sdk.getPoolAddressByJettonMinters({ token0: w.stn, token1: w.usdx })).equals(pool));
  t.is(w.chain.runGetMethod(w.router, "get_pool_address", [addressArg(a), addressArg(a)]).exitCode, 86);

  const sdkPool = openOnChain(w.chain, new DEX.v1.Pool(pool));
  const data = await sdkPool.getPoolData();
  const amm = await ammOf(w, pool);
  const [token0, token1] = orderWallets(a, b);
  t.true(data.token0WalletAddress.equals(token0) && data.token1WalletAddress.equals(token1));
  t.deepEqual(
    [data.reserve0, data.reserve1, data.lpFee, data.protocolFee, data.refFee],
    [amm.reserve0, amm.reserve1, 20n, 10n, 10n],
  );
  t.true(data.protocolFeeAddress.equals(HOLE_ADDRESS));
  const jetton = await sdkPool.getJettonData();
  t.is(jetton.totalSupply, amm.lpSupply);
  t.true(jetton.canIncSupply);
  t.true(jetton.adminAddress?.equals(w.router));
  t.true(jetton.jettonWalletCode.equals(V1_LP_WALLET_CODE));
  t.is(jetton.contentRaw.beginParse().loadUint(8), 1, "off-chain TEP-64 content");
  t.true((await sdkPool.getWalletAddress(w.bob)).equals(v1LpWalletAddress(pool, w.bob)));
  const [x0, x1] = [3_000n, 4_000n];
  const tokens = await sdkPool.getExpectedTokens({ amount0: x0, amount1: x1 });
  const m0 = (x0 * amm.lpSupply) / amm.reserve0;
  const m1 = (x1 * amm.lpSupply) / amm.reserve1;
  t.is(tokens, m0 < m1 ? m0 : m1);

  const lpAccount = openOnChain(w.chain, new DEX.v1.LpAccount(v1LpAccountAddress(pool, w.carol)));
  const account = await lpAccount.getLpAccountData();
  t.true(account.userAddress.equals(w.carol) && account.poolAddress.equals(pool));
  t.deepEqual([account.amount0, account.amount1], inPoolOrder(w, w.stn, 7n * STN, w.usdx, 0n));
  const locked = await w.state.getJettonWalletData(v1LpWalletAddress(pool, w.alice));
  t.is(locked, null);
  const raw = w.chain.runGetMethod(v1LpWalletAddress(pool, null), "get_wallet_data");
  const reader = new TupleReader(raw.stack);
  t.is(reader.readBigNumber(), amm.lpSupply, "the whole first mint sits in addr_none's wallet");
  t.is(reader.readAddressOpt(), null);
  t.true(reader.readAddress().equals(pool));
});

test("access control: pay_to only from a pool, swap only from the router, callbacks only from the LpAccount", async (t) => {
  const w = world();
  const pool = await seedJettonPool(w);
  const [token0, token1] = orderWallets(w.routerWallet(w.usdx), w.routerWallet(w.stn));
  const forgedPayTo = encodeStonfiV1PayTo({
    kind: "stonfi.v1.pay_to",
    queryId: 1n,
    owner: w.bob,
    exitCode: STONFI_EXIT_CODE.swap_ok,
    amount0Out: 1_000n,
    token0,
    amount1Out: 0n,
    token1,
  });
  const forgedSwap = encodeStonfiV1Swap({
    kind: "stonfi.v1.swap",
    queryId: 2n,
    toAddress: w.bob,
    senderWallet: token0,
    jettonAmount: 1_000n,
    minOut: 0n,
    hasRef: false,
    fromUser: w.bob,
    refAddress: null,
  });
  const forgedRefund = encodeStonfiV1CbRefundMe({
    kind: "stonfi.v1.cb_refund_me",
    queryId: 3n,
    totAm0: 1_000n,
    totAm1: 1_000n,
    user: w.bob,
  });
  for (const [to, body, code] of [
    [w.router, forgedPayTo, 82],
    [pool, forgedSwap, 0xffff],
    [pool, forgedRefund, 82],
  ] as const) {
    const trace = w.send(w.bob, { to, value: TON / 2n, body });
    const target = trace.txs.find((x) => x.account === to.toRawString().toUpperCase());
    t.is(target?.compute.exit_code, code);
    t.deepEqual(trace.truth, []);
  }
});

test("the truth comparison reports a field that differs", async (t) => {
  const w = world();
  await seedJettonPool(w);
  const trace = await swapJetton(w, w.bob, w.usdx, w.stn, 100n * USDX, 1n, 110);
  const ops = classify(trace.txs);
  const [truth] = trace.truth;
  const wrong = { ...truth!, fields: { ...truth!.fields, amount_out: 1n, "ask.router_wallet": w.bob } };
  const problems = truthMismatches(ops, [wrong]);
  t.is(problems.length, 2);
  t.regex(problems.join("\n"), /amount_out: classified "\d+", truth "1"/);
  t.deepEqual(truthMismatches(ops, []).length, 1, "an unexplained classified swap is reported");
});
