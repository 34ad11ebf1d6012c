/**
 * Where the response memo keeps answers (api/response-memo.ts): a repeat among the `recentEntries`
 * newest answers is answered from memory; a repeat after more others than that, but among the
 * `seenKeys` newest keys, is computed once more and then kept for good; a key older than both is new
 * again. A handler in the quote lane's place computes each answer and hands it to `keep`.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { createResponseMemo } from "../../../api/response-memo.ts";

const PATH = "/quote";

async function serve(recentEntries: number, seenKeys: number) {
  const memo = createResponseMemo({
    paths: new Map([[PATH, []]]),
    version: () => 1,
    ttlMs: 60_000,
    clock: () => 0,
    recentEntries,
    seenKeys,
  });
  const computed: string[] = [];
  const handler: RequestListener = (req, res) => {
    const body = `answer to ${req.url}`;
    computed.push(req.url ?? "");
    const headers = { "content-type": "text/plain", "content-length": Buffer.byteLength(body) };
    memo.keep(req, headers, body);
    req.resume();
    res.writeHead(200, headers);
    res.end(body);
  };
  const server: Server = createServer(memo.listener(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ask = async (n: number) => {
    const res = await fetch(`${base}${PATH}?n=${n}`, { method: "POST" });
    return res.text();
  };
  return { memo, computed, ask, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test("a repeat within the recent answers is answered from memory", async (t) => {
  const s = await serve(4, 16);
  try {
    await s.ask(1);
    for (const n of [2, 3, 4]) await s.ask(n);
    t.is(await s.ask(1), `answer to ${PATH}?n=1`);
    t.deepEqual(
      s.computed,
      [1, 2, 3, 4].map((n) => `${PATH}?n=${n}`),
    );
    t.like(s.memo.stats(), { hits: 1, misses: 4, stored: 4, entries: 4 });
    // Moved to the main memory: it stays however many new answers follow.
    for (let n = 10; n < 30; n++) await s.ask(n);
    t.is(await s.ask(1), `answer to ${PATH}?n=1`);
    t.like(s.memo.stats(), { hits: 2 });
  } finally {
    await s.close();
  }
});

test("a later repeat among the seen keys is computed once more, then answered from memory", async (t) => {
  const s = await serve(4, 16);
  try {
    await s.ask(1);
    for (let n = 2; n <= 10; n++) await s.ask(n); // 9 others: past the 4 recent answers, within 16 keys
    t.is(await s.ask(1), `answer to ${PATH}?n=1`);
    t.is(s.computed.filter((u) => u === `${PATH}?n=1`).length, 2);
    for (let n = 11; n <= 40; n++) await s.ask(n);
    t.is(await s.ask(1), `answer to ${PATH}?n=1`);
    t.is(s.computed.filter((u) => u === `${PATH}?n=1`).length, 2);
    t.like(s.memo.stats(), { hits: 1 });
  } finally {
    await s.close();
  }
});

test("a key older than the seen keys is new again: kept among the recent answers only", async (t) => {
  const s = await serve(2, 4);
  try {
    await s.ask(1);
    for (let n = 2; n <= 10; n++) await s.ask(n); // 9 others: past the 4 seen keys
    await s.ask(1);
    for (let n = 11; n <= 20; n++) await s.ask(n);
    await s.ask(1);
    t.is(s.computed.filter((u) => u === `${PATH}?n=1`).length, 3);
    t.like(s.memo.stats(), { hits: 0, entries: 2 });
  } finally {
    await s.close();
  }
});

test("the recent answers are the newest few: a slot a repeat leaves is taken by the next new answer", async (t) => {
  const s = await serve(3, 1000);
  try {
    for (let n = 1; n <= 5; n++) await s.ask(n); // the ring holds 3, 4, 5
    for (const n of [3, 4, 5]) t.is(await s.ask(n), `answer to ${PATH}?n=${n}`);
    t.like(s.memo.stats(), { hits: 3, misses: 5, entries: 3 }); // 3, 4, 5 moved to the main memory
    await s.ask(2); // left the ring when it wrapped, still among the seen keys: computed once more, kept
    t.like(s.memo.stats(), { hits: 3, misses: 6, entries: 4 });
    for (let n = 6; n <= 9; n++) await s.ask(n); // the ring wraps again: 7, 8, 9
    for (const n of [7, 8, 9, 2, 3]) t.is(await s.ask(n), `answer to ${PATH}?n=${n}`);
    t.like(s.memo.stats(), { hits: 8, misses: 10 });
    await s.ask(6);
    t.deepEqual(
      s.computed,
      [1, 2, 3, 4, 5, 2, 6, 7, 8, 9, 6].map((n) => `${PATH}?n=${n}`),
    );
  } finally {
    await s.close();
  }
});
