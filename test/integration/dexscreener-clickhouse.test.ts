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
import { ASSETS, P_CPI, P_STABLE, P_V1, P_WCPI, R_CPI, R_V1, WALLET } from "../unit/api/fixtures.ts";
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
  // From the fixture's facts: swap 1 (P_V1, TON in, with the pool state stored at its lt), the mint 5 into
  // P_CPI, the burn 9 of P_WCPI; provides, LpAccount refunds, refunded swaps and an empty mint are not events.
  t.deepEqual(
    events.slice(0, 5).map((e) => [e.kind, e.pool, e.swapIn, e.amount0, e.amount1, e.maker]),
    [
      ["swap", P_V1.address, 0, 1_000_000_000n, 2_990_000n, WALLET],
      ["swap", P_CPI.address, 1, 2_990_000n, 1_000_000_000n, WALLET],
      ["join", P_CPI.address, null, 2_990_000n, 1_000_000_000n, WALLET],
      ["join", P_STABLE.address, null, 5_000_000n, 4_900_000n, WALLET],
      ["exit", P_WCPI.address, null, 7n, 9n, WALLET],
    ],
  );
  t.like(events[0], {
    reserve0: P_V1.state.reserve0,
    reserve1: P_V1.state.reserve1,
    decimals0: 9,
    decimals1: 6,
  });
  t.true(events.every((e) => e.block.mcSeqno === 1 && e.block.utime === X.T0 + 3_000));
  t.is(events.filter((e) => e.kind !== "swap").length, 3);
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
