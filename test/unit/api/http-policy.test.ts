/**
 * CORS and compression (api/http-policy.ts) through the listener a server mounts (response memo, quote
 * lane, Koa): cross-origin requests get CORS headers and preflights are answered; JSON is sent br or
 * gzip when accepted; error answers keep the one JSON error shape under both; and a quote answered
 * without Koa (memo hit, lane) carries the same headers and bytes as Koa's, with or without Origin and
 * Accept-Encoding. CORS_ORIGINS and COMPRESS_MIN_BYTES are read by the config module.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import anyTest, { type TestFn } from "ava";
import { apiListener } from "../../../api/app.ts";
import { loadConfig } from "../../../bin/config.ts";
import { errorBody } from "../../../schemas/api/objects.ts";
import { P_CPI } from "./fixtures.ts";
import { f, type RunningApi, startApi, testDeps } from "./harness.ts";

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer; text: string };

const test = anyTest as TestFn<{ api: RunningApi; listed: RunningApi; eager: RunningApi }>;
let version = 1;
test.before(async (t) => {
  const memo = { version: () => version, ttlMs: 60_000 };
  t.context = {
    api: await startApi(testDeps({ responseMemo: memo })),
    listed: await startApi(
      testDeps({ responseMemo: memo, http: { corsOrigins: ["https://a.example"], compressMinBytes: 1024 } }),
    ),
    // Compresses every body, however small: error answers are compressed too.
    eager: await startApi(testDeps({ http: { corsOrigins: "*", compressMinBytes: 0 } })),
  };
});
test.after.always(async (t) => {
  await Promise.all([t.context.api.close(), t.context.listed.close(), t.context.eager.close()]);
});

/** node:http, so the bytes and headers are what the server sent (fetch would decode them). */
function send(
  api: RunningApi,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${api.baseURL}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        const plain =
          encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: plain.toString("utf8") });
      });
    });
    req.on("error", reject).end();
  });
}

const vary = (a: Answer) => (a.headers.vary ?? "").split(/\s*,\s*/).filter((v) => v !== "");

test("a cross-origin request gets Access-Control-Allow-Origin: * by default; a same-origin one none", async (t) => {
  const cross = await send(t.context.api, "GET", "/v1/routers", { origin: "https://dapp.example" });
  t.is(cross.status, 200);
  t.is(cross.headers["access-control-allow-origin"], "*");
  t.true(vary(cross).includes("Origin"));
  const plain = await send(t.context.api, "GET", "/v1/routers");
  t.is(plain.status, 200);
  t.is(plain.headers["access-control-allow-origin"], undefined);
  t.true(vary(plain).includes("Origin"), "the answer still says it depends on the Origin");
  t.is(plain.text, cross.text);
});

test("a preflight is answered for GET and POST, with the requested headers and a max age", async (t) => {
  const res = await send(t.context.api, "OPTIONS", "/v1/swap/simulate", {
    origin: "https://dapp.example",
    "access-control-request-method": "POST",
    "access-control-request-headers": "content-type",
  });
  t.is(res.status, 204);
  t.is(res.headers["access-control-allow-origin"], "*");
  t.is(res.headers["access-control-allow-methods"], "GET,HEAD,POST");
  t.is(res.headers["access-control-allow-headers"], "content-type");
  t.is(res.headers["access-control-max-age"], "600");
});

test("with a list of origins, only a listed origin is allowed (echoed)", async (t) => {
  const ok = await send(t.context.listed, "GET", "/v1/routers", { origin: "https://a.example" });
  t.is(ok.headers["access-control-allow-origin"], "https://a.example");
  t.true(vary(ok).includes("Origin"));
  const other = await send(t.context.listed, "GET", "/v1/routers", { origin: "https://b.example" });
  t.is(other.status, 200);
  t.is(other.headers["access-control-allow-origin"], undefined);
  const preflight = await send(t.context.listed, "OPTIONS", "/v1/routers", {
    origin: "https://b.example",
    "access-control-request-method": "GET",
  });
  t.is(preflight.headers["access-control-allow-origin"], undefined);
});

test("JSON is sent br or gzip as the client prefers, and identity when it accepts neither", async (t) => {
  const identity = await send(t.context.api, "GET", "/v1/assets");
  t.is(identity.status, 200);
  t.true(identity.body.length >= 1024, `a body worth compressing: ${identity.body.length} bytes`);
  t.is(identity.headers["content-encoding"], undefined);
  t.true(vary(identity).includes("Accept-Encoding"));
  for (const [accept, encoding] of [
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0.5, gzip", "gzip"],
    ["identity", undefined],
  ] as const) {
    const res = await send(t.context.api, "GET", "/v1/assets", { "accept-encoding": accept });
    t.is(res.headers["content-encoding"], encoding, accept);
    t.regex(res.headers["content-type"] ?? "", /^application\/json/, accept);
    t.deepEqual(JSON.parse(res.text), JSON.parse(identity.text), accept);
    if (encoding !== undefined) t.true(res.body.length < identity.body.length / 2, accept);
  }
});

test("error answers keep the one JSON error shape, with CORS headers and compressed when accepted", async (t) => {
  for (const [method, path] of [
    ["GET", "/no/such/route"],
    ["GET", "/v1/pools/not-an-address"],
    ["PUT", "/v1/assets"],
    ["POST", "/v1/swap/simulate?units=1"],
  ] as const) {
    const res = await send(t.context.eager, method, path, {
      origin: "https://dapp.example",
      "accept-encoding": "gzip",
    });
    t.true(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status}`);
    t.is(res.headers["access-control-allow-origin"], "*", path);
    t.regex(res.headers["content-type"] ?? "", /^application\/json/, path);
    // The quote routes are never compressed (api/http-policy.ts), errors included.
    t.is(res.headers["content-encoding"], path.startsWith("/v1/swap/") ? undefined : "gzip", path);
    t.true(errorBody.safeParse(JSON.parse(res.text)).success, `${path}: ${res.text}`);
  }
});

test("a quote from the memo or the lane carries Koa's headers and bytes, with or without Origin and Accept-Encoding", async (t) => {
  version++;
  const path = `/v1/swap/simulate?offer_address=${f(P_CPI.token0)}&ask_address=${f(P_CPI.token1)}&units=1000000&slippage_tolerance=0.01`;
  const strip = (a: Answer) => {
    const { date: _d, connection: _c, "keep-alive": _k, ...headers } = a.headers;
    return { status: a.status, headers, text: a.text, bytes: a.body.length };
  };
  // Fast paths: the lane computes the first, the memo repeats it.
  const first = await send(t.context.api, "POST", path);
  const again = await send(t.context.api, "POST", path, { "accept-encoding": "gzip, deflate, br" });
  t.is(first.status, 200, first.text);
  t.deepEqual(strip(again), strip(first));
  t.is(first.headers["content-encoding"], undefined);
  t.deepEqual(vary(first), ["Origin"]);
  t.is(first.headers["access-control-allow-origin"], undefined);
  // Koa (a cross-origin request is Koa's): the same bytes, plus the CORS header for that origin.
  for (let i = 0; i < 2; i++) {
    const cross = await send(t.context.api, "POST", path, {
      origin: "https://dapp.example",
      "accept-encoding": "gzip, br",
    });
    t.is(cross.headers["access-control-allow-origin"], "*");
    t.deepEqual(vary(cross), ["Origin"]);
    t.is(cross.headers["content-encoding"], undefined);
    t.is(cross.text, first.text);
  }
  // A listed-origin service: a memo entry kept for a request without Origin never answers one with it.
  await send(t.context.listed, "POST", path);
  const listed = await send(t.context.listed, "POST", path, { origin: "https://a.example" });
  t.is(listed.headers["access-control-allow-origin"], "https://a.example");
  const unlisted = await send(t.context.listed, "POST", path, { origin: "https://b.example" });
  t.is(unlisted.headers["access-control-allow-origin"], undefined);
  t.is(listed.text, first.text);
});

test("the response memo neither answers nor keeps a cross-origin request", async (t) => {
  const { listener, memo } = apiListener(testDeps({ responseMemo: { version: () => 1, ttlMs: 60_000 } }));
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const api = { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } as RunningApi;
  const path = `/v1/swap/simulate?offer_address=${f(P_CPI.token1)}&ask_address=${f(P_CPI.token0)}&units=777777&slippage_tolerance=0.01`;
  const origin = { origin: "https://dapp.example" };
  const crossA = await send(api, "POST", path, origin);
  const crossB = await send(api, "POST", path, origin);
  t.is(crossA.status, 200, crossA.text);
  t.like(memo?.stats(), { hits: 0, misses: 0, stored: 0 });
  const plain = await send(api, "POST", path);
  const repeat = await send(api, "POST", path);
  t.like(memo?.stats(), { hits: 1, misses: 1, stored: 1 });
  const crossC = await send(api, "POST", path, origin);
  t.like(
    memo?.stats(),
    { hits: 1, misses: 1, stored: 1 },
    "an Origin request is Koa's even when an entry exists",
  );
  for (const a of [crossA, crossB, crossC]) t.is(a.headers["access-control-allow-origin"], "*");
  for (const a of [plain, repeat]) t.is(a.headers["access-control-allow-origin"], undefined);
  t.true([crossA, crossB, crossC, repeat].every((a) => a.text === plain.text));
});

test("CORS_ORIGINS and COMPRESS_MIN_BYTES: defaults, lists, and refusals naming the variable", (t) => {
  const base = loadConfig({});
  t.is(base.corsOrigins, "*");
  t.is(base.compressMinBytes, 1024);
  const listed = loadConfig({
    CORS_ORIGINS: "https://a.example, http://localhost:3000",
    COMPRESS_MIN_BYTES: "0",
  });
  t.deepEqual(listed.corsOrigins, ["https://a.example", "http://localhost:3000"]);
  t.is(listed.compressMinBytes, 0);
  const bad = t.throws(() =>
    loadConfig({ CORS_ORIGINS: "https://a.example/path", COMPRESS_MIN_BYTES: "-1" }),
  );
  t.regex(bad?.message ?? "", /CORS_ORIGINS must be \* or a comma-separated list of origins/);
  t.regex(bad?.message ?? "", /COMPRESS_MIN_BYTES must be at least 0/);
});
