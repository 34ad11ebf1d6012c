/**
 * /openapi.json: every address parameter and body field carries the parser's pattern and a real devnet
 * example (api/openapi-examples.ts), and every example is accepted by the parameter's own schema.
 */
import anyTest, { type TestFn } from "ava";
import { ADDRESS_PATTERN, addressIn } from "../../../schemas/api/wire.ts";
import { type RunningApi, request, startApi } from "./harness.ts";

const test = anyTest as TestFn<{ api: RunningApi }>;
test.before(async (t) => {
  t.context = { api: await startApi() };
});
test.after.always((t) => t.context.api.close());

type Schema = {
  pattern?: string;
  example?: string;
  items?: Schema;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
};
type Param = { name: string; in: string; schema: Schema; examples?: Record<string, { value: string }> };
type Doc = {
  paths: Record<string, Record<string, { parameters?: Param[] }>>;
  components: { schemas: Record<string, Schema> };
};

/** Names that hold addresses on this API (api.md §2). */
const ADDRESS_NAME =
  /^(address|wallet|asset|pool|asset0|asset1|token_a|token_b|unconditional_assets?|[a-z_]*_address)$/;

/** The string schemas inside `s` (itself, array items, anyOf branches). */
const strings = (s: Schema | undefined): Schema[] =>
  s === undefined
    ? []
    : [s, ...strings(s.items), ...(s.anyOf ?? []).flatMap(strings)].filter(
        (x) => x.items === undefined && x.anyOf === undefined,
      );

test("every address parameter has the parser's pattern, an example in each form, all accepted", async (t) => {
  const doc = (await request(t.context.api, "GET", "/openapi.json")).json as Doc;
  let count = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const p of op.parameters ?? []) {
        if (!ADDRESS_NAME.test(p.name)) continue;
        count++;
        const where = `${method} ${path} ${p.name}`;
        for (const s of strings(p.schema)) {
          t.is(s.pattern, ADDRESS_PATTERN.source, where);
          t.true(addressIn.safeParse(s.example).success, `${where} example ${s.example}`);
        }
        if (p.schema.items !== undefined) continue;
        const forms = Object.values(p.examples ?? {}).map((e) => e.value);
        t.is(forms.length, 3, where);
        t.deepEqual(
          forms.map((f) => f.slice(0, 2)),
          [p.schema.example?.slice(0, 2), "UQ", "0:"],
          where,
        );
        const raws = new Set(forms.map((f) => addressIn.parse(f)));
        t.is(raws.size, 1, `${where}: the forms name one address`);
      }
    }
  }
  t.true(count >= 40, `address parameters found: ${count}`);
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    for (const [field, s] of Object.entries(schema.properties ?? {})) {
      if (!ADDRESS_NAME.test(field) || !name.includes("Request")) continue;
      for (const leaf of strings(s)) {
        t.is(leaf.pattern, ADDRESS_PATTERN.source, `${name}.${field}`);
        t.true(addressIn.safeParse(leaf.example).success, `${name}.${field}`);
      }
    }
  }
});

test("{address} is a pool, a router or an asset according to the route", async (t) => {
  const doc = (await request(t.context.api, "GET", "/openapi.json")).json as Doc;
  const example = (path: string) =>
    doc.paths[path]?.get?.parameters?.find((p) => p.name === "address")?.schema.example;
  t.is(example("/v1/pools/{address}"), "EQAJmcNzzmbty3JXnGtqjggYhxesdY8pr6yrVMrez625_24J");
  t.is(example("/v1/routers/{address}"), "EQDeEYkOCn-4fLMDdZecAvpJJsjV-LQ_LdBkFY7fXH7eJPlY");
  t.is(example("/v1/assets/{address}"), "EQCxhNhB4jpGOXrGo5272RHmi7ZADW5WbpuN48Obb_c-9yXx");
});
