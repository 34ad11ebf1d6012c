/**
 * The ClickHouse HTTP test double (infra/servers/clickhouse-standin.ts, started here through
 * infra/servers/infra.sh) answers the project's unmodified HTTP store (`openStore` with CLICKHOUSE_URL,
 * i.e. @clickhouse/client 1.23.1) as a server would: the version check, the migrations, JSONEachRow
 * inserts, bound parameters (strings with escapes, arrays, NULL), a database in the URL, settings per
 * request, gzip responses, and errors classified by the store.
 */
import { createClient } from "@clickhouse/client";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import { isRetryable } from "../../infra/errors.ts";
import { openStore } from "../../infra/store/client.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { guid, startServers } from "./servers.ts";

const test = anyTest as TestFn<{ url: string }>;

test.before(async (t) => {
  t.context.url = (await startServers(["clickhouse"])).clickhouseUrl;
});

test("the HTTP store runs migrations, inserts and bound queries through the stand-in", async (t) => {
  const db = guid();
  const admin = await openStore({ clickhouseUrl: t.context.url, dataDir: "unused" });
  await admin.command(`CREATE DATABASE ${db}`);
  t.teardown(async () => {
    await admin.command(`DROP DATABASE IF EXISTS ${db}`);
    await admin.close();
  });
  const store = await openStore({ clickhouseUrl: `${t.context.url}/${db}`, dataDir: "unused" });
  t.teardown(() => store.close());
  t.is(store.kind, "server");
  t.regex(store.version, /^2\d\.\d+\./);
  const first = await migrate(store);
  t.true(first.applied.length > 0);
  t.deepEqual((await migrate(store)).applied, [], "a second run applies nothing: the versions were stored");
  await store.command(
    "CREATE TABLE kv (k UInt64, s String, n Nullable(UInt256)) ENGINE = ReplacingMergeTree ORDER BY k",
  );
  await store.insert("kv", [
    { k: 1n, s: "tab\there 'quoted' back\\slash\nline", n: 2n ** 255n },
    { k: 2n, s: "plain", n: null },
  ]);
  const row = z.object({ k: z.string(), s: z.string(), n: z.string().nullable() });
  t.deepEqual(
    await store.query(
      "SELECT k, s, n FROM kv FINAL WHERE s IN {ss:Array(String)} OR k = {k:UInt64} ORDER BY k",
      row,
      { ss: ["tab\there 'quoted' back\\slash\nline"], k: 2 },
    ),
    [
      { k: "1", s: "tab\there 'quoted' back\\slash\nline", n: (2n ** 255n).toString() },
      { k: "2", s: "plain", n: null },
    ],
  );
  t.deepEqual(await store.query("SELECT {v:Nullable(String)} AS v", z.object({ v: z.null() }), { v: null }), [
    { v: null },
  ]);
  const error = await t.throwsAsync(store.query("SELECT no_such_column FROM kv", row));
  t.false(isRetryable(error), "an SQL error is not retried");
  t.regex(String(error?.message), /no_such_column/);
});

test("settings apply per request, and gzip responses are decompressed by the client", async (t) => {
  const client = createClient({ url: t.context.url, compression: { response: true } });
  t.teardown(() => client.close());
  const quoted = await client.query({
    query: "SELECT toUInt64(7) AS x",
    format: "JSONEachRow",
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
  });
  t.deepEqual(await quoted.json(), [{ x: "7" }]);
  const bare = await client.query({
    query: "SELECT toUInt64(7) AS x",
    format: "JSONEachRow",
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  t.deepEqual(await bare.json(), [{ x: 7 }], "the previous request's setting does not leak");
  t.true((await client.ping()).success);
});
