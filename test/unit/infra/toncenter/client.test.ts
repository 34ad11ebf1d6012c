import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { z } from "zod";
import { createMetrics } from "../../../../infra/metrics.ts";
import {
  metricsObserver,
  parseRetryAfter,
  RateLimiter,
  ToncenterClient,
  ToncenterHttpError,
  ToncenterSchemaError,
} from "../../../../infra/toncenter/client.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

/** A local HTTP server answering each request with `handler` (n = 0-based request number). */
async function serve(t: { teardown(fn: () => void): void }, handler: Handler) {
  let n = 0;
  const seen: { url: string; key: string | undefined; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ url: req.url ?? "", key: req.headers["x-api-key"] as string | undefined, body });
      handler(req, res, n++);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

// The public API's rate-limit answer (infra.md §3.2, docs.ton.org rate-limit page).
const RATE_LIMIT_BODY = { ok: false, result: "Ratelimit exceed", code: 429 };
const info = z.object({ last: z.object({ seqno: z.number().int() }) });
const fast = { retries: 4, initialDelayMs: 1, maxDelayMs: 5, factor: 2 };

test("GET: query string, API key header, parsed answer", async (t) => {
  const { url, seen } = await serve(t, (_req, res) => json(res, 200, { last: { seqno: 42 } }));
  const client = new ToncenterClient({
    url: `${url}/`,
    apiKey: "k1",
    requestsPerSecond: 1000,
    timeoutMs: 1000,
  });
  const answer = await client.get(
    "/api/v3/masterchainInfo",
    { a: 1, b: undefined, c: ["x", "y"], d: 5n },
    info,
  );
  t.deepEqual(answer, { last: { seqno: 42 } });
  t.deepEqual(seen, [{ url: "/api/v3/masterchainInfo?a=1&c=x&c=y&d=5", key: "k1", body: "" }]);
});

test("POST sends JSON", async (t) => {
  const { url, seen } = await serve(t, (_req, res) => json(res, 200, { ok: true }));
  const client = new ToncenterClient({ url, requestsPerSecond: 1000, timeoutMs: 1000 });
  t.deepEqual(
    await client.post("/api/v3/runGetMethod", { method: "get_pool_data" }, z.object({ ok: z.boolean() })),
    {
      ok: true,
    },
  );
  t.is(seen[0]?.body, '{"method":"get_pool_data"}');
  t.is(seen[0]?.key, undefined);
});

test("429 with the real body, 5xx and a timeout are retried; metrics count them", async (t) => {
  const { url } = await serve(t, (_req, res, n) => {
    if (n === 0) return json(res, 429, RATE_LIMIT_BODY);
    if (n === 1) return json(res, 502, { error: "bad gateway" });
    if (n === 2) return; // never answers: the client's timeout fires
    json(res, 200, { last: { seqno: 7 } });
  });
  const metrics = createMetrics();
  const retries: string[] = [];
  const observer = metricsObserver(metrics);
  const client = new ToncenterClient({
    url,
    requestsPerSecond: 1000,
    timeoutMs: 1000, // long enough for a loaded machine; the stalled request waits it out once
    retry: fast,
    observer: {
      ...observer,
      retry: (e, r, d) => {
        retries.push(r);
        observer.retry?.(e, r, d);
      },
    },
  });
  t.deepEqual(await client.get("/api/v3/masterchainInfo", {}, info), { last: { seqno: 7 } });
  t.deepEqual(retries, ["429", "502", "timeout"]);
  const text = await metrics.registry.metrics();
  t.regex(text, /tondex_api_requests_total\{endpoint="\/api\/v3\/masterchainInfo",outcome="429"\} 1/);
  t.regex(text, /tondex_api_requests_total\{endpoint="\/api\/v3\/masterchainInfo",outcome="200"\} 1/);
  t.regex(text, /tondex_api_retries_total\{endpoint="\/api\/v3\/masterchainInfo",reason="timeout"\} 1/);
});

test("network errors are retried", async (t) => {
  const { url } = await serve(t, (req, res, n) => {
    if (n === 0) req.socket.destroy();
    else json(res, 200, { last: { seqno: 1 } });
  });
  const client = new ToncenterClient({ url, requestsPerSecond: 1000, timeoutMs: 1000, retry: fast });
  t.deepEqual(await client.get("/x", {}, info), { last: { seqno: 1 } });
});

test("Retry-After is honoured: the next attempt waits at least that long", async (t) => {
  const times: number[] = [];
  const { url } = await serve(t, (_req, res, n) => {
    times.push(Date.now());
    if (n === 0) return json(res, 429, RATE_LIMIT_BODY, { "retry-after": "1" });
    json(res, 200, { last: { seqno: 1 } });
  });
  const client = new ToncenterClient({ url, requestsPerSecond: 1000, timeoutMs: 1000, retry: fast });
  await client.get("/x", {}, info);
  t.true(times[1]! - times[0]! >= 950, `waited ${times[1]! - times[0]!} ms`);
});

test("a 4xx other than 429 is not retried and carries the API's message", async (t) => {
  const { url, seen } = await serve(t, (_req, res) => json(res, 400, { error: "seqno: must be positive" }));
  const client = new ToncenterClient({ url, requestsPerSecond: 1000, timeoutMs: 1000, retry: fast });
  const error = await t.throwsAsync(
    client.get("/api/v3/transactionsByMasterchainBlock", { seqno: -1 }, info),
  );
  t.true(error instanceof ToncenterHttpError);
  t.is(error?.message, "toncenter /api/v3/transactionsByMasterchainBlock: HTTP 400: seqno: must be positive");
  t.is(seen.length, 1);
});

test("retries give up after the configured number with the last error", async (t) => {
  const { url, seen } = await serve(t, (_req, res) => json(res, 429, RATE_LIMIT_BODY));
  const client = new ToncenterClient({ url, requestsPerSecond: 1000, timeoutMs: 1000, retry: fast });
  await t.throwsAsync(client.get("/x", {}, info), { message: "toncenter /x: HTTP 429: Ratelimit exceed" });
  t.is(seen.length, 5);
});

test("an answer of the wrong shape names the field", async (t) => {
  const { url } = await serve(t, (_req, res) => json(res, 200, { last: { seqno: "12" } }));
  const client = new ToncenterClient({ url, requestsPerSecond: 1000, timeoutMs: 1000 });
  const error = await t.throwsAsync(client.get("/api/v3/masterchainInfo", {}, info));
  t.true(error instanceof ToncenterSchemaError);
  t.regex(
    error?.message ?? "",
    /^toncenter GET \/api\/v3\/masterchainInfo: unexpected answer at \/last\/seqno: /,
  );
});

test("the rate limiter spaces concurrent requests to the configured rate", async (t) => {
  // A fake clock and a recording sleep: the waits are exact, not wall-clock timings of a busy machine.
  const { url, seen } = await serve(t, (_req, res) => json(res, 200, { last: { seqno: 1 } }));
  let now = 10_000;
  const waits: number[] = [];
  const client = new ToncenterClient({
    url,
    requestsPerSecond: 20,
    timeoutMs: 5000,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  await Promise.all(Array.from({ length: 10 }, () => client.get("/x", {}, info)));
  // 10 requests at 20/s reserved at the same instant: the first goes at once, request i waits i × 50 ms.
  t.is(seen.length, 10);
  t.deepEqual(
    waits.sort((a, b) => a - b),
    [50, 100, 150, 200, 250, 300, 350, 400, 450],
  );
  // Once the reserved slots have passed, the next request does not wait.
  now += 500;
  await client.get("/x", {}, info);
  t.is(waits.length, 9);
  t.is(seen.length, 11);
});

test("RateLimiter: reservations, burst and pause on a fake clock", (t) => {
  let now = 1000;
  const limiter = new RateLimiter(10, 1, () => now);
  t.deepEqual([limiter.reserve(), limiter.reserve(), limiter.reserve()], [0, 100, 200]);
  now = 2000;
  t.is(limiter.reserve(), 0);
  limiter.pause(500);
  t.is(limiter.reserve(), 500);
  const burst = new RateLimiter(10, 3, () => now);
  t.deepEqual([burst.reserve(), burst.reserve(), burst.reserve(), burst.reserve()], [0, 0, 0, 100]);
  t.throws(() => new RateLimiter(0, 1, () => now), { message: "requestsPerSecond must be > 0, got 0" });
});

test("parseRetryAfter: seconds and HTTP dates", (t) => {
  t.is(parseRetryAfter("2", 0), 2000);
  t.is(parseRetryAfter(null, 0), null);
  t.is(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")), 5000);
  t.is(parseRetryAfter("soon", 0), null);
});
