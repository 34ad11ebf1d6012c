/**
 * Routes across routers on real mainnet traces (test/vectors/mainnet-traces replayed through `tondex
 * replay`, ClickHouse read model, no chain access), as the user who started them sees them. A trace is a
 * multi-router route when its swap legs name two or more routers (general rule, any trace). For each:
 * - `/v1/wallets/{user}/operations` lists every hop as the user's (the later hops' `from_user` is the
 *   previous router or its pTON wallet, never the user), all started by the user's wallet transaction and
 *   destined to the user, not to the next router;
 *   the last hop carries the final output, the amount the user's side of the trace really received (read
 *   from the delivering message's body); the previous router does not list the hop as its own;
 * - `/v1/swap/status` with the user as owner and the query id the user sent finds the last hop, through
 *   any router of the route;
 * - the action tree from the user's wallet transaction has a swap action for every hop, each chained to
 *   the previous hop by `prev_index`.
 */
import { Cell } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { classify, type SwapLeg } from "../../dex/classify/index.ts";
import { decodeBody } from "../../dex/codecs/index.ts";
import { actionTreeResponse, swapStatusResponse } from "../../schemas/api/transactions.ts";
import { operationsResponse } from "../../schemas/api/wallets.ts";
import { ALL_TIME, getJson, type ReplayedTraces, replayTraces, rootOf } from "../helpers/replayed-traces.ts";
import type { LoadedTrace } from "../helpers/traces.ts";
import { f } from "../unit/api/harness.ts";

const test = anyTest as TestFn<ReplayedTraces>;
test.before(async (t) => {
  t.context = await replayTraces();
});
test.after.always((t) => t.context.close?.());

const WINDOW = ALL_TIME;

const get = getJson;

type Route = { trace: LoadedTrace; hops: SwapLeg[] };

/** Traces whose swap legs name two or more routers, with their pool-level legs in lt order. */
function multiRouterRoutes(traces: readonly LoadedTrace[]): Route[] {
  return traces.flatMap((trace) => {
    const hops = classify(trace.txs, { jettonMasters: trace.masters }).filter(
      (o): o is SwapLeg => o.type === "swap" && o.pool !== null,
    );
    return new Set(hops.map((h) => h.router)).size >= 2 ? [{ trace, hops }] : [];
  });
}

/** The query id of the message the user's wallet sent (every body here has it right after the op). */
function sentQueryId(trace: LoadedTrace): bigint {
  const out = rootOf(trace).out_msgs.find((m) => m.destination !== null);
  if (out === undefined) throw new Error(`${trace.name}: the user sent nothing`);
  const s = Cell.fromBase64(out.body_boc).beginParse();
  s.skip(32);
  return s.loadUintBig(64);
}

/**
 * What the last hop's payout delivered, read from the trace: the message the paying router wallet sent on
 * (jetton `internal_transfer`, pTON `ton_transfer` / `transfer_notification`) and its amount.
 */
function deliveredAmount(trace: LoadedTrace, hop: SwapLeg): bigint | null {
  const payoutTx = trace.txs.find((x) => x.hash === hop.payout?.tx_hash);
  const toWallet = payoutTx?.out_msgs.find((m) => m.destination === hop.payout?.router_wallet);
  const walletTx = trace.txs.find((x) => x.in_msg?.hash === toWallet?.hash);
  for (const m of walletTx?.out_msgs ?? []) {
    const body = decodeBody(Cell.fromBase64(m.body_boc));
    if (body.kind === "jetton.internal_transfer" || body.kind === "jetton.transfer_notification")
      return body.amount;
    if (body.kind === "pton.v2.ton_transfer") return body.tonAmount;
  }
  return null;
}

test("the shared traces hold a multi-router route", (t) => {
  t.true(multiRouterRoutes(t.context.traces).length >= 1);
});

test("a route across routers is the user's: every hop listed for the user, to the user, the last with the final output", async (t) => {
  for (const { trace, hops } of multiRouterRoutes(t.context.traces)) {
    const root = rootOf(trace);
    const user = f(root.account);
    const inTrace = new Set(trace.txs.map((x) => x.hash));
    const { operations } = await get(t, `/v1/wallets/${user}/operations?${WINDOW}`, operationsResponse);
    const mine = operations.map((o) => o.operation).filter((o) => inTrace.has(o.pool_tx_hash));
    t.deepEqual(
      mine.map((o) => o.pool_tx_hash),
      hops.map((h) => h.tx_hash),
      `${trace.name}: every hop is the user's operation`,
    );
    const routers = new Set(hops.map((h) => f(h.router!)));
    for (const o of mine) {
      t.is(o.operation_type, "Swap");
      t.is(o.wallet_address, user, trace.name);
      t.is(
        o.wallet_tx_hash,
        root.hash,
        `${trace.name}: one user operation, started by the user's transaction`,
      );
      t.is(o.destination_wallet_address, user, `${trace.name}: the user's destination, not the next router`);
      t.false(routers.has(o.destination_wallet_address), trace.name);
    }
    const last = hops.at(-1)!;
    const final = deliveredAmount(trace, last);
    t.not(final, null, `${trace.name}: the final payout is in the trace`);
    const lastOp = mine.at(-1)!;
    t.true(lastOp.success, trace.name);
    const askAmount =
      lastOp.asset0_address === f(last.ask.master!) ? lastOp.asset0_amount : lastOp.asset1_amount;
    t.is(askAmount, `${final}`, `${trace.name}: the final output`);
    // The previous routers (later hops' from_user) do not list the hops as their own operations.
    for (const hop of hops.slice(1)) {
      const previous = await get(t, `/v1/wallets/${f(hop.sender!)}/operations?${WINDOW}`, operationsResponse);
      t.deepEqual(
        previous.operations.filter((o) => inTrace.has(o.operation.pool_tx_hash)),
        [],
        `${trace.name}: not ${hop.sender}'s operation`,
      );
    }
  }
});

test("swap status with the user as owner and the query id the user sent finds the last hop, through any router of the route", async (t) => {
  for (const { trace, hops } of multiRouterRoutes(t.context.traces)) {
    const user = f(rootOf(trace).account);
    const queryId = sentQueryId(trace);
    const last = hops.at(-1)!;
    const final = deliveredAmount(trace, last);
    for (const router of new Set(hops.map((h) => h.router!))) {
      const status = await get(
        t,
        `/v1/swap/status?router_address=${f(router)}&owner_address=${user}&query_id=${queryId}`,
        swapStatusResponse,
      );
      t.like(
        status,
        {
          "@type": "Found",
          address: user,
          query_id: `${queryId}`,
          exit_code: "swap_ok",
          coins: `${final}`,
          logical_time: `${last.lt}`,
          tx_hash: last.tx_hash,
        },
        `${trace.name} via ${router}`,
      );
    }
  }
});

test("the action tree from the user's wallet transaction links every hop of the route", async (t) => {
  for (const { trace, hops } of multiRouterRoutes(t.context.traces)) {
    const root = rootOf(trace);
    const tree = await get(t, `/v1/transactions/${root.hash}/action_tree`, actionTreeResponse);
    const swaps = tree.actions.map((a, index) => ({ a, index })).filter(({ a }) => a["@type"] === "swap");
    const txOf = ({ a }: (typeof swaps)[number]) =>
      a.status["@type"] === "completed" ? a.status.tx_id.hash : null;
    t.deepEqual(
      swaps.map(txOf),
      hops.map((h) => h.tx_hash),
      `${trace.name}: one swap action per hop`,
    );
    t.is(swaps[0]!.a.prev_index, undefined, trace.name);
    for (let i = 1; i < swaps.length; i++) {
      t.is(swaps[i]!.a.prev_index, swaps[i - 1]!.index, `${trace.name}: hop ${i + 1} follows hop ${i}`);
    }
  }
});
