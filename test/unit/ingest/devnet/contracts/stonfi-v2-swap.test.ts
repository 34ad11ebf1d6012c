/**
 * Swaps on the devnet STON.fi v2 contracts, for each router type (contracts.md §3.4–§3.7, §3.9): jetton →
 * jetton, TON → jetton and jetton → TON through pTON v2.1, a slippage refund by the pool, an expired
 * deadline refused by the router, and a two-hop cross_swap on one router. Users act through the real
 * @ston-fi/sdk. Each trace: (a) every message decodes, (b) pool state through dex/chain-state equals
 * dex/amm's result from the previous state, (c) the classifier agrees with the contracts' ground truth.
 */
import type { Address } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import { swap } from "../../../../../dex/amm/index.ts";
import { STONFI_EXIT_CODE } from "../../../../../dex/exit-codes.ts";
import { COMPUTE_FEE } from "../../../../../ingest/devnet/chain/index.ts";
import type { V2Minor, V2RouterType } from "../../../../../ingest/devnet/contracts/stonfi-v2/index.ts";
import { comparable } from "../../../../helpers/truth.ts";
import {
  balanceOf,
  checkHistory,
  checkTrace,
  createWorld,
  isToken0,
  MILLI,
  readPool,
  type SwapOptions,
  seed,
  swapTx,
  TON,
  type World,
} from "../../../../helpers/truth-v2.ts";

const ROUTERS: [V2RouterType, V2Minor][] = [
  ["constant_product", 1],
  ["stableswap", 2],
  ["weighted_const_product", 1],
  ["weighted_stableswap", 2],
];

const flow = (
  name: string,
  exec: (t: ExecutionContext, type: V2RouterType, minor: V2Minor) => Promise<void>,
) =>
  test.macro<[V2RouterType, V2Minor]>({ exec, title: (_p, type, minor) => `${type} v2.${minor}: ${name}` });

const tonOf = (w: World, a: Address): bigint => w.chain.account(a)?.balance ?? 0n;

/** One swap through the SDK, checked against the engine; returns the engine's result. */
async function swapChecked(
  t: ExecutionContext,
  w: World,
  offer: Address,
  amount: bigint,
  ask: Address,
  o: SwapOptions,
) {
  const pool = w.poolOf(offer, ask);
  const before = await readPool(w, pool);
  const trace = w.sendSdk(w.alice, await swapTx(w, w.alice, offer, amount, ask, o));
  checkTrace(t, trace);
  const zero = await isToken0(w, pool, w.routerWallet(offer));
  const expected = swap(before, {
    direction: zero ? "0to1" : "1to0",
    amountIn: amount,
    minOut: o.minOut ?? 1n,
    hasReferral: o.referral !== undefined,
    refFeeBps: o.referral?.bps ?? 0n,
  });
  t.deepEqual(await readPool(w, pool), expected.pool);
  const event = trace.truth.find((r) => r.type === "swap");
  t.deepEqual(
    [event?.fields.exit_code, event?.fields.amount_out, event?.fields.amount_in],
    [expected.exitCode, expected.status === "ok" ? expected.amountOut : null, amount],
  );
  return { expected, trace };
}

const jettonToJetton = flow("jetton → jetton", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  for (const [offer, ask, amount, q] of [
    [w.A, w.B, 1_000n * TON, 70n],
    [w.B, w.A, 3_000n * TON, 71n],
  ] as const) {
    const got = await balanceOf(w, w.alice, ask);
    const { expected } = await swapChecked(t, w, offer, amount, ask, { queryId: q });
    t.is(expected.status, "ok");
    t.is(await balanceOf(w, w.alice, ask), got + expected.amountOut);
  }
  checkHistory(t, w);
});

const withTon = flow("TON → jetton and jetton → TON through pTON v2.1", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const a = await balanceOf(w, w.alice, w.A);
  const inResult = await swapChecked(t, w, w.ptonMinter, 5n * TON, w.A, { queryId: 80n });
  t.is(await balanceOf(w, w.alice, w.A), a + inResult.expected.amountOut);
  const bobTon = tonOf(w, w.bob);
  const out = await swapChecked(t, w, w.A, 4n * TON, w.ptonMinter, { queryId: 81n, receiver: w.bob });
  t.is(out.expected.status, "ok");
  // bob (receiver ≠ excesses address) gets exactly the output in a pTON ton_transfer (his wallet pays
  // its own compute fee); alice gets the excesses
  t.is(tonOf(w, w.bob) - bobTon, out.expected.amountOut - COMPUTE_FEE);
  const event = out.trace.truth[0];
  t.is(comparable(event?.fields.receiver), comparable(w.bob));
  checkHistory(t, w);
});

const slippage = flow("slippage refund", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const a = await balanceOf(w, w.alice, w.A);
  const { expected, trace } = await swapChecked(t, w, w.A, 1_000n * TON, w.B, {
    queryId: 90n,
    minOut: 10n ** 30n,
  });
  t.is(expected.exitCode, STONFI_EXIT_CODE.swap_refund_slippage);
  t.is(await balanceOf(w, w.alice, w.A), a, "the offered jettons came back");
  t.is(trace.truth[0]?.fields.amount_out, null);
  checkHistory(t, w);
});

const expired = flow("expired deadline refused by the router", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.A, w.B);
  const before = await readPool(w, pool);
  const a = await balanceOf(w, w.alice, w.A);
  const tx = await swapTx(w, w.alice, w.A, 1_000n * TON, w.B, { queryId: 91n, deadline: w.chain.utime });
  const trace = w.sendSdk(w.alice, tx);
  checkTrace(t, trace);
  t.deepEqual(await readPool(w, pool), before);
  t.is(await balanceOf(w, w.alice, w.A), a);
  const [event] = trace.truth;
  t.is(comparable(event?.account), comparable(w.router));
  t.deepEqual(
    [event?.fields.pool, event?.fields.exit_code],
    [null, STONFI_EXIT_CODE.transfer_bounce_tx_expired],
  );
  checkHistory(t, w);
});

/** A → B with the B → C hop as the SDK's cross_swap payload; twice the SDK's forward gas, for two hops. */
async function twoHopTx(w: World) {
  const hop2 = await w.sdk.createCrossSwapBody({
    askJettonWalletAddress: w.routerWallet(w.C),
    receiverAddress: w.alice,
    minAskAmount: 1n,
    refundAddress: w.alice,
    referralValue: 0n,
    deadline: w.deadline(),
  });
  const forward = 2n * w.sdk.gasConstants.swapJettonToJetton.forwardGasAmount;
  const gasAmount = forward + 60n * MILLI;
  return swapTx(w, w.alice, w.A, 1_000n * TON, w.B, {
    queryId: 92n,
    dexCustomPayload: hop2,
    forwardGasAmount: forward,
    gasAmount,
  });
}

const crossSwap = flow("two-hop cross swap A → B → C", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const [ab, bc] = [w.poolOf(w.A, w.B), w.poolOf(w.B, w.C)];
  const [beforeAB, beforeBC] = [await readPool(w, ab), await readPool(w, bc)];
  const c = await balanceOf(w, w.alice, w.C);
  const trace = w.sendSdk(w.alice, await twoHopTx(w));
  checkTrace(t, trace);
  const first = swap(beforeAB, {
    direction: (await isToken0(w, ab, w.routerWallet(w.A))) ? "0to1" : "1to0",
    amountIn: 1_000n * TON,
    minOut: 1n,
  });
  const secondDirection = (await isToken0(w, bc, w.routerWallet(w.B))) ? "0to1" : "1to0";
  const second = swap(beforeBC, { direction: secondDirection, amountIn: first.amountOut, minOut: 1n });
  t.deepEqual([first.status, second.status], ["ok", "ok"]);
  t.deepEqual(await readPool(w, ab), first.pool);
  t.deepEqual(await readPool(w, bc), second.pool);
  t.is(await balanceOf(w, w.alice, w.C), c + second.amountOut);
  t.deepEqual(
    trace.truth.map((r) => [r.type, comparable(r.fields.pool), r.fields.amount_out]),
    [
      ["swap", comparable(ab), first.amountOut],
      ["swap", comparable(bc), second.amountOut],
    ],
  );
  checkHistory(t, w);
});

for (const [type, minor] of ROUTERS) {
  test(jettonToJetton, type, minor);
  test(withTon, type, minor);
  test(slippage, type, minor);
  test(expired, type, minor);
  test(crossSwap, type, minor);
}
