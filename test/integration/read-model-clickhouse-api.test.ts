/**
 * End to end: the Koa app (`createApp`) over the ClickHouse read model on the real embedded engine, with
 * the fixture facts and the API tests' fake chain and clock. Every route of the API tests' route table
 * answers 200 with a body its zod response schema accepts; a few answers are checked by value; and a
 * store that cannot be reached makes the API answer 503.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { ClickHouseStatsReadModel } from "../../api/read-model-stats.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { classifyStoreError } from "../../infra/store/errors.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { errorBody } from "../../schemas/api/objects.ts";
import { poolListResponse, poolResponse } from "../../schemas/api/pools.ts";
import { actionTreeResponse, swapStatusResponse, txQueryResponse } from "../../schemas/api/transactions.ts";
import { feeVaultsResponse, operationsResponse } from "../../schemas/api/wallets.ts";
import { f, type RunningApi, request, startApi, testDeps } from "../unit/api/harness.ts";
import { ROUTE_CASES } from "../unit/api/routes-table.ts";
import * as X from "./_read-model-fixtures.ts";

const test = anyTest as TestFn<{ dir: string; store: Store; api: RunningApi }>;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-rm-api-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  await writeBatch(store, X.FACTS, { consumer: "test", partition_id: 0, mc_seqno: 1, next_offset: 1n });
  const api = await startApi(
    testDeps({ data: new ClickHouseReadModel(store), stats: new ClickHouseStatsReadModel(store) }),
  );
  t.context = { dir, store, api };
});

test.after.always(async (t) => {
  await t.context.api?.close();
  await t.context.store?.close();
  if (t.context.dir) rmSync(t.context.dir, { recursive: true, force: true });
});

for (const c of ROUTE_CASES) {
  test(`${c.method} ${c.path.split("?")[0]}${c.body ? " (JSON body)" : ""}: 200 and the response schema`, async (t) => {
    const res = await request(t.context.api, c.method, c.path, c.body);
    t.is(res.status, 200, res.text);
    const parsed = c.schema.safeParse(res.json);
    t.true(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues));
  });
}

const get = async <T>(
  t: { context: { api: RunningApi } },
  path: string,
  schema: { parse(x: unknown): T },
) => {
  const res = await request(t.context.api, "GET", path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return schema.parse(res.json);
};
const time = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);

test("pools: the list, and one pool with its stored state", async (t) => {
  const list = await get(t, "/v1/pools", poolListResponse);
  // Every pool the store has a row for, the two with unknown parts too (with null, never "0").
  t.is(list.pool_list.length, X.ALL_POOLS.length + 2);
  const noState = list.pool_list.find((p) => p.address === f(X.P_NO_STATE.address));
  t.like(noState, {
    token0_address: f(X.STON),
    reserve0: null,
    reserve1: null,
    lp_total_supply: null,
    lp_fee: null,
  });
  const noMaster = list.pool_list.find((p) => p.address === f(X.P_UNKNOWN.address));
  t.like(noMaster, {
    token0_address: f(X.STON),
    token1_address: null,
    reserve0: (2n ** 200n + 1n).toString(),
  });
  const { pool } = await get(t, `/v1/pools/${f(X.P_BIG.address)}`, poolResponse);
  t.like(pool, {
    address: f(X.P_BIG.address),
    router_address: f(X.R_CPI.address),
    token0_address: f(X.STON),
    reserve0: (2n ** 200n + 1n).toString(),
    lp_total_supply: (2n ** 256n - 1n).toString(),
  });
  const v1 = await get(t, "/v1/pools?dex_v2=false", poolListResponse);
  t.deepEqual(
    v1.pool_list.map((p) => p.address),
    [f(X.P_V1.address)],
  );
});

test("wallet operations and fee vaults", async (t) => {
  const w = f(X.WALLET);
  const range = `since=${time(X.T0)}&until=${time(X.T0 + 2000)}`;
  const all = await get(t, `/v1/wallets/${w}/operations?${range}`, operationsResponse);
  // Both hops of the route across routers are WALLET's (the second one credited to the first router).
  t.is(all.operations.length, 16, "WALLET's operations in the window (one mint is older)");
  const swaps = await get(t, `/v1/wallets/${w}/operations?${range}&op_type=Swap`, operationsResponse);
  t.like(swaps.operations[0], {
    operation: { operation_type: "Swap", pool_address: f(X.P_V1.address), asset0_amount: "1000000000" },
    asset0_info: { symbol: "TON" },
    asset1_info: { symbol: "USDT" },
  });
  const vaults = await get(t, `/v1/wallets/${w}/fee_vaults`, feeVaultsResponse);
  t.like(
    vaults.vault_list.find((v) => v.vault_address === f(X.VAULT_USDT)),
    { balance: "12345", asset_address: f(X.USDT) },
  );
});

test("transaction query, swap status and action tree over the stored trace", async (t) => {
  const root = X.TRACE_ROOT;
  const byExt = await get(t, `/v1/transactions/query?ext_msg_hash=${root.in_msg!.hash}`, txQueryResponse);
  t.like(byExt, { tx_id: { hash: root.hash, lt: Number(root.lt) } });
  const status = await get(
    t,
    `/v1/swap/status?router_address=${f(X.R_CPI.address)}&owner_address=${f(X.WALLET)}&query_id=42`,
    swapStatusResponse,
  );
  t.like(status, { "@type": "Found", exit_code: "swap_ok", coins: "2990000" });
  const tree = await get(t, `/v1/transactions/${root.hash}/action_tree`, actionTreeResponse);
  t.true(tree.tx_chain_completed);
  t.is(tree.actions.length, 1);
  t.like(tree.actions[0], {
    "@type": "swap",
    contract_major_version: "v2",
    tx_payload: { opcode: 0x6664de2a, query_id: "4903743358431924734" },
    status: { "@type": "completed", success: true, exit_code: "swap_ok" },
  });
});

test("a store that cannot be reached answers 503 service_unavailable", async (t) => {
  const down: Store = {
    ...t.context.store,
    query: async () => {
      throw classifyStoreError(
        Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
        "query",
      );
    },
  };
  const api = await startApi(testDeps({ data: new ClickHouseReadModel(down) }));
  t.teardown(() => api.close());
  for (const path of [
    "/v1/pools",
    `/v1/transactions/${X.TRACE_ROOT.hash}/action_tree`,
    `/v1/wallets/${f(X.WALLET)}/fee_vaults`,
  ]) {
    const res = await request(api, "GET", path);
    t.is(res.status, 503, path);
    t.is(errorBody.parse(res.json).error.code, "service_unavailable");
  }
});
