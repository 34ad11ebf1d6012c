// schemas/api/simulate.ts quoteQuery and liquidityQuery: for any query a client can send, either the same
// output as swapSimulateQuery (liquiditySimulateQuery) — deep-equal, key for key — or undefined, and
// undefined only where the schema refuses the query. Queries are drawn from what node:querystring gives: absent keys, strings (valid, boundary and
// broken values of every parameter) and arrays (repeated keys), plus keys the schema does not know.
import { parse as parseQuery } from "node:querystring";
import { Address } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import fc from "fast-check";
import {
  liquidityQuery,
  liquiditySimulateQuery,
  quoteQuery,
  swapSimulateQuery,
} from "../../../../schemas/api/simulate.ts";
import { MAX_COINS } from "../../../../schemas/api/wire.ts";

const SEED = 19;

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b));
const addressText = fc
  .record({
    wc: fc.constantFrom(0, -1),
    hash,
    bounceable: fc.boolean(),
    testOnly: fc.boolean(),
    urlSafe: fc.boolean(),
    form: fc.constantFrom("friendly", "raw", "lower", "spaced", "bad checksum", "wc 1"),
  })
  .map(({ wc, hash, form, ...flags }) => {
    const a = new Address(wc, hash);
    const raw = `${wc}:${hash.toString("hex").toUpperCase()}`;
    const friendly = a.toString(flags);
    switch (form) {
      case "friendly":
        return friendly;
      case "raw":
        return raw;
      case "lower":
        return raw.toLowerCase();
      case "spaced":
        return ` ${friendly}`;
      case "bad checksum":
        return `${friendly.slice(0, 46)}${friendly[46] === "A" ? "B" : "A"}${friendly[47]}`;
      default:
        return `1:${hash.toString("hex")}`;
    }
  });

const units = fc.oneof(
  fc.bigInt(0n, MAX_COINS + 2n).map(String),
  fc.bigInt(1n, 10n ** 12n).map((v) => `000${v}`),
  fc.constantFrom("0", "00", "1", "-1", "1.5", "", " 1", "1e3", `${MAX_COINS}`, `${MAX_COINS + 1n}`),
  fc.constantFrom(`0${"0".repeat(40)}1`, "9".repeat(38), "1".padStart(37, "0")),
);
const fraction = fc.oneof(
  fc.constantFrom("0", "1", "1.0", "0.01", "0.5", "1.000000000000000001", "0.000000000000000001"),
  fc.constantFrom("0.0000000000000000001", "1000", "01", "001.0", ".5", "1.", "0,01", "", "2"),
  fc.tuple(fc.nat(2), fc.bigInt(0n, 10n ** 18n)).map(([w, f]) => `${w}.${f}`),
);
const bps = fc.oneof(fc.nat(120).map(String), fc.constantFrom("0100", "00100", "00000", "abc", "", "1.0"));
const bool = fc.constantFrom("true", "false", "1", "0", "yes", "TRUE", "");
const version = fc.constantFrom("1", "2", "3", "", "1.0");
const versions = fc.oneof(
  version,
  fc.array(version, { maxLength: 4 }),
  fc.constantFrom(Array(100).fill("2"), Array(101).fill("1")),
);

const validAddress = fc
  .record({ wc: fc.constantFrom(0, -1), hash, bounceable: fc.boolean(), urlSafe: fc.boolean() })
  .map(({ wc, hash, ...flags }) => new Address(wc, hash).toString(flags));
const validUnits = fc.bigInt(1n, MAX_COINS).map(String);
const validFraction = fc.bigInt(0n, 10n ** 18n).map((f) => (f === 10n ** 18n ? "1" : `0.${f}`));

/** A value of a key: mostly its own kind, sometimes repeated (an array). */
const keyValue = <T>(own: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 8, arbitrary: own },
    { weight: 1, arbitrary: fc.array(own, { minLength: 2, maxLength: 3 }) },
  );

const anyKeys = {
  offer_address: keyValue(addressText),
  ask_address: keyValue(addressText),
  units: keyValue(units),
  slippage_tolerance: keyValue(fraction),
  referral_address: keyValue(addressText),
  referral_fee_bps: keyValue(bps),
  dex_v2: keyValue(bool),
  dex_version: versions,
  pool_address: keyValue(addressText),
  unknown: fc.string(),
};
/** Any values, any keys present. */
const anyQuery = fc.record(anyKeys, { requiredKeys: [] });
/** The four keys a quote needs, valid, and any of the others: one broken value at most, often none. */
const quoteLike = fc
  .tuple(
    fc.record({
      offer_address: validAddress,
      ask_address: validAddress,
      units: validUnits,
      slippage_tolerance: validFraction,
    }),
    fc.record(
      {
        referral_address: validAddress,
        referral_fee_bps: fc.nat(100).map(String),
        dex_v2: fc.constantFrom("true", "false", "1", "0"),
        dex_version: fc.oneof(fc.constantFrom("1", "2"), fc.array(fc.constantFrom("1", "2"))),
        pool_address: validAddress,
      },
      { requiredKeys: [] },
    ),
    fc.option(
      fc
        .constantFrom(...(Object.keys(anyKeys) as (keyof typeof anyKeys)[]))
        .chain((key) => anyKeys[key].map((v: unknown) => ({ [key]: v }))),
    ),
  )
  .map(([needed, optional, broken]) => ({ ...needed, ...optional, ...(broken ?? {}) }));
const query = fc.oneof(anyQuery, quoteLike);

/**
 * For every query drawn: `fast` gives what `schema` gives (deep-equal, key for key), or undefined where the
 * schema refuses the query; both kinds drawn often.
 */
function sameAsSchema<Q>(
  t: ExecutionContext,
  queries: fc.Arbitrary<Record<string, unknown>>,
  schema: { safeParse(q: unknown): { success: true; data: Q } | { success: false } },
  fast: (q: Record<string, unknown>) => Q | undefined,
): void {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(queries, (q) => {
      const slow = schema.safeParse(q);
      const got = fast(q);
      if (!slow.success) {
        refused++;
        return got === undefined;
      }
      accepted++;
      t.deepEqual(got, slow.data);
      t.deepEqual(Object.keys(got ?? {}), Object.keys(slow.data as object));
      return true;
    }),
    { seed: SEED, numRuns: 20_000 },
  );
  t.true(accepted > 1000 && refused > 1000, `both kinds drawn (${accepted} accepted, ${refused} refused)`);
}

test("quoteQuery gives what swapSimulateQuery gives, or leaves the query to it when it refuses", (t) => {
  sameAsSchema(t, query, swapSimulateQuery, quoteQuery);
});

test("quoteQuery reads the query string a quote sends", (t) => {
  const offer = new Address(0, Buffer.alloc(32, 1)).toString({ bounceable: true, urlSafe: true });
  const ask = `0:${"AB".repeat(32)}`;
  const q = parseQuery(
    `offer_address=${offer}&ask_address=${ask}&units=000125&slippage_tolerance=0.010&dex_version=1&dex_version=2&dex_v2=1`,
  );
  t.deepEqual(quoteQuery(q), {
    offer_address: `0:${"01".repeat(32)}`,
    ask_address: ask,
    units: 125n,
    slippage_tolerance: { num: 10n, den: 1000n },
    dex_v2: true,
    dex_version: [1, 2],
  });
});

const provisionType = fc.constantFrom("Initial", "Balanced", "Arbitrary", "balanced", "Half", "");
const anyLiquidityKeys = {
  provision_type: keyValue(provisionType),
  token_a: keyValue(addressText),
  token_b: keyValue(addressText),
  token_a_units: keyValue(units),
  token_b_units: keyValue(units),
  pool_address: keyValue(addressText),
  slippage_tolerance: keyValue(fraction),
  wallet_address: keyValue(addressText),
  unknown: fc.string(),
};
/** The keys every provision needs, valid, and any of the others: one broken value at most, often none. */
const provisionLike = fc
  .tuple(
    fc.record({
      provision_type: fc.constantFrom("Initial", "Balanced", "Arbitrary"),
      token_a: validAddress,
      token_b: validAddress,
      slippage_tolerance: validFraction,
    }),
    fc.record(
      {
        token_a_units: fc.oneof(validUnits, fc.constant("0")),
        token_b_units: fc.oneof(validUnits, fc.constant("0")),
        pool_address: validAddress,
        wallet_address: validAddress,
      },
      { requiredKeys: [] },
    ),
    fc.option(
      fc
        .constantFrom(...(Object.keys(anyLiquidityKeys) as (keyof typeof anyLiquidityKeys)[]))
        .chain((key) => anyLiquidityKeys[key].map((v: unknown) => ({ [key]: v }))),
    ),
  )
  .map(([needed, optional, broken]) => ({ ...needed, ...optional, ...(broken ?? {}) }));
const liquidityQueryInput = fc.oneof(fc.record(anyLiquidityKeys, { requiredKeys: [] }), provisionLike);

test("liquidityQuery gives what liquiditySimulateQuery gives, or leaves the query to it when it refuses", (t) => {
  sameAsSchema(t, liquidityQueryInput, liquiditySimulateQuery, liquidityQuery);
});

test("liquidityQuery reads the query string a provision sends", (t) => {
  const pool = new Address(0, Buffer.alloc(32, 1)).toString({ bounceable: true, urlSafe: true });
  const b = `0:${"AB".repeat(32)}`;
  const q = parseQuery(
    `provision_type=Balanced&token_a=${pool}&token_b=${b}&token_b_units=0&token_a_units=00125&slippage_tolerance=0.010&pool_address=${pool}`,
  );
  const out = liquidityQuery(q);
  t.deepEqual(out, {
    provision_type: "Balanced",
    token_a: `0:${"01".repeat(32)}`,
    token_b: b,
    token_a_units: 125n,
    token_b_units: 0n,
    pool_address: `0:${"01".repeat(32)}`,
    slippage_tolerance: { num: 10n, den: 1000n },
  });
  t.deepEqual(Object.keys(out ?? {}), Object.keys(liquiditySimulateQuery.parse(q)));
});
