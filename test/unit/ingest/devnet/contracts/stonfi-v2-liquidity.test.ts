/**
 * Liquidity on the devnet STON.fi v2 contracts, for each router type (contracts.md §3.8, §3.9.8, §3.9.9):
 * set_params, initial and balanced two-sided provides, single-sided provide (`both_positive = 0`), TON
 * through pTON v2.1, LP burn and the LpAccount refund. Users act through the real @ston-fi/sdk. Each trace:
 * (a) every message decodes, (b) the pool state read through dex/chain-state equals dex/amm's result from
 * the previous state, (c) the classifier agrees with the contracts' ground truth.
 */
import { type Address, beginCell } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import { burn, provide } from "../../../../../dex/amm/index.ts";
import { encodeJettonTransfer } from "../../../../../dex/codecs/index.ts";
import type { V2Minor, V2RouterType } from "../../../../../ingest/devnet/contracts/stonfi-v2/index.ts";
import { comparable } from "../../../../helpers/truth.ts";
import {
  balanceOf,
  checkHistory,
  checkTrace,
  createWorld,
  isToken0,
  MILLI,
  paramsFor,
  poolOrFresh,
  provideTx,
  readPool,
  seed,
  setParams,
  TON,
  type World,
} from "../../../../helpers/truth-v2.ts";

const ROUTERS: [V2RouterType, V2Minor][] = [
  ["constant_product", 2],
  ["stableswap", 1],
  ["weighted_const_product", 2],
  ["weighted_stableswap", 1],
];

/** One flow, run for each router type and build. */
const flow = (
  name: string,
  exec: (t: ExecutionContext, type: V2RouterType, minor: V2Minor) => Promise<void>,
) =>
  test.macro<[V2RouterType, V2Minor]>({ exec, title: (_p, type, minor) => `${type} v2.${minor}: ${name}` });

const lpOf = async (w: World, pool: Address, owner: Address): Promise<bigint> => {
  const wallet = await w.pool(pool).getWalletAddress(owner);
  return (await w.state.getJettonWalletData(wallet))?.balance ?? 0n;
};

/** Two sides deposited one after the other; the second makes the LpAccount call the pool. */
async function provideBoth(
  t: ExecutionContext,
  w: World,
  x: Address,
  ax: bigint,
  y: Address,
  ay: bigint,
  q: bigint,
) {
  const pool = w.poolOf(x, y);
  const before = await poolOrFresh(w, pool);
  const first = w.sendSdk(w.alice, await provideTx(w, w.alice, x, ax, y, { queryId: q }));
  checkTrace(t, first);
  t.deepEqual(
    first.truth.map((r) => [r.type, r.fields.success, r.fields.exit_code]),
    [["liquidity_provide", true, null]],
  );
  t.deepEqual(await readPool(w, pool), before, "the first side waits in the LpAccount");
  const second = w.sendSdk(w.alice, await provideTx(w, w.alice, y, ay, x, { queryId: q + 1n }));
  checkTrace(t, second);
  const zeroIsX = await isToken0(w, pool, w.routerWallet(x));
  const [amount0, amount1] = zeroIsX ? [ax, ay] : [ay, ax];
  const expected = provide(before, { amount0, amount1, minLpOut: 1n });
  t.is(expected.status, "minted");
  t.deepEqual(await readPool(w, pool), expected.pool);
  const mint = second.truth.find((r) => r.type === "liquidity_mint");
  t.deepEqual(
    [mint?.fields.lp_amount, mint?.fields.amount0, mint?.fields.amount1],
    [expected.lpMinted, amount0, amount1],
  );
  return expected.lpMinted;
}

const initialAndBalanced = flow("set_params, initial and balanced provide", async (t, type, minor) => {
  const w = createWorld(type, minor);
  const pool = w.poolOf(w.A, w.B);
  const params = setParams(w, w.A, w.B);
  if (params) {
    checkTrace(t, params);
    const p = paramsFor(w, w.A)!;
    const data = await w.state.getV2PoolData(pool);
    if (p.poolType === "stableswap") t.is(data?.amp, 200n);
    if (p.poolType !== "stableswap")
      t.is(data?.w0, (await isToken0(w, pool, w.routerWallet(w.A))) ? p.w : 10n ** 18n - p.w);
  }
  const first = await provideBoth(t, w, w.A, 1_000_000n * TON, w.B, 2_000_000n * TON, 10n);
  t.is(await lpOf(w, pool, w.alice), first, "initial mint: the supply minus the 1001 locked units");
  t.is((await readPool(w, pool)).lpSupply, first + 1001n);
  const second = await provideBoth(t, w, w.A, 10_000n * TON, w.B, 20_000n * TON, 20n);
  t.is(await lpOf(w, pool, w.alice), first + second);
  checkHistory(t, w);
});

const singleSided = flow("single-sided provide (jetton and TON)", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  for (const [x, y, amount, q] of [
    [w.A, w.B, 5_000n * TON, 30n],
    [w.ptonMinter, w.A, 7n * TON, 31n],
  ] as const) {
    const pool = w.poolOf(x, y);
    const before = await readPool(w, pool);
    const lpBefore = await lpOf(w, pool, w.alice);
    const trace = w.sendSdk(w.alice, await provideTx(w, w.alice, x, amount, y, { queryId: q, single: true }));
    checkTrace(t, trace);
    const zero = await isToken0(w, pool, w.routerWallet(x));
    const expected = provide(before, {
      amount0: zero ? amount : 0n,
      amount1: zero ? 0n : amount,
      minLpOut: 1n,
      bothPositive: false,
    });
    t.is(expected.status, "minted");
    t.deepEqual(await readPool(w, pool), expected.pool);
    t.is(await lpOf(w, pool, w.alice), lpBefore + expected.lpMinted);
    t.deepEqual(
      trace.truth.map((r) => r.type),
      ["liquidity_provide", "liquidity_mint"],
    );
  }
  checkHistory(t, w);
});

const burnLp = flow("LP transfer, then burn for both sides (one side TON)", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.ptonMinter, w.A);
  const lp = (await lpOf(w, pool, w.alice)) / 3n;
  // a TEP-74 transfer between LP wallets: bob's LP wallet is deployed by the internal_transfer
  const body = encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: 39n,
    amount: lp,
    destination: w.bob,
    responseDestination: w.alice,
    customPayload: null,
    forwardTonAmount: 0n,
    forwardPayload: { inRef: false, payload: beginCell().endCell() },
  });
  checkTrace(
    t,
    w.send(w.alice, [{ to: await w.pool(pool).getWalletAddress(w.alice), value: 100n * MILLI, body }]),
  );
  t.is(await lpOf(w, pool, w.bob), lp);
  const before = await readPool(w, pool);
  const aBefore = await balanceOf(w, w.bob, w.A);
  const params = await w.pool(pool).getBurnTxParams({ amount: lp, userWalletAddress: w.bob, queryId: 40n });
  const trace = w.sendSdk(w.bob, params);
  checkTrace(t, trace);
  const expected = burn(before, lp);
  t.is(expected.status, "ok");
  t.deepEqual(await readPool(w, pool), expected.pool);
  t.is(await lpOf(w, pool, w.bob), 0n);
  const aIsZero = await isToken0(w, pool, w.routerWallet(w.A));
  t.is(await balanceOf(w, w.bob, w.A), aBefore + (aIsZero ? expected.amount0Out : expected.amount1Out));
  const [event] = trace.truth;
  t.deepEqual([event?.type, event?.fields.kind, event?.fields.lp_amount], ["liquidity_withdraw", "burn", lp]);
  t.deepEqual([event?.fields.amount0, event?.fields.amount1], [expected.amount0Out, expected.amount1Out]);
  checkHistory(t, w);
});

const directAdd = flow(
  "deposits stored with min_lp_out 0, then direct_add_liquidity",
  async (t, type, minor) => {
    const w = createWorld(type, minor);
    await seed(w);
    const pool = w.poolOf(w.B, w.C);
    const before = await readPool(w, pool);
    for (const [x, y, q] of [
      [w.B, w.C, 45n],
      [w.C, w.B, 46n],
    ] as const) {
      const trace = w.sendSdk(
        w.alice,
        await provideTx(w, w.alice, x, 500n * TON, y, { queryId: q, minLpOut: 0n }),
      );
      checkTrace(t, trace);
    }
    t.deepEqual(await readPool(w, pool), before, "min_lp_out 0: the LpAccount only stores");
    const lpAccount = await w.pool(pool).getLpAccountAddress({ ownerAddress: w.alice });
    t.deepEqual(
      [
        (await w.state.getLpAccountData(lpAccount))?.amount0,
        (await w.state.getLpAccountData(lpAccount))?.amount1,
      ],
      [500n * TON, 500n * TON],
    );
    const lpBefore = await lpOf(w, pool, w.alice);
    const direct = await w.lpAccount(lpAccount).getDirectAddLiquidityTxParams({
      amount0: 0n,
      amount1: 0n,
      minimumLpToMint: 1n,
      userWalletAddress: w.alice,
      queryId: 47n,
    });
    const trace = w.sendSdk(w.alice, direct);
    checkTrace(t, trace);
    const expected = provide(before, { amount0: 500n * TON, amount1: 500n * TON, minLpOut: 1n });
    t.deepEqual(await readPool(w, pool), expected.pool);
    t.is(await lpOf(w, pool, w.alice), lpBefore + expected.lpMinted);
    t.deepEqual(
      trace.truth.map((r) => [r.type, r.fields.lp_amount]),
      [["liquidity_mint", expected.lpMinted]],
    );
    checkHistory(t, w);
  },
);

const lpAccountRefund = flow("LpAccount refund of a stored deposit", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.B, w.C);
  const before = await readPool(w, pool);
  const bBefore = await balanceOf(w, w.alice, w.B);
  checkTrace(t, w.sendSdk(w.alice, await provideTx(w, w.alice, w.B, 123n * TON, w.C, { queryId: 50n })));
  const lpAccount = await w.pool(pool).getLpAccountAddress({ ownerAddress: w.alice });
  const stored = await w.state.getLpAccountData(lpAccount);
  const bIsZero = await isToken0(w, pool, w.routerWallet(w.B));
  t.deepEqual([stored?.amount0, stored?.amount1], bIsZero ? [123n * TON, 0n] : [0n, 123n * TON]);
  const trace = w.sendSdk(w.alice, await w.lpAccount(lpAccount).getRefundTxParams({ queryId: 51n }));
  checkTrace(t, trace);
  t.deepEqual(await readPool(w, pool), before);
  t.is(await balanceOf(w, w.alice, w.B), bBefore);
  t.is(await w.state.getLpAccountData(lpAccount), null, "the emptied LpAccount is gone");
  const [event] = trace.truth;
  t.deepEqual(
    [event?.type, event?.fields.kind, comparable(event?.fields.owner)],
    ["liquidity_withdraw", "lp_refund", comparable(w.alice)],
  );
  checkHistory(t, w);
});

const failedMint = flow("a mint below min_lp_out returns to the LpAccount", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.A, w.B);
  const before = await readPool(w, pool);
  const trace = w.sendSdk(
    w.alice,
    await provideTx(w, w.alice, w.A, 10n * TON, w.B, { queryId: 60n, single: true, minLpOut: 10n ** 30n }),
  );
  checkTrace(t, trace);
  t.deepEqual(await readPool(w, pool), before);
  const mint = trace.truth.find((r) => r.type === "liquidity_mint");
  t.deepEqual([mint?.fields.success, mint?.fields.lp_amount], [false, null]);
  const lpAccount = await w.pool(pool).getLpAccountAddress({ ownerAddress: w.alice });
  const kept = await w.state.getLpAccountData(lpAccount);
  t.is((kept?.amount0 ?? 0n) + (kept?.amount1 ?? 0n), 10n * TON, "refundable in alice's LpAccount");
  checkHistory(t, w);
});

for (const [type, minor] of ROUTERS) {
  test(initialAndBalanced, type, minor);
  test(singleSided, type, minor);
  test(burnLp, type, minor);
  test(directAdd, type, minor);
  test(lpAccountRefund, type, minor);
  test(failedMint, type, minor);
}
