import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { isAppError, isRetryable } from "../../../../infra/errors.ts";
import { checkServerVersion, openStore, parseVersion } from "../../../../infra/store/client.ts";
import { classifyStoreError } from "../../../../infra/store/errors.ts";
import { paramType } from "../../../../infra/store/facts-reader.ts";

test("versions: 24.8 and newer are accepted, older refused with the reason", (t) => {
  t.deepEqual(parseVersion("26.7.2.1"), { major: 26, minor: 7 });
  t.is(parseVersion("nonsense"), null);
  for (const ok of ["24.8.1.2684", "24.10.1", "25.1.1", "26.7.2.1"])
    t.notThrows(() => checkServerVersion(ok, "x"));
  for (const old of ["24.7.9", "23.8.16.16", "18.16.1", ""]) {
    const error = t.throws(() => checkServerVersion(old, "http://h:8123"));
    t.false(isRetryable(error));
    t.regex(error?.message ?? "", /needs 24\.8 or newer/);
  }
});

test("store errors: unavailability is retryable, SQL errors are not", (t) => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8123"), { code: "ECONNREFUSED" });
  const syntax = Object.assign(new Error("Syntax error"), { code: "62", type: "SYNTAX_ERROR" });
  const busy = Object.assign(new Error("Too many simultaneous queries"), { code: "202" });
  const wrapped = new Error("outer", { cause: refused });
  const cases: [unknown, boolean][] = [
    [refused, true],
    [syntax, false],
    [busy, true],
    [new Error("Timeout error."), true],
    [new Error("socket hang up"), true],
    [wrapped, true],
    [new Error("something else"), false],
  ];
  for (const [error, retryable] of cases) {
    const classified = classifyStoreError(error, "query", { sql: "SELECT   1\n FROM t" });
    t.true(isAppError(classified));
    t.is(isRetryable(classified), retryable, (error as Error).message);
    t.is(classified.context.sql, "SELECT 1 FROM t");
    t.is(classified.cause, error);
  }
  const insert = classifyStoreError(syntax, "insert", { table: "swaps" });
  t.is(insert.message, "ClickHouse insert into swaps failed: Syntax error");
  t.deepEqual(insert.context, { operation: "insert", code: "62", type: "SYNTAX_ERROR", table: "swaps" });
  t.regex(classifyStoreError(new Error("at http://u:pw@h"), "open").message, /http:\/\/u:\*\*\*@h/);
});

test("bound parameter types: Nullable stripped, enums compared as strings", (t) => {
  t.is(paramType("Nullable(UInt256)"), "UInt256");
  t.is(paramType("DateTime('UTC')"), "DateTime('UTC')");
  t.is(paramType("Enum8('v1' = 1, 'v2' = 2)"), "String");
  t.is(paramType("Nullable(Enum8('burn' = 1))"), "String");
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://u:secret@127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test("a server older than 24.8 is refused at open with a clear message (fake server on loopback)", async (t) => {
  const { server, url } = await listen((_req, res) => {
    res.setHeader("Content-Type", "text/plain");
    res.end('{"v":"18.16.1"}\n');
  });
  t.teardown(() => server.close());
  const error = await t.throwsAsync(openStore({ clickhouseUrl: url, dataDir: "/nonexistent" }));
  t.false(isRetryable(error));
  t.regex(
    error?.message ?? "",
    /ClickHouse server at http:\/\/u:\*\*\*@127\.0\.0\.1:\d+ is version 18\.16\.1; tondex needs 24\.8 or newer/,
  );
  t.notRegex(error?.message ?? "", /secret/);
});

test("an unreachable server is a retryable open failure", async (t) => {
  const { server, url } = await listen(() => {});
  await new Promise<void>((resolve) => server.close(() => resolve())); // the port is now closed
  const error = await t.throwsAsync(openStore({ clickhouseUrl: url, dataDir: "/nonexistent" }));
  t.true(isRetryable(error), error?.message);
  t.regex(error?.message ?? "", /ClickHouse open failed: .*ECONNREFUSED/);
});
