/**
 * Action tree over a recorded mainnet trace (complete and truncated), the transaction lookup with every
 * hash encoding, last transactions, and addresses accepted in every TON form.
 */
import { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { actionTreeResponse, txQueryResponse } from "../../../schemas/api/transactions.ts";
import { lastTransactionsResponse } from "../../../schemas/api/wallets.ts";
import { TRACE, TRACE_ROOT, USDT } from "./fixtures.ts";
import { f, memoryData, type RunningApi, request, startApi, testDeps } from "./harness.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  t.context = { api: await startApi() };
});
test.after.always((t) => t.context.api.close());

test("action tree of a recorded v2 swap: one completed swap_ok action, chain complete", async (t) => {
  const res = await request(t.context.api, "GET", `/v1/transactions/${TRACE_ROOT.hash}/action_tree`);
  const tree = actionTreeResponse.parse(res.json);
  t.true(tree.tx_chain_completed);
  t.like(tree.initial_tx_id, { hash: TRACE_ROOT.hash, lt: Number(TRACE_ROOT.lt) });
  t.is(tree.actions.length, 1);
  t.like(tree.actions[0], {
    "@type": "swap",
    contract_major_version: "v2",
    tx_payload: { opcode: 0x6664de2a, query_id: "4903743358431924734" },
    status: { "@type": "completed", success: true, exit_code: "swap_ok" },
  });
  const post = await request(t.context.api, "POST", "/v1/transaction/action_tree", {
    tx_hash: TRACE_ROOT.hash,
  });
  t.deepEqual(post.json, res.json, "the POST form with the hash in the body answers the same");
});

test("a trace whose later transactions are not stored yet is incomplete and its swap pending", async (t) => {
  const poolTx = TRACE.txs.find((tx) => tx.in_msg?.opcode === 0x6664de2a);
  t.truthy(poolTx);
  const data = memoryData();
  // Keep the trace up to the pool's transaction: the payout to the receiver is not stored yet.
  data.transactions = TRACE.txs.filter((tx) => BigInt(tx.lt) <= BigInt(poolTx?.lt ?? 0));
  const api = await startApi(testDeps({ data: new MemoryReadModel(data) }));
  t.teardown(() => api.close());
  const tree = actionTreeResponse.parse(
    (await request(api, "GET", `/v1/transactions/${TRACE_ROOT.hash}/action_tree`)).json,
  );
  t.false(tree.tx_chain_completed);
  t.like(
    tree.actions.find((a) => a["@type"] === "swap"),
    { status: { "@type": "pending" } },
  );
});

test("transaction lookup by external message hash in hex, base64 and base64url", async (t) => {
  const hex = TRACE_ROOT.in_msg?.hash ?? "";
  const b64 = Buffer.from(hex, "hex").toString("base64");
  const forms = [hex, b64, b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")];
  for (const form of forms) {
    const res = await request(
      t.context.api,
      "GET",
      `/v1/transactions/query?ext_msg_hash=${encodeURIComponent(form)}`,
    );
    t.like(txQueryResponse.parse(res.json), { tx_id: { hash: TRACE_ROOT.hash }, wallet_seqno: 7 }, form);
  }
});

test("the lookup window is measured from the newest indexed block, not the wall clock", async (t) => {
  const hex = TRACE_ROOT.in_msg?.hash ?? "";
  const years = 3 * 365 * 86_400 * 1000;
  // Years after the trace: indexed history is still found (no window by default, any min_tx_timestamp).
  const late = await startApi(testDeps({ clock: () => Date.UTC(2031, 0, 1) + years }));
  t.teardown(() => late.close());
  for (const path of [
    `/v1/transactions/query?ext_msg_hash=${hex}`,
    `/v1/transactions/query?ext_msg_hash=${hex}&min_tx_timestamp=2020-01-01T00:00:00`,
  ]) {
    t.like(txQueryResponse.parse((await request(late, "GET", path)).json), {
      tx_id: { hash: TRACE_ROOT.hash },
    });
  }
  // A configured window reaches back from the newest indexed block (the memory model's newest
  // transaction): sized to just cover the root, whose time it then still finds; one second more is refused.
  const head = await testDeps().data.getIndexedHead();
  const newest = head?.utime ?? 0;
  const windowS = newest - TRACE_ROOT.now;
  t.true(windowS > 0);
  const windowed = await startApi(testDeps({ clock: () => Date.UTC(2031, 0, 1), txQueryWindowS: windowS }));
  t.teardown(() => windowed.close());
  const at = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
  const found = await request(
    windowed,
    "GET",
    `/v1/transactions/query?ext_msg_hash=${hex}&min_tx_timestamp=${at(newest - windowS)}`,
  );
  t.like(txQueryResponse.parse(found.json), { tx_id: { hash: TRACE_ROOT.hash } });
  const refused = await request(
    windowed,
    "GET",
    `/v1/transactions/query?ext_msg_hash=${hex}&min_tx_timestamp=${at(newest - windowS - 1)}`,
  );
  t.is(refused.status, 400);
  t.like(refused.json, { error: { details: [{ field: "min_tx_timestamp" }] } });
});

test("last transactions: newest first, limited, with the wallet's seqno", async (t) => {
  const wallet = f(TRACE_ROOT.account);
  const res = await request(t.context.api, "GET", `/v1/wallets/${wallet}/transactions/last?limit=1`);
  const last = lastTransactionsResponse.parse(res.json);
  t.is(last.seqno, 7);
  const mine = TRACE.txs
    .filter((tx) => tx.account === TRACE_ROOT.account)
    .sort((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? 1 : -1));
  t.deepEqual(last.tx_list, [{ hash: mine[0]?.hash, lt: Number(mine[0]?.lt), contract_address: wallet }]);
});

test("addresses are accepted raw, bounceable, non-bounceable, standard and URL-safe base64", async (t) => {
  const a = Address.parseRaw(USDT);
  const forms = [
    USDT,
    USDT.toLowerCase(),
    a.toString({ bounceable: true, urlSafe: true }),
    a.toString({ bounceable: false, urlSafe: true }),
    a.toString({ bounceable: true, urlSafe: false }),
    a.toString({ bounceable: false, urlSafe: false, testOnly: true }),
  ];
  for (const form of forms) {
    const res = await request(t.context.api, "GET", `/v1/assets/${encodeURIComponent(form)}`);
    t.is(res.status, 200, form);
    t.like(res.json, { asset: { contract_address: f(USDT) } }, "responses use the bounceable URL-safe form");
  }
});
