/**
 * Documentation endpoints: `/openapi.json` lists every route and alias with its parameters; Swagger UI and
 * ReDoc pages reference only local asset paths, each of which is served (the pages render offline).
 */
import anyTest, { type TestFn } from "ava";
import { type RunningApi, request, startApi } from "./harness.ts";
import { ROUTE_CASES } from "./routes-table.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  t.context = { api: await startApi() };
});
test.after.always((t) => t.context.api.close());

type OpenApi = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>
  >;
};

test("/openapi.json lists every route and alias, with parameters and error responses", async (t) => {
  const res = await request(t.context.api, "GET", "/openapi.json");
  t.is(res.status, 200);
  const doc = res.json as OpenApi;
  t.regex(doc.openapi, /^3\./);
  for (const c of ROUTE_CASES) {
    const op = doc.paths[c.template]?.[c.method.toLowerCase()];
    t.truthy(op, `${c.method} ${c.template} is documented`);
    t.truthy(op?.responses["200"]);
    t.truthy(op?.responses["400"]);
  }
  const params = (p: string, m: string) =>
    (doc.paths[p]?.[m]?.parameters ?? []).map((x) => `${x.in}:${x.name}`);
  t.true(params("/v1/swap/simulate", "post").includes("query:referral_fee_bps"));
  t.true(params("/v1/pools/{address}", "get").includes("path:address"));
  const documented = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  t.is(
    documented,
    new Set(ROUTE_CASES.map((c) => `${c.method} ${c.template}`)).size,
    "no undocumented extras",
  );
});

/** `src` and `href` values of an HTML page. */
const links = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);

for (const page of ["/swagger-ui/", "/redoc"]) {
  test(`${page} is HTML whose assets are local and served`, async (t) => {
    const res = await request(t.context.api, "GET", page);
    t.is(res.status, 200);
    t.regex(res.text, /^<!doctype html>/i);
    t.true(res.text.includes("/openapi.json"));
    const assets = links(res.text);
    t.true(assets.length > 0);
    for (const asset of assets) {
      t.true(asset.startsWith("/"), `${asset} is a local path`);
      const got = await fetch(`${t.context.api.baseURL}${asset}`);
      t.is(got.status, 200, asset);
      t.true((await got.arrayBuffer()).byteLength > 100, `${asset} has content`);
    }
  });
}

test("/swagger-ui redirects to /swagger-ui/; unknown asset names are 404", async (t) => {
  const res = await fetch(`${t.context.api.baseURL}/swagger-ui`, { redirect: "manual" });
  t.is(res.status, 302);
  t.is(res.headers.get("location"), "/swagger-ui/");
  t.is((await request(t.context.api, "GET", "/swagger-ui/..%2Fpackage.json")).status, 404);
  t.is((await request(t.context.api, "GET", "/swagger-ui/index.html")).status, 404);
});
