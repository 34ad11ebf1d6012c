/**
 * The toncenter runner's reads for a pool state paired with an lt: an account's last transaction from
 * `GET /api/v3/transactions?account=…&limit=1&sort=desc` (ton-index-go `TransactionsResponse`: `hash` in
 * base64, `lt` a decimal string, `now`, `mc_block_seqno`), never cached, and `uncached()`, whose get-methods
 * are read now (the cached runner answers a repeated read from its cache).
 */
import { Address } from "@ton/core";
import test from "ava";
import type { z } from "zod";
import { createMemoryCache } from "../../../../infra/cache/memory.ts";
import {
  type ToncenterHttp,
  TRANSACTIONS_PATH,
  toncenterGetMethodRunner,
} from "../../../../infra/toncenter/get-methods.ts";

const POOL = Address.parseRaw(`0:${"11".repeat(32)}`);
const HASH_HEX = "a1".repeat(32);

function fakeHttp(transactions: unknown[]) {
  const calls: { path: string; query?: Record<string, string> }[] = [];
  let n = 0;
  const http: ToncenterHttp = {
    async get<S extends z.ZodTypeAny>(path: string, query: Readonly<Record<string, string>>, schema: S) {
      calls.push({ path, query: { ...query } });
      return schema.parse({ transactions, address_book: {} });
    },
    async post<S extends z.ZodTypeAny>(path: string, _body: unknown, schema: S) {
      calls.push({ path });
      n++;
      return schema.parse({
        gas_used: 1,
        exit_code: 0,
        stack: [{ type: "num", value: `0x${n.toString(16)}` }],
      });
    },
  };
  return { http, calls };
}

const runnerOf = (http: ToncenterHttp) =>
  toncenterGetMethodRunner({
    http,
    cache: createMemoryCache({ maxEntries: 100 }),
    ttlMs: 60_000,
    fixedTtlMs: 60_000,
  });

test("the last transaction: lt, hash as hex, time and block, asked newest first, never cached", async (t) => {
  const tx = {
    account: POOL.toRawString().toUpperCase(),
    hash: Buffer.from(HASH_HEX, "hex").toString("base64"),
    lt: "47000000000000123",
    now: 1_700_000_321,
    mc_block_seqno: 41_000_000,
  };
  const { http, calls } = fakeHttp([tx]);
  const runner = runnerOf(http);
  const want = { lt: 47000000000000123n, hash: HASH_HEX, utime: 1_700_000_321, mcSeqno: 41_000_000 };
  t.deepEqual(await runner.lastTransaction!(POOL), want);
  t.deepEqual(await runner.lastTransaction!(POOL), want);
  t.is(calls.length, 2);
  t.deepEqual(calls[0], {
    path: TRANSACTIONS_PATH,
    query: { account: POOL.toRawString().toUpperCase(), limit: "1", offset: "0", sort: "desc" },
  });
});

test("an account without transactions has no last transaction", async (t) => {
  t.is(await runnerOf(fakeHttp([]).http).lastTransaction!(POOL), null);
});

test("uncached(): every get-method read is a request; the cached runner answers a repeat from its cache", async (t) => {
  const { http, calls } = fakeHttp([]);
  const cached = runnerOf(http);
  const first = await cached.runGetMethod(POOL, "get_pool_data", []);
  t.deepEqual(await cached.runGetMethod(POOL, "get_pool_data", []), first);
  t.is(calls.length, 1);
  const fresh = cached.uncached!();
  const a = await fresh.runGetMethod(POOL, "get_pool_data", []);
  const b = await fresh.runGetMethod(POOL, "get_pool_data", []);
  t.is(calls.length, 3);
  t.notDeepEqual(a, b);
});
