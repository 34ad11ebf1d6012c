/**
 * Routes across routers: `linkHops` on synthetic transaction trees, and a jetton → TON → jetton route
 * through two v2 routers' pTON wallets (./pton-route.ts), where router 2 credits router 1's pTON wallet.
 */
import test from "ava";
import { classify } from "../../../../dex/classify/index.ts";
import { linkHops } from "../../../../dex/classify/routes.ts";
import type { Operation, SwapLeg, SwapRoute } from "../../../../dex/classify/types.ts";
import { rawAddr } from "./build.ts";
import { ptonRoute, R1, R1_PTON, R2, R2_PTON, USER } from "./pton-route.ts";

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
