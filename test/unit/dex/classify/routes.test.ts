/**
 * Routes across routers. `linkHops` on synthetic transaction trees, and a jetton → TON → jetton route
 * through two v2 routers' pTON wallets built from codec-encoded bodies (./build.ts), the flow of
 * contracts.md §3.6 and §3.11: router 1 pays TON to router 2's pTON wallet, which notifies router 2 with
 * router 1's pTON wallet as sender; the user is named only in router 2's payload (receiver, refund).
 */
import { beginCell, type Cell } from "@ton/core";
import test from "ava";
import { classify } from "../../../../dex/classify/index.ts";
import { linkHops } from "../../../../dex/classify/routes.ts";
import type { Operation, SwapLeg, SwapRoute } from "../../../../dex/classify/types.ts";
import {
  encodeJettonInternalTransfer,
  encodeJettonTransfer,
  encodeJettonTransferNotification,
  encodePtonV2TonTransfer,
  encodeStonfiV2PayTo,
  encodeStonfiV2Swap,
  encodeStonfiV2SwapPayload,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { addr, msg, rawAddr, tx } from "./build.ts";

test("linkHops: a hop follows the hop whose payout transaction is its nearest ancestor", (t) => {
  // r1 → p1 (hop 0's payout) → w1 → w2 → r2 (hop 1); r2 → p2 (hop 1's payout) = r3 (hop 2, a cross_swap).
  const parent: Record<string, string> = { p1: "r1", w1: "p1", w2: "w1", r2: "w2", p2: "r2", r3: "p2" };
  const hops = [
    { routerTx: "r1", payoutTx: "p1" },
    { routerTx: "r2", payoutTx: "p2" },
    { routerTx: "p2", payoutTx: "p3" },
  ];
  t.deepEqual(
    [...linkHops(hops, (h) => parent[h])],
    [
      [0, 1],
      [1, 2],
    ],
  );
});

test("linkHops: unrelated hops, unknown parents, the distance bound and cycles link nothing", (t) => {
  const hops = [
    { routerTx: "a", payoutTx: "pa" },
    { routerTx: "b", payoutTx: null },
  ];
  t.deepEqual([...linkHops(hops, () => undefined)], []);
  // b descends from pa through 3 transactions: linked within 3 steps, not within 2.
  const chain: Record<string, string> = { b: "x2", x2: "x1", x1: "pa", pa: "a" };
  t.deepEqual([...linkHops(hops, (h) => chain[h], 3)], [[0, 1]]);
  t.deepEqual([...linkHops(hops, (h) => chain[h], 2)], []);
  const cycle: Record<string, string> = { b: "c", c: "b" };
  t.deepEqual([...linkHops(hops, (h) => cycle[h])], []);
  // A hop's own payout above its router transaction is not a previous hop.
  t.deepEqual([...linkHops([{ routerTx: "s", payoutTx: "s" }], () => undefined)], []);
});

test("linkHops: a payout feeds one next hop only (the first in input order)", (t) => {
  const parent: Record<string, string> = { b: "p", c: "p" };
  const hops = [
    { routerTx: "a", payoutTx: "p" },
    { routerTx: "b", payoutTx: null },
    { routerTx: "c", payoutTx: null },
  ];
  t.deepEqual([...linkHops(hops, (h) => parent[h])], [[0, 1]]);
});

const USER = 1;
const USER_WALLET_A = 2;
const R1 = 3;
const R1_WA = 4;
const R1_PTON = 5;
const POOL1 = 7;
const R2 = 11;
const R2_PTON = 12;
const R2_WB = 13;
const POOL2 = 14;
const USER_WALLET_B = 15;
const QUERY_ID = 77n;

const either = (payload: Cell | null) =>
  payload ? { inRef: true, payload } : { inRef: false, payload: beginCell().endCell() };

function swapPayload(
  askWallet: number,
  receiver: number,
  minOut: bigint,
  custom: Cell | null,
  fwdGas: bigint,
) {
  return encodeStonfiV2SwapPayload({
    kind: "stonfi.v2.swap_payload",
    tokenWallet1: addr(askWallet),
    refundAddress: addr(USER),
    excessesAddress: addr(USER),
    txDeadline: 2_000_000_000n,
    minOut,
    receiver: addr(receiver),
    fwdGas,
    customPayload: custom,
    refundFwdGas: 0n,
    refundPayload: null,
    refFee: 10,
    refAddress: null,
  });
}

function payTo(
  to: number,
  caller: number,
  out0: bigint,
  out1: bigint,
  t0: number,
  t1: number,
  custom: Cell | null,
) {
  return encodeStonfiV2PayTo({
    kind: "stonfi.v2.pay_to",
    queryId: QUERY_ID,
    toAddress: addr(to),
    excessesAddress: addr(USER),
    originalCaller: addr(caller),
    exitCode: STONFI_EXIT_CODE.swap_ok,
    customPayload: custom,
    fwdTonAmount: custom ? 300_000_000n : 0n,
    amount0Out: out0,
    token0: addr(t0),
    amount1Out: out1,
    token1: addr(t1),
  });
}

const transfer = (amount: bigint, to: number, payload: Cell | null) =>
  encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: QUERY_ID,
    amount,
    destination: addr(to),
    responseDestination: addr(USER),
    customPayload: null,
    forwardTonAmount: payload ? 300_000_000n : 0n,
    forwardPayload: either(payload),
  });

const notification = (amount: bigint, sender: number, payload: Cell) =>
  encodeJettonTransferNotification({
    kind: "jetton.transfer_notification",
    queryId: QUERY_ID,
    amount,
    sender: addr(sender),
    forwardPayload: { inRef: true, payload },
  });

/** Jetton A → TON on router 1, TON → jetton B on router 2, through router 1's and router 2's pTON wallets. */
function ptonRoute() {
  const hop2 = swapPayload(R2_WB, USER, 1n, null, 0n);
  const hop1 = swapPayload(R1_PTON, R2_PTON, 1n, hop2, 300_000_000n);
  const m1 = msg({ from: USER, to: USER_WALLET_A, body: transfer(1000n, R1, hop1) });
  const m2 = msg({
    from: USER_WALLET_A,
    to: R1_WA,
    body: encodeJettonInternalTransfer({
      kind: "jetton.internal_transfer",
      queryId: QUERY_ID,
      amount: 1000n,
      from: addr(USER),
      responseAddress: addr(USER),
      forwardTonAmount: 300_000_000n,
      forwardPayload: either(hop1),
    }),
  });
  const m3 = msg({ from: R1_WA, to: R1, body: notification(1000n, USER, hop1) });
  const swap1 = msg({
    from: R1,
    to: POOL1,
    body: encodeStonfiV2Swap({
      kind: "stonfi.v2.swap",
      queryId: QUERY_ID,
      fromUser: addr(USER),
      amount0: 1000n,
      amount1: 0n,
      dexPayload: hop1,
    }),
  });
  const pay1 = msg({ from: POOL1, to: R1, body: payTo(R2_PTON, USER, 0n, 500n, R1_WA, R1_PTON, hop2) });
  const out1 = msg({ from: R1, to: R1_PTON, body: transfer(500n, R2_PTON, hop2) });
  const ton = msg({
    from: R1_PTON,
    to: R2_PTON,
    body: encodePtonV2TonTransfer({
      kind: "pton.v2.ton_transfer",
      queryId: QUERY_ID,
      tonAmount: 500n,
      refundAddress: addr(USER),
      forwardPayload: { inRef: true, payload: hop2 },
    }),
  });
  const m4 = msg({ from: R2_PTON, to: R2, body: notification(500n, R1_PTON, hop2) });
  const swap2 = msg({
    from: R2,
    to: POOL2,
    body: encodeStonfiV2Swap({
      kind: "stonfi.v2.swap",
      queryId: QUERY_ID,
      fromUser: addr(R1_PTON),
      amount0: 0n,
      amount1: 500n,
      dexPayload: hop2,
    }),
  });
  const pay2 = msg({ from: POOL2, to: R2, body: payTo(USER, R1_PTON, 300n, 0n, R2_WB, R2_PTON, null) });
  const out2 = msg({ from: R2, to: R2_WB, body: transfer(300n, USER, null) });
  const credit = msg({
    from: R2_WB,
    to: USER_WALLET_B,
    body: encodeJettonInternalTransfer({
      kind: "jetton.internal_transfer",
      queryId: QUERY_ID,
      amount: 300n,
      from: addr(R2),
      responseAddress: addr(USER),
      forwardTonAmount: 0n,
      forwardPayload: either(null),
    }),
  });
  return [
    tx({ account: USER_WALLET_A, lt: 10n, in: m1, outs: [m2] }),
    tx({ account: R1_WA, lt: 11n, in: m2, outs: [m3] }),
    tx({ account: R1, lt: 12n, in: m3, outs: [swap1] }),
    tx({ account: POOL1, lt: 13n, in: swap1, outs: [pay1] }),
    tx({ account: R1, lt: 14n, in: pay1, outs: [out1] }),
    tx({ account: R1_PTON, lt: 15n, in: out1, outs: [ton] }),
    tx({ account: R2_PTON, lt: 16n, in: ton, outs: [m4] }),
    tx({ account: R2, lt: 17n, in: m4, outs: [swap2] }),
    tx({ account: POOL2, lt: 18n, in: swap2, outs: [pay2] }),
    tx({ account: R2, lt: 19n, in: pay2, outs: [out2] }),
    tx({ account: R2_WB, lt: 20n, in: out2, outs: [credit] }),
    tx({ account: USER_WALLET_B, lt: 21n, in: credit }),
  ];
}

const ofType = <T extends Operation["type"]>(ops: Operation[], type: T) =>
  ops.filter((o): o is Extract<Operation, { type: T }> => o.type === type);

test("a jetton → TON → jetton route through two routers' pTON wallets is one route of two hops", (t) => {
  const txs = ptonRoute();
  const ops = classify(txs);
  const legs: SwapLeg[] = ofType(ops, "swap");
  const routes: SwapRoute[] = ofType(ops, "swap_route");
  t.is(legs.length, 2);
  const [hop1, hop2] = legs;
  t.is(hop1!.router, rawAddr(R1));
  t.is(hop1!.receiver, rawAddr(R2_PTON));
  t.is(hop1!.ask.kind, "ton");
  t.is(hop1!.success, true);
  t.is(hop2!.router, rawAddr(R2));
  // Router 2 credits the offer to router 1's pTON wallet: the user's address is lost at this hop.
  t.is(hop2!.sender, rawAddr(R1_PTON));
  t.is(hop2!.offer.kind, "ton");
  t.is(hop2!.amount_in, 500n);
  t.is(hop2!.amount_out, 300n);
  t.is(hop2!.success, true);
  t.is(routes.length, 1);
  const route = routes[0]!;
  t.deepEqual(route.legs, [hop1!.id, hop2!.id]);
  t.is(route.sender, rawAddr(USER));
  t.is(route.receiver, rawAddr(USER));
  t.is(route.amount_in, 1000n);
  t.is(route.amount_out, 300n);
  t.is(route.status, "success");
  t.deepEqual(route.tx_hashes.toSorted(), txs.map((x) => x.hash).toSorted());
  const view = { id: route.id, sender: rawAddr(USER), receiver: rawAddr(USER) };
  t.deepEqual(hop1!.route, view);
  t.deepEqual(hop2!.route, view);
  t.deepEqual(ofType(ops, "unknown"), []);
  t.deepEqual(ofType(ops, "malformed"), []);
  // Whatever the order of the input.
  t.deepEqual(classify([...txs].reverse()), ops);
});

test("a one-hop swap has no route", (t) => {
  const txs = ptonRoute();
  // Only the first hop's part of the trace: the route is not linked (hop 2 is not in the batch).
  const ops = classify(txs.slice(0, 6));
  const legs = ofType(ops, "swap");
  t.is(legs.length, 1);
  t.is(legs[0]!.route, null);
  t.deepEqual(ofType(ops, "swap_route"), []);
});
