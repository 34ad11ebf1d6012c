/**
 * The action tree links every hop of a route across routers through pTON wallets: a jetton → TON → jetton
 * route over two routers (test/unit/dex/classify/pton-route.ts), stored in the memory read model, asked
 * from the user's first transaction.
 */
import test from "ava";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { actionTreeResponse } from "../../../schemas/api/transactions.ts";
import { rawAddr } from "../dex/classify/build.ts";
import { ptonRoute, R1, R2 } from "../dex/classify/pton-route.ts";
import { f, memoryData, request, startApi, testDeps } from "./harness.ts";

test("action tree of a jetton → TON → jetton route through two routers' pTON wallets: both hops, chained", async (t) => {
  const txs = ptonRoute();
  const data = memoryData();
  data.transactions = [...(data.transactions ?? []), ...txs];
  const api = await startApi(testDeps({ data: new MemoryReadModel(data) }));
  t.teardown(() => api.close());
  const root = txs[0]!;
  const res = await request(api, "GET", `/v1/transactions/${root.hash}/action_tree`);
  t.is(res.status, 200, res.text);
  const tree = actionTreeResponse.parse(res.json);
  t.true(tree.tx_chain_completed);
  // The pools' transactions: their inbound message is the router's v2 `swap` (0x6664de2a).
  const pools = [R1, R2].map((r) =>
    txs.find((x) => x.in_msg?.source === rawAddr(r) && x.in_msg.opcode === 0x6664de2a),
  );
  const swaps = tree.actions.filter((a) => a["@type"] === "swap");
  t.is(swaps.length, 2);
  t.like(swaps[0], {
    status: { "@type": "completed", success: true, exit_code: "swap_ok", tx_id: { hash: pools[0]!.hash } },
  });
  t.like(swaps[1], {
    status: { "@type": "completed", success: true, exit_code: "swap_ok", tx_id: { hash: pools[1]!.hash } },
    prev_index: tree.actions.indexOf(swaps[0]!),
  });
  t.is(swaps[0]!.prev_index, undefined);
  t.is(swaps[1]!.destination, f(pools[1]!.account));
});
