/**
 * The DexScreener feed over the ClickHouse read model on the embedded engine, with the read-model fixture
 * facts (test/integration/_read-model-fixtures.ts): the SQL's events by value, and the rule validator
 * over the served feed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { validateFeed } from "../helpers/dexscreener-validator.ts";
import { ASSETS, R_CPI, R_V1 } from "../unit/api/fixtures.ts";
import { f, type RunningApi, request, startApi, testDeps } from "../unit/api/harness.ts";
import * as X from "./_read-model-fixtures.ts";

const test = anyTest as TestFn<{ dir: string; store: Store; api: RunningApi; data: ClickHouseReadModel }>;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-feed-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  await writeBatch(store, X.FACTS, { consumer: "test", partition_id: 0, mc_seqno: 1, next_offset: 1n });
  const data = new ClickHouseReadModel(store);
  const api = await startApi(testDeps({ data }));
  t.context = { dir, store, api, data };
});

test.after.always(async (t) => {
  await t.context.api?.close();
  await t.context.store?.close();
  if (t.context.dir) rmSync(t.context.dir, { recursive: true, force: true });
});

test("head and events from the facts", async (t) => {
  t.deepEqual(await t.context.data.getFeedHead(), { mcSeqno: 1, utime: X.T0 + 3_000 });
  const events = await t.context.data.getFeedEvents(0, 1);
  t.true(events.length > 0);
  t.deepEqual(await t.context.data.getFeedEvents(2, 5), []);
});

test("the served feed keeps every rule the validator checks", async (t) => {
  const decimals = new Map(ASSETS.map((a) => [f(a.address), a.decimals as number]));
  const report = await validateFeed(
    async (path) => {
      const r = await request(t.context.api, "GET", path);
      return { status: r.status, text: r.text };
    },
    "/export/dexscreener/v1",
    {
      decimals: (id) => decimals.get(id),
      notMakers: new Set([R_V1, R_CPI].flatMap((r) => [f(r.address), f(r.ptonWallet)])),
    },
  );
  t.deepEqual(report.violations, []);
  t.log(report.counts);
});
