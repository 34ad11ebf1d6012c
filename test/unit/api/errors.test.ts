/**
 * Error contract: `{"error": {"code", "message", "details"}}` on every failure; 400 naming the field for
 * bad parameters; 404 for unknown addresses and routes; 422 for requests no pool can answer; 503 when the
 * read model reports its backing service down; never a 500 for bad input.
 */
import { request as httpRequest } from "node:http";
import anyTest, { type TestFn } from "ava";
import { type DexReadModel, ReadModelUnavailableError } from "../../../api/read-model.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { RetryableError } from "../../../infra/errors.ts";
import { errorBody } from "../../../schemas/api/objects.ts";
import { NOT, P_CPI, P_STABLE, raw, TON, TRACE_ROOT, USDT, WALLET } from "./fixtures.ts";
import { f, memoryData, type RunningApi, request, startApi, testDeps } from "./harness.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  // With api.ston.fi's own lookup window (24 hours before the newest indexed block) configured.
  t.context = { api: await startApi(testDeps({ txQueryWindowS: 86_400 })) };
});
test.after.always((t) => t.context.api.close());

const swapQ = `offer_address=${f(TON)}&ask_address=${f(USDT)}&units=1000&slippage_tolerance=0.01`;
const unknown = f(raw("nobody"));

type Case = [
  title: string,
  method: "GET" | "POST",
  path: string,
  status: number,
  field?: string,
  body?: unknown,
];
const CASES: Case[] = [
  ["bad address in the path", "GET", "/v1/assets/not-an-address", 400, "address"],
  [
    "bad address in the query",
    "POST",
    `/v1/swap/simulate?${swapQ.replace(f(TON), "EQ123")}`,
    400,
    "offer_address",
  ],
  ["bad checksum", "GET", `/v1/pools/${f(P_CPI.address).slice(0, -1)}A`, 400, "address"],
  [
    "referral_fee_bps 101",
    "POST",
    `/v1/swap/simulate?${swapQ}&referral_fee_bps=101&referral_address=${f(WALLET)}`,
    400,
    "referral_fee_bps",
  ],
  [
    "non-numeric units",
    "POST",
    `/v1/swap/simulate?${swapQ.replace("units=1000", "units=abc")}`,
    400,
    "units",
  ],
  [
    "fractional units",
    "POST",
    `/v1/reverse_swap/simulate?${swapQ.replace("units=1000", "units=1.5")}`,
    400,
    "units",
  ],
  ["zero units", "POST", `/v1/swap/simulate?${swapQ.replace("units=1000", "units=0")}`, 400, "units"],
  [
    "units above 2^120",
    "POST",
    `/v1/swap/simulate?${swapQ.replace("units=1000", `units=${2n ** 120n}`)}`,
    400,
    "units",
  ],
  [
    "slippage above 1",
    "POST",
    `/v1/swap/simulate?${swapQ.replace("0.01", "1.5")}`,
    400,
    "slippage_tolerance",
  ],
  ["missing required parameter", "POST", `/v1/swap/simulate?offer_address=${f(TON)}`, 400, "ask_address"],
  ["repeated scalar parameter", "POST", `/v1/swap/simulate?${swapQ}&units=5`, 400, "units"],
  ["bad dex_version", "POST", `/v1/swap/simulate?${swapQ}&dex_version=3`, 400, "dex_version.0"],
  ["offer equals ask", "POST", `/v1/swap/simulate?${swapQ.replace(f(USDT), f(TON))}`, 400, "ask_address"],
  [
    "pool that does not trade the pair",
    "POST",
    `/v1/swap/simulate?${swapQ}&pool_address=${f(P_STABLE.address)}`,
    400,
    "pool_address",
  ],
  ["no pool for the pair", "POST", `/v1/swap/simulate?${swapQ.replace(f(USDT), f(NOT))}`, 404],
  ["unknown pool_address", "POST", `/v1/swap/simulate?${swapQ}&pool_address=${unknown}`, 404],
  ["unknown pool", "GET", `/v1/pools/${unknown}`, 404],
  ["unknown asset", "GET", `/v1/assets/${unknown}`, 404],
  ["unknown router", "GET", `/v1/routers/${unknown}`, 404],
  ["not a jetton master", "GET", `/v1/jetton/${unknown}/address?owner_address=${f(WALLET)}`, 404],
  ["unknown transaction", "GET", `/v1/transactions/${"0".repeat(64)}/action_tree`, 404],
  ["bad hash", "GET", "/v1/transactions/xyz/action_tree", 400, "hash"],
  [
    "unique_wallets not a boolean",
    "GET",
    "/v1/stats/pool?since=2024-01-01T00:00:00&until=2024-01-02T00:00:00&unique_wallets=maybe",
    400,
    "unique_wallets",
  ],
  ["unknown route", "GET", "/v1/nothing-here", 404],
  ["wrong method", "GET", "/v1/swap/simulate", 405],
  ["bad condition syntax", "POST", "/v1/assets/query", 400, "condition", { condition: "asset:popular & (" }],
  [
    "unknown sort field",
    "POST",
    "/v1/assets/query",
    400,
    "sort_by",
    { condition: "true", sort_by: ["price:asc"] },
  ],
  ["sort_by syntax", "POST", "/v1/assets/query", 400, "sort_by.0", { condition: "true", sort_by: ["price"] }],
  [
    "body field of the wrong type",
    "POST",
    "/v1/assets/query",
    400,
    "limit",
    { condition: "true", limit: "ten" },
  ],
  ["body that is not an object", "POST", "/v1/pools/query", 400, "(root)", [1, 2]],
  ["malformed JSON", "POST", "/v1/assets/query", 400, "(body)", "{not json"],
  ["legacy search without a term", "POST", "/v1/assets/search?condition=true", 400, "search_string"],
  [
    "both lookups in a transaction query",
    "GET",
    `/v1/transactions/query?ext_msg_hash=${TRACE_ROOT.hash}&query_id=1`,
    400,
    "ext_msg_hash",
  ],
  ["query_id without wallet", "GET", "/v1/transactions/query?query_id=1", 400, "wallet_address"],
  [
    "lookup window older than the configured 24 h before the newest indexed block",
    "GET",
    `/v1/transactions/query?ext_msg_hash=${TRACE_ROOT.hash}&min_tx_timestamp=2020-01-01T00:00:00`,
    400,
    "min_tx_timestamp",
  ],
  [
    "a date before 1970 (the store holds unsigned seconds)",
    "GET",
    `/v1/wallets/${f(WALLET)}/operations?since=1969-12-31T23:59:59&until=2024-01-01T00:00:00`,
    400,
    "since",
  ],
  [
    "a date past 2106-02-07T06:28:15 (would wrap around)",
    "GET",
    `/v1/wallets/${f(WALLET)}/transactions/last?min_tx_timestamp=2106-02-07T06:28:16`,
    400,
    "min_tx_timestamp",
  ],
  [
    "a calendar date that does not exist",
    "GET",
    `/v1/wallets/${f(WALLET)}/operations?since=2023-02-30T00:00:00&until=2024-01-01T00:00:00`,
    400,
    "since",
  ],
  [
    "units far above the Coins range: out of range, not 'not a decimal'",
    "POST",
    `/v1/swap/simulate?offer_address=${f(TON)}&ask_address=${f(USDT)}&units=${2n ** 256n}&slippage_tolerance=0.01`,
    400,
    "units",
  ],
  [
    "referral_fee_bps without referral_address",
    "POST",
    `/v1/swap/simulate?offer_address=${f(TON)}&ask_address=${f(USDT)}&units=1000&slippage_tolerance=0.01&referral_fee_bps=10`,
    400,
    "referral_fee_bps",
  ],
  [
    "bad timestamp",
    "GET",
    `/v1/wallets/${f(WALLET)}/operations?since=yesterday&until=2024-01-01T00:00:00`,
    400,
    "since",
  ],
  [
    "until before since",
    "GET",
    `/v1/wallets/${f(WALLET)}/operations?since=2024-01-02T00:00:00&until=2024-01-01T00:00:00`,
    400,
    "until",
  ],
  [
    "unknown op_type",
    "GET",
    `/v1/wallets/${f(WALLET)}/operations?since=2024-01-01T00:00:00&until=2024-01-02T00:00:00&op_type=Burn`,
    400,
    "op_type.0",
  ],
  [
    "Balanced with both amounts",
    "POST",
    `/v1/liquidity_provision/simulate?provision_type=Balanced&token_a=${f(TON)}&token_b=${f(USDT)}&token_a_units=1&token_b_units=1&pool_address=${f(P_CPI.address)}&slippage_tolerance=0.01`,
    400,
    "token_b_units",
  ],
  [
    "Arbitrary without pool",
    "POST",
    `/v1/liquidity_provision/simulate?provision_type=Arbitrary&token_a=${f(TON)}&token_b=${f(USDT)}&token_a_units=1&token_b_units=1&slippage_tolerance=0.01`,
    400,
    "pool_address",
  ],
  [
    "token not in the pool",
    "POST",
    `/v1/liquidity_provision/simulate?provision_type=Arbitrary&token_a=${f(NOT)}&token_b=${f(USDT)}&token_a_units=1&token_b_units=1&pool_address=${f(P_CPI.address)}&slippage_tolerance=0.01`,
    400,
    "token_a",
  ],
  [
    "bad provision_type",
    "POST",
    `/v1/liquidity_provision/simulate?provision_type=Half&token_a=${f(TON)}&token_b=${f(USDT)}&slippage_tolerance=0.01`,
    400,
    "provision_type",
  ],
];

for (const [title, method, path, status, field, body] of CASES) {
  test(`${status}: ${title}`, async (t) => {
    const res = await request(t.context.api, method, path, body);
    t.is(res.status, status, res.text);
    const parsed = errorBody.safeParse(res.json);
    t.true(parsed.success, res.text);
    t.true(Array.isArray((res.json as { error?: { details?: unknown } }).error?.details), "details always");
    if (field !== undefined && parsed.success) {
      t.true(parsed.data.error.message.includes(`'${field}'`), parsed.data.error.message);
      t.deepEqual((parsed.data.error.details as { field: string }[])[0]?.field, field);
    }
  });
}

test("a too-large amount is said to be out of range", async (t) => {
  const res = await request(
    t.context.api,
    "POST",
    `/v1/swap/simulate?offer_address=${f(TON)}&ask_address=${f(USDT)}&units=${2n ** 256n}&slippage_tolerance=0.01`,
  );
  t.regex(errorBody.parse(res.json).error.message, /'units': out of range: exceeds the largest Coins amount/);
});

test("404 for an asset no pool trades names that asset's parameter", async (t) => {
  const unknown = f(raw("an asset nobody trades"));
  for (const [query, field] of [
    [`offer_address=${unknown}&ask_address=${f(USDT)}`, "offer_address"],
    [`offer_address=${f(USDT)}&ask_address=${unknown}`, "ask_address"],
  ] as const) {
    const res = await request(
      t.context.api,
      "POST",
      `/v1/swap/simulate?${query}&units=1000&slippage_tolerance=0.01`,
    );
    t.is(res.status, 404);
    t.is((errorBody.parse(res.json).error.details as { field: string }[])[0]?.field, field);
  }
});

test("op_type in any letter case, as older clients send it", async (t) => {
  const path = `/v1/wallets/${f(WALLET)}/operations?since=2020-01-01T00:00:00&until=2030-01-01T00:00:00`;
  const canonical = await request(t.context.api, "GET", `${path}&op_type=Swap`);
  const lower = await request(t.context.api, "GET", `${path}&op_type=swap`);
  t.is(lower.status, 200, lower.text);
  t.deepEqual(lower.json, canonical.json);
  t.is((await request(t.context.api, "GET", `${path}&op_type=swapp`)).status, 400);
});

test("any method on any route answers in the one JSON error shape (405 with the allowed methods, 501)", async (t) => {
  for (const [method, path, status] of [
    ["PATCH", "/v1/swap/simulate", 405],
    ["PUT", "/v1/assets", 405],
    ["TRACE", "/v1/assets", 405],
    ["QUERY", "/v1/pools", 405],
    // Fixed paths win over the templates that also match them (/v1/pools/{address}, /v1/assets/{address}).
    ["GET", "/v1/pools/query", 405],
    ["GET", "/v1/assets/search/", 405],
    ["DELETE", "/v1/assets/query", 405],
    ["PROPFIND", "/v1/pools", 501],
    ["PROPFIND", "/no/such/route", 501],
  ] as const) {
    // node:http rather than fetch, which refuses to send TRACE.
    const res = await new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const req = httpRequest(`${t.context.api.baseURL}${path}`, { method }, (r) => {
        let text = "";
        r.setEncoding("utf8").on("data", (c: string) => {
          text += c;
        });
        r.on("end", () =>
          resolve({ status: r.statusCode ?? 0, type: r.headers["content-type"] ?? "", text }),
        );
      });
      req.on("error", reject).end();
    });
    t.is(res.status, status, `${method} ${path}`);
    t.regex(res.type, /application\/json/, `${method} ${path}`);
    const body = errorBody.parse(JSON.parse(res.text));
    t.true(Array.isArray(body.error.details), `${method} ${path}`);
  }
});

test("a URL too long for the HTTP parser gets a JSON 431, not a reset connection", async (t) => {
  for (const size of [20_000, 70_000, 200_000]) {
    const res = await fetch(`${t.context.api.baseURL}/v1/assets?x=${"a".repeat(size)}`);
    t.is(res.status, 431, `${size}`);
    const body = errorBody.parse(await res.json());
    t.is(body.error.code, "request_header_fields_too_large");
    t.deepEqual(body.error.details, []);
  }
});

test("415 for a body that is not JSON", async (t) => {
  const res = await fetch(`${t.context.api.baseURL}/v1/assets/query`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: "condition=true",
  });
  t.is(res.status, 415);
  t.true(errorBody.safeParse(await res.json()).success);
});

test("422 when no pool can pay the requested output", async (t) => {
  const res = await request(
    t.context.api,
    "POST",
    `/v1/reverse_swap/simulate?${swapQ.replace("units=1000", `units=${P_CPI.state.reserve0 * 10n}`)}`,
  );
  t.is(res.status, 422, res.text);
  t.like(res.json, { error: { code: "swap_not_possible" } });
});

/** A read model whose every method fails as ClickHouse does when it is down. */
function downReadModel(error: () => Error): DexReadModel {
  const methods = Object.getOwnPropertyNames(MemoryReadModel.prototype).filter((m) => m !== "constructor");
  return Object.fromEntries(
    methods.map((m) => [m, async () => Promise.reject(error())]),
  ) as unknown as DexReadModel;
}

test("503 when the read model's backing service is down (branded or by connection error code)", async (t) => {
  const branded = await startApi(
    testDeps({ data: downReadModel(() => new ReadModelUnavailableError("clickhouse down")) }),
  );
  const infra = await startApi(
    testDeps({ data: downReadModel(() => new RetryableError("clickhouse timeout")) }),
  );
  const refused = await startApi(
    testDeps({
      data: downReadModel(() => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
    }),
  );
  t.teardown(() => Promise.all([branded.close(), infra.close(), refused.close()]));
  for (const api of [branded, infra, refused]) {
    for (const path of ["/v1/pools", `/v1/assets/${f(USDT)}`, `/v1/wallets/${f(WALLET)}/fee_vaults`]) {
      const res = await request(api, "GET", path);
      t.is(res.status, 503, path);
      t.like(res.json, { error: { code: "service_unavailable" } });
    }
    t.is((await request(api, "POST", `/v1/swap/simulate?${swapQ}`)).status, 503);
  }
});

test("an unexpected failure is a generic 500 without internals, and is logged", async (t) => {
  const logged: object[] = [];
  const data = new MemoryReadModel(memoryData());
  data.listPools = async () => Promise.reject(new TypeError("secret internals"));
  const api = await startApi(
    testDeps({ data, logger: { error: (o) => logged.push(o), warn: () => {}, info: () => {} } }),
  );
  t.teardown(() => api.close());
  const res = await request(api, "GET", "/v1/pools");
  t.is(res.status, 500);
  t.deepEqual(res.json, { error: { code: "internal_error", details: [], message: "internal server error" } });
  t.false(res.text.includes("secret"));
  t.is(logged.length, 1);
});
