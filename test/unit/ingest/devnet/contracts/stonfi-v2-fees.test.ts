/**
 * Fees on the devnet STON.fi v2 contracts, for each router type (contracts.md §3.6, §3.8, §3.9.1): a swap with
 * a referrer deposits the referral fee into the (referrer, token) Vault, `withdraw_fee` pays it out through
 * the router and destroys the vault (the next deposit redeploys it); the admin's `set_fees` changes the
 * pool's fees and protocol-fee address, and the protocol-fee address collects the protocol fees. Each trace:
 * (a) every message decodes, (b) pool state equals dex/amm's result, (c) classifier = ground truth.
 */
import type { Address } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import { swap } from "../../../../../dex/amm/index.ts";
import { encodeStonfiV2CollectFees } from "../../../../../dex/codecs/index.ts";
import {
  type V2Minor,
  type V2RouterType,
  v2SetFeesBody,
  v2VaultAddress,
} from "../../../../../ingest/devnet/contracts/stonfi-v2/index.ts";
import { comparable } from "../../../../helpers/truth.ts";
import {
  balanceOf,
  checkHistory,
  checkTrace,
  createWorld,
  isToken0,
  MILLI,
  readPool,
  seed,
  swapTx,
  TON,
  type World,
} from "../../../../helpers/truth-v2.ts";

const ROUTERS: [V2RouterType, V2Minor][] = [
  ["constant_product", 2],
  ["stableswap", 2],
  ["weighted_const_product", 1],
  ["weighted_stableswap", 1],
];

const flow = (
  name: string,
  exec: (t: ExecutionContext, type: V2RouterType, minor: V2Minor) => Promise<void>,
) =>
  test.macro<[V2RouterType, V2Minor]>({ exec, title: (_p, type, minor) => `${type} v2.${minor}: ${name}` });

/** A → B swap with carol as referrer at `bps`; returns the engine's result after checking the pool. */
async function referredSwap(t: ExecutionContext, w: World, amount: bigint, bps: bigint, queryId: bigint) {
  const pool = w.poolOf(w.A, w.B);
  const before = await readPool(w, pool);
  const tx = await swapTx(w, w.alice, w.A, amount, w.B, { queryId, referral: { address: w.carol, bps } });
  const trace = w.sendSdk(w.alice, tx);
  checkTrace(t, trace);
  const direction = (await isToken0(w, pool, w.routerWallet(w.A))) ? "0to1" : "1to0";
  const expected = swap(before, {
    direction,
    amountIn: amount,
    minOut: 1n,
    hasReferral: true,
    refFeeBps: bps,
  });
  t.deepEqual(await readPool(w, pool), expected.pool);
  t.deepEqual(
    trace.truth.map((r) => [r.type, r.type === "swap" ? r.fields.referral_fee : r.fields.amount]),
    [
      ["swap", expected.referralFeeOut],
      ["vault_deposit", expected.referralFeeOut],
    ],
  );
  return expected;
}

const referral = flow("referral fee → vault → withdraw_fee", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const token = w.routerWallet(w.B);
  const vault = await w.sdk.getVaultAddress({ user: w.carol, tokenWallet: token });
  t.true(vault.equals(v2VaultAddress(w.router, w.carol, token)));
  const first = await referredSwap(t, w, 1_000n * TON, 50n, 300n);
  const second = await referredSwap(t, w, 2_000n * TON, 100n, 301n);
  const deposited = first.referralFeeOut + second.referralFeeOut;
  t.is((await w.state.getVaultData(vault))?.depositedAmount, deposited);
  const b = await balanceOf(w, w.carol, w.B);
  const trace = w.sendSdk(w.carol, await w.vault(vault).getWithdrawFeeTxParams({ queryId: 302n }));
  checkTrace(t, trace);
  t.is(await balanceOf(w, w.carol, w.B), b + deposited);
  const [event] = trace.truth;
  t.deepEqual(
    [event?.type, event?.fields.amount, comparable(event?.fields.owner)],
    ["vault_withdrawal", deposited, comparable(w.carol)],
  );
  t.is(await w.state.getVaultData(vault), null, "the emptied vault destroyed itself");
  const third = await referredSwap(t, w, 500n * TON, 10n, 303n);
  t.is(
    (await w.state.getVaultData(vault))?.depositedAmount,
    third.referralFeeOut,
    "redeployed by the deposit",
  );
  checkHistory(t, w);
});

/** The admin's set_fees for pool (x, y), sent by `from`. */
function setFees(w: World, from: Address, lpFee: number, protocolFee: number, queryId: bigint) {
  const body = v2SetFeesBody({
    queryId,
    lpFee,
    protocolFee,
    protocolFeeAddress: w.protocol,
    wallet0: w.routerWallet(w.A),
    wallet1: w.routerWallet(w.B),
    excesses: w.admin,
  });
  return w.send(from, [{ to: w.router, value: 300n * MILLI, body }]);
}

const txOn = (trace: { txs: { account: string; compute: { exit_code: number | null } }[] }, a: Address) =>
  trace.txs.find((x) => comparable(x.account) === comparable(a));

/** Admin set_fees (30/5 bps, fee address = protocol), then one swap each way with the new fees. */
async function newFees(t: ExecutionContext, w: World, pool: Address) {
  const before = await readPool(w, pool);
  checkTrace(t, setFees(w, w.admin, 30, 5, 402n));
  t.deepEqual(await readPool(w, pool), { ...before, lpFeeBps: 30n, protocolFeeBps: 5n });
  t.true((await w.state.getV2PoolData(pool))?.protocolFeeAddress?.equals(w.protocol));
  for (const [offer, ask, q] of [
    [w.A, w.B, 403n],
    [w.B, w.A, 404n],
  ] as const) {
    const prev = await readPool(w, pool);
    const trace = w.sendSdk(w.alice, await swapTx(w, w.alice, offer, 10_000n * TON, ask, { queryId: q }));
    checkTrace(t, trace);
    const direction = (await isToken0(w, pool, w.routerWallet(offer))) ? "0to1" : "1to0";
    t.deepEqual(await readPool(w, pool), swap(prev, { direction, amountIn: 10_000n * TON, minOut: 1n }).pool);
  }
}

const fees = flow("set_fees: admin only, 0..100 bps, used by the next swaps", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const refused = [setFees(w, w.alice, 30, 5, 400n), setFees(w, w.admin, 101, 5, 401n)];
  t.deepEqual(
    refused.map((trace) => txOn(trace, w.router)?.compute.exit_code),
    [82, 94],
  );
  await newFees(t, w, w.poolOf(w.A, w.B));
  checkHistory(t, w);
});

const collect = flow("collect_fees by the protocol-fee address", async (t, type, minor) => {
  const w = createWorld(type, minor);
  await seed(w);
  const pool = w.poolOf(w.A, w.B);
  await newFees(t, w, pool);
  const collected = await readPool(w, pool);
  // the SDK's collect_fees body lacks the two Maybe bits: the pool fails with a cell underflow (§8.3)
  const bad = w.sendSdk(w.protocol, await w.pool(pool).getCollectFeeTxParams({ queryId: 405n }));
  t.is(txOn(bad, pool)?.compute.exit_code, 9);
  const kind = "stonfi.v2.collect_fees";
  const body = encodeStonfiV2CollectFees({ kind, queryId: 406n, payload0: null, payload1: null });
  checkTrace(t, w.send(w.protocol, [{ to: pool, value: 400n * MILLI, body }]));
  const zeroed = { ...collected, collectedProtocolFee0: 0n, collectedProtocolFee1: 0n };
  t.deepEqual(await readPool(w, pool), zeroed);
  const aIsZero = await isToken0(w, pool, w.routerWallet(w.A));
  const fee0 = [collected.collectedProtocolFee0, collected.collectedProtocolFee1];
  const [feeA, feeB] = aIsZero ? fee0 : fee0.reverse();
  t.deepEqual([await balanceOf(w, w.protocol, w.A), await balanceOf(w, w.protocol, w.B)], [feeA, feeB]);
  checkHistory(t, w);
});

for (const [type, minor] of ROUTERS) {
  test(referral, type, minor);
  test(fees, type, minor);
  test(collect, type, minor);
}
