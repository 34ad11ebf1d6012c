/**
 * `pickSwapOutcome` (api/queries/sql/swaps.ts) on synthetic legs, ranked as the query ranks them
 * (legs that continued as a cross swap last, then latest first): which leg answers `/v1/swap/status`
 * for a router, and which leg took the wallet's offer.
 */
import test from "ava";
import { pickSwapOutcome, type SwapLegRow } from "../../../api/queries/sql/swaps.ts";

const USER = "0:01";
const R1 = "0:R1";
const R2 = "0:R2";

function leg(lt: bigint, router: string, o: Partial<SwapLegRow> = {}): SwapLegRow {
  return {
    sender: USER,
    router,
    route_id: null,
    route_sender: null,
    query_id: 9n,
    exit_name: "swap_ok",
    success: true,
    lt,
    tx_hash: `tx${lt}`,
    amount_in: 100n,
    amount_out: 50n,
    payout_amount: 50n,
    offer_kind: "jetton",
    offer_master: null,
    offer_router_wallet: null,
    ask_kind: "jetton",
    ask_master: null,
    ask_router_wallet: null,
    continues_as_cross_swap: false,
    ...o,
  };
}

const rank = (rows: SwapLegRow[]) =>
  [...rows].sort((a, b) =>
    a.continues_as_cross_swap !== b.continues_as_cross_swap
      ? Number(a.continues_as_cross_swap) - Number(b.continues_as_cross_swap)
      : a.lt > b.lt
        ? -1
        : 1,
  );
const lts = (p: ReturnType<typeof pickSwapOutcome>) => (p === null ? null : [p.first.lt, p.outcome.lt]);

test("a route across routers: either router answers with the last hop; the first hop took the offer", (t) => {
  const route = { route_id: "r", route_sender: USER };
  const rows = rank([leg(10n, R1, route), leg(20n, R2, { ...route, sender: R1 })]);
  t.deepEqual(lts(pickSwapOutcome(rows, R1)), [10n, 20n]);
  t.deepEqual(lts(pickSwapOutcome(rows, R2)), [10n, 20n]);
  t.is(pickSwapOutcome(rows, "0:R3"), null);
});

test("a route of three hops whose last hop was refunded: the outcome is the refunded hop", (t) => {
  const route = { route_id: "r", route_sender: USER };
  const rows = rank([
    leg(10n, R1, route),
    leg(20n, R2, { ...route, sender: R1 }),
    leg(30n, R2, { ...route, sender: R1, success: false, exit_name: "swap_refund_slippage" }),
  ]);
  t.deepEqual(lts(pickSwapOutcome(rows, R1)), [10n, 30n]);
  t.is(pickSwapOutcome(rows, R1)?.outcome.exit_name, "swap_refund_slippage");
});

test("legs without a route: a cross swap's last leg, and a reused query id's latest swap", (t) => {
  const rows = rank([
    leg(5n, R1),
    leg(10n, R1, { continues_as_cross_swap: true }),
    leg(11n, R1, { continues_as_cross_swap: true }),
    leg(12n, R1),
  ]);
  // The latest leg that did not continue; going back, the legs that continued belong to it.
  t.deepEqual(lts(pickSwapOutcome(rows, R1)), [10n, 12n]);
  t.deepEqual(lts(pickSwapOutcome(rank([leg(5n, R1), leg(8n, R1)]), R1)), [8n, 8n]);
  t.is(pickSwapOutcome(rows, R2), null);
});
