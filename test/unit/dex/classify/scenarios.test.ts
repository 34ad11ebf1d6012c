/**
 * Flows the recorded traces do not cover, built from codec-encoded bodies (./build.ts):
 * a v2 cross_swap on one router whose second hop is refunded (a partial route), a router-level rejection,
 * and a v1 LP burn. Also: the output does not depend on the input order.
 */
import { beginCell, type Cell } from "@ton/core";
import test from "ava";
import { classify } from "../../../../dex/classify/index.ts";
import type { LiquidityWithdraw, Operation, SwapLeg, SwapRoute } from "../../../../dex/classify/types.ts";
import {
  encodeJettonBurnNotification,
  encodeJettonInternalTransfer,
  encodeJettonTransfer,
  encodeJettonTransferNotification,
  encodeStonfiV1PayTo,
  encodeStonfiV2CrossSwapPayload,
  encodeStonfiV2PayTo,
  encodeStonfiV2Swap,
  encodeStonfiV2SwapPayload,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { addr, msg, rawAddr, tx } from "./build.ts";

const USER = 1;
const USER_WALLET_A = 2;
const ROUTER = 3;
const W_A = 4;
const W_B = 5;
const W_C = 6;
const POOL1 = 7;
const POOL2 = 8;
const USER_WALLET_B = 10;

const transfer = (amount: bigint, to: number, payload: Cell | null, inRef = true) =>
  encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: 42n,
    amount,
    destination: addr(to),
    responseDestination: addr(USER),
    customPayload: null,
    forwardTonAmount: payload ? 1n : 0n,
    forwardPayload: payload ? { inRef, payload } : { inRef: false, payload: beginCell().endCell() },
  });
const internal = (amount: bigint, from: number, payload: Cell | null) =>
  encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId: 42n,
    amount,
    from: addr(from),
    responseAddress: addr(USER),
    forwardTonAmount: payload ? 1n : 0n,
    forwardPayload: payload ? { inRef: true, payload } : { inRef: false, payload: beginCell().endCell() },
  });

function swapPayloadFields(askWallet: number, minOut: bigint, custom: Cell | null) {
  return {
    tokenWallet1: addr(askWallet),
    refundAddress: addr(USER),
    excessesAddress: addr(USER),
    txDeadline: 2_000_000_000n,
    minOut,
    receiver: null,
    fwdGas: 0n,
    customPayload: custom,
    refundFwdGas: 0n,
    refundPayload: null,
    refFee: 10,
    refAddress: null,
  };
}

/** The user's entry: transfer → internal_transfer → notification to the router. */
function entry(amount: bigint, payload: Cell, lt: bigint) {
  const m1 = msg({ from: USER, to: USER_WALLET_A, body: transfer(amount, ROUTER, payload) });
  const m2 = msg({ from: USER_WALLET_A, to: W_A, body: internal(amount, USER, payload) });
  const m3 = msg({
    from: W_A,
    to: ROUTER,
    body: encodeJettonTransferNotification({
      kind: "jetton.transfer_notification",
      queryId: 42n,
      amount,
      sender: addr(USER),
      forwardPayload: { inRef: true, payload },
    }),
  });
  return {
    notification: m3,
    txs: [
      tx({ account: USER_WALLET_A, lt, in: m1, outs: [m2] }),
      tx({ account: W_A, lt: lt + 1n, in: m2, outs: [m3] }),
    ],
  };
}

function payTo(
  exitCode: number,
  amount0: bigint,
  amount1: bigint,
  t0: number,
  t1: number,
  custom: Cell | null,
) {
  return encodeStonfiV2PayTo({
    kind: "stonfi.v2.pay_to",
    queryId: 42n,
    toAddress: addr(USER),
    excessesAddress: addr(USER),
    originalCaller: addr(USER),
    exitCode,
    customPayload: custom,
    fwdTonAmount: 0n,
    amount0Out: amount0,
    token0: addr(t0),
    amount1Out: amount1,
    token1: addr(t1),
  });
}

function crossSwapPartial() {
  const cross = encodeStonfiV2CrossSwapPayload({
    kind: "stonfi.v2.cross_swap_payload",
    ...swapPayloadFields(W_C, 999_999n, null),
  });
  const payload = encodeStonfiV2SwapPayload({
    kind: "stonfi.v2.swap_payload",
    ...swapPayloadFields(W_B, 1n, cross),
  });
  const { notification, txs } = entry(1000n, payload, 10n);
  const swap1 = msg({
    from: ROUTER,
    to: POOL1,
    body: encodeStonfiV2Swap({
      kind: "stonfi.v2.swap",
      queryId: 42n,
      fromUser: addr(USER),
      amount0: 1000n,
      amount1: 0n,
      dexPayload: payload,
    }),
  });
  const pay1 = msg({
    from: POOL1,
    to: ROUTER,
    body: payTo(STONFI_EXIT_CODE.swap_ok, 0n, 500n, W_A, W_B, cross),
  });
  const swap2 = msg({
    from: ROUTER,
    to: POOL2,
    body: encodeStonfiV2Swap({
      kind: "stonfi.v2.swap",
      queryId: 42n,
      fromUser: addr(USER),
      amount0: 500n,
      amount1: 0n,
      dexPayload: cross,
    }),
  });
  const pay2 = msg({
    from: POOL2,
    to: ROUTER,
    body: payTo(STONFI_EXIT_CODE.swap_refund_slippage, 500n, 0n, W_B, W_C, null),
  });
  const refund = msg({ from: ROUTER, to: W_B, body: transfer(500n, USER, null) });
  const credit = msg({ from: W_B, to: USER_WALLET_B, body: internal(500n, ROUTER, null) });
  return [
    ...txs,
    tx({ account: ROUTER, lt: 20n, in: notification, outs: [swap1] }),
    tx({ account: POOL1, lt: 21n, in: swap1, outs: [pay1] }),
    tx({ account: ROUTER, lt: 22n, in: pay1, outs: [swap2] }),
    tx({ account: POOL2, lt: 23n, in: swap2, outs: [pay2] }),
    tx({ account: ROUTER, lt: 24n, in: pay2, outs: [refund] }),
    tx({ account: W_B, lt: 25n, in: refund, outs: [credit] }),
    tx({ account: USER_WALLET_B, lt: 26n, in: credit }),
  ];
}

const ofType = <T extends Operation["type"]>(ops: Operation[], type: T) =>
  ops.filter((o): o is Extract<Operation, { type: T }> => o.type === type);

test("v2 cross_swap with a refunded second hop is one partial route of two legs", (t) => {
  const ops = classify(crossSwapPartial());
  const legs: SwapLeg[] = ofType(ops, "swap");
  const routes: SwapRoute[] = ofType(ops, "swap_route");
  t.is(legs.length, 2);
  t.is(routes.length, 1);
  const [hop1, hop2] = legs;
  t.true(hop1!.continues_as_cross_swap);
  t.is(hop1!.success, true);
  t.is(hop1!.amount_out, 500n);
  t.is(hop1!.offer.router_wallet, rawAddr(W_A));
  t.is(hop1!.ask.router_wallet, rawAddr(W_B));
  t.is(hop2!.success, false);
  t.is(hop2!.exit_name, "swap_refund_slippage");
  t.is(hop2!.amount_out, null);
  t.is(hop2!.payout?.amount, 500n);
  t.is(hop2!.payout?.delivered, true);
  t.is(hop2!.payout?.receiver_wallet, rawAddr(USER_WALLET_B));
  const route = routes[0]!;
  t.deepEqual(route.legs, [hop1!.id, hop2!.id]);
  t.is(route.status, "partial");
  t.is(route.success, false);
  t.is(route.amount_in, 1000n);
  t.is(route.amount_out, null);
  t.is(route.sender, rawAddr(USER));
  t.deepEqual(ofType(ops, "unknown"), []);
  t.deepEqual(ofType(ops, "malformed"), []);
});

test("the output does not depend on the order of the input", (t) => {
  const txs = crossSwapPartial();
  const expected = classify(txs);
  const reversed = classify([...txs].reverse());
  const rotated = classify([...txs.slice(4), ...txs.slice(0, 4)]);
  t.deepEqual(reversed, expected);
  t.deepEqual(rotated, expected);
  const lts = expected.map((o) => o.lt);
  t.deepEqual(
    lts,
    [...lts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  );
});

test("a swap the router refuses is a failed leg with the router's exit code and no pool", (t) => {
  const payload = encodeStonfiV2SwapPayload({
    kind: "stonfi.v2.swap_payload",
    ...swapPayloadFields(W_B, 1n, null),
  });
  const { notification, txs } = entry(700n, payload, 10n);
  const code = beginCell().storeUint(STONFI_EXIT_CODE.transfer_bounce_low_gas, 32).endCell();
  const back = msg({ from: ROUTER, to: W_A, body: transfer(700n, USER, code, false) });
  const credit = msg({ from: W_A, to: USER_WALLET_A, body: internal(700n, ROUTER, code) });
  const ops = classify([
    ...txs,
    tx({ account: ROUTER, lt: 20n, in: notification, outs: [back] }),
    tx({ account: W_A, lt: 21n, in: back, outs: [credit] }),
    tx({ account: USER_WALLET_A, lt: 22n, in: credit }),
  ]);
  const [leg, ...rest] = ofType(ops, "swap");
  t.is(rest.length, 0);
  t.is(leg!.pool, null);
  t.is(leg!.success, false);
  t.is(leg!.exit_code, STONFI_EXIT_CODE.transfer_bounce_low_gas);
  t.is(leg!.exit_name, "transfer_bounce_low_gas");
  t.is(leg!.amount_in, 700n);
  t.is(leg!.payout?.delivered, true);
  t.is(leg!.ask.router_wallet, rawAddr(W_B));
});

test("a v1 LP burn pays both sides through the router", (t) => {
  const LP_WALLET = 20;
  const POOL = 21;
  const body = encodeJettonBurnNotification({
    kind: "jetton.burn_notification",
    queryId: 7n,
    amount: 30n,
    sender: addr(USER),
    responseDestination: addr(USER),
  });
  const burn = msg({ from: LP_WALLET, to: POOL, body });
  const pay = msg({
    from: POOL,
    to: ROUTER,
    body: encodeStonfiV1PayTo({
      kind: "stonfi.v1.pay_to",
      queryId: 7n,
      owner: addr(USER),
      exitCode: STONFI_EXIT_CODE.burn_ok,
      amount0Out: 10n,
      token0: addr(W_A),
      amount1Out: 20n,
      token1: addr(W_B),
    }),
  });
  const t0 = msg({ from: ROUTER, to: W_A, body: transfer(10n, USER, null) });
  const t1 = msg({ from: ROUTER, to: W_B, body: transfer(20n, USER, null) });
  const c0 = msg({ from: W_A, to: USER_WALLET_A, body: internal(10n, ROUTER, null) });
  const c1 = msg({ from: W_B, to: USER_WALLET_B, body: internal(20n, ROUTER, null) });
  const ops = classify([
    tx({ account: POOL, lt: 1n, in: burn, outs: [pay] }),
    tx({ account: ROUTER, lt: 2n, in: pay, outs: [t0, t1] }),
    tx({ account: W_A, lt: 3n, in: t0, outs: [c0] }),
    tx({ account: W_B, lt: 3n, in: t1, outs: [c1] }),
    tx({ account: USER_WALLET_A, lt: 4n, in: c0 }),
    tx({ account: USER_WALLET_B, lt: 4n, in: c1 }),
  ]);
  const [w]: LiquidityWithdraw[] = ofType(ops, "liquidity_withdraw");
  t.truthy(w);
  t.is(w!.kind, "burn");
  t.is(w!.dex, "v1");
  t.is(w!.lp_amount, 30n);
  t.is(w!.amount0, 10n);
  t.is(w!.amount1, 20n);
  t.is(w!.owner, rawAddr(USER));
  t.is(w!.success, true);
  t.is(w!.asset0.router_wallet, rawAddr(W_A));
});

test("a pool whose pay_to never reaches a router transaction leaves success unknown", (t) => {
  const txs = crossSwapPartial().filter((x) => BigInt(x.lt) <= 21n);
  const [leg] = ofType(classify(txs), "swap");
  t.is(leg!.success, null);
  t.is(leg!.payout?.delivered, null);
});
