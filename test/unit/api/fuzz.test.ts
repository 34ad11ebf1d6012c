/**
 * Property: random and malformed requests on every route never produce a 5xx. Path parameters, query
 * strings (known and unknown keys, repeated keys, valid and hostile values) and JSON bodies (objects of
 * known keys, arbitrary JSON, broken JSON) are drawn with a fixed seed.
 */
import anyTest, { type TestFn } from "ava";
import fc from "fast-check";
import { type RunningApi, startApi } from "./harness.ts";
import { PARAM_NAMES, ROUTE_CASES, SAMPLE_VALUES } from "./routes-table.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  t.context = { api: await startApi() };
});
test.after.always((t) => t.context.api.close());

const value = fc.oneof(
  fc.constantFrom(...SAMPLE_VALUES),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const key = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PARAM_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const query = fc.array(fc.tuple(key, value), { maxLength: 8 });
const jsonBody = fc.oneof(
  fc.dictionary(
    fc.constantFrom(...PARAM_NAMES),
    fc.oneof(value, fc.jsonValue({ maxDepth: 2 }), fc.array(value, { maxLength: 3 })),
  ),
  fc.jsonValue({ maxDepth: 3 }),
);
const body = fc.oneof(
  fc.constant(undefined),
  jsonBody.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
);

/** Each `{param}` of the template replaced by a drawn value (URL-encoded). */
function fill(template: string, values: string[]): string {
  let i = 0;
  return template.replace(/\{[a-z0-9_]+\}/g, () => encodeURIComponent(values[i++] ?? ""));
}

test("no route answers a random or malformed request with a 5xx", async (t) => {
  const { api } = t.context;
  const cases = fc.record({
    route: fc.constantFrom(...ROUTE_CASES),
    params: fc.array(value, { minLength: 2, maxLength: 2 }),
    query,
    body,
  });
  await fc.assert(
    fc.asyncProperty(cases, async ({ route, params, query: q, body: b }) => {
      const search = new URLSearchParams(q).toString();
      const url = `${api.baseURL}${fill(route.template, params)}${search ? `?${search}` : ""}`;
      const res = await fetch(url, {
        method: route.method,
        headers: b === undefined ? {} : { "content-type": "application/json" },
        body: route.method === "POST" ? b : undefined,
      });
      const text = await res.text();
      if (res.status >= 500) throw new Error(`${res.status} for ${route.method} ${url} body=${b}: ${text}`);
    }),
    { seed: 20240805, numRuns: 2000 },
  );
  t.pass();
});

test("valid requests with fuzzed optional parameters stay below 500", async (t) => {
  const { api } = t.context;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ROUTE_CASES), query, async (route, extra) => {
      const sep = route.path.includes("?") ? "&" : "?";
      const search = new URLSearchParams(extra).toString();
      const res = await fetch(`${api.baseURL}${route.path}${search ? sep + search : ""}`, {
        method: route.method,
        headers: route.body === undefined ? {} : { "content-type": "application/json" },
        body: route.body === undefined ? undefined : JSON.stringify(route.body),
      });
      const text = await res.text();
      if (res.status >= 500) throw new Error(`${res.status} for ${route.path} + ${search}: ${text}`);
    }),
    { seed: 7, numRuns: 1000 },
  );
  t.pass();
});
