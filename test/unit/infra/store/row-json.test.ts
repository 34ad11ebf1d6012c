import test from "ava";
import { stringifyJson } from "../../../../infra/json.ts";
import { jsonEachRow, rowJson } from "../../../../infra/store/row-json.ts";

// rowJson is a faster stringifyJson for fact rows: the text must be the same, byte for byte.
const rows: Record<string, object> = {
  "no bigints": { hash: "ab", mc_seqno: 3, aborted: false, action_success: null },
  "bigints become strings": { lt: 123n, amount: 10n ** 70n, zero: 0n, name: "x" },
  "flat arrays": { out_msg_hashes: ["a", "b"], mixed: [1, "2", true, null], empty: [] },
  "array with a bigint": { tx_hashes: ["a"], amounts: [1n, 2n] },
  "nested object": { lt: 1n, nested: { deep: 2n, list: [{ x: 3n }] } },
  "undefined and functions dropped": { a: undefined, b: () => 1, c: 1n },
  escaping: { reason: 'say "hi"\n\ttab \\ \u2028', emoji: "💧" },
  "key order kept, integer-like keys first": { z: 1n, 2: "two", a: 2n, 1: "one" },
  "date uses toJSON": { at: new Date(0), lt: 5n },
};

for (const [name, row] of Object.entries(rows)) {
  test(`rowJson equals stringifyJson: ${name}`, (t) => {
    t.is(rowJson(row), stringifyJson(row));
  });
}

test("jsonEachRow joins the rows with newlines", (t) => {
  const all = Object.values(rows);
  t.is(jsonEachRow(all).toString("utf8"), all.map((r) => stringifyJson(r)).join("\n"));
});

test("rowJson does not change the row", (t) => {
  const row = { lt: 7n, list: ["a"] };
  rowJson(row);
  t.deepEqual(row, { lt: 7n, list: ["a"] });
});

test("rowJson ignores inherited keys as JSON.stringify does", (t) => {
  const row = Object.create({ inherited: 5n, other: "x" }) as Record<string, unknown>;
  row.own = 1n;
  row.name = "y";
  t.is(rowJson(row), stringifyJson(row));
});

test("jsonEachRow: batches past its first buffer, multi-byte text, empty input", (t) => {
  const big = Array.from({ length: 3000 }, (_, i) => ({
    lt: BigInt(i) * 10n ** 20n,
    text: "ä💧\u2028€".repeat(i % 17),
    body: "A".repeat(i % 300),
    list: ["é", String(i)],
  }));
  t.is(jsonEachRow(big).toString("utf8"), big.map((r) => stringifyJson(r)).join("\n"));
  t.is(jsonEachRow([]).length, 0);
  t.is(jsonEachRow([{ a: 1 }]).toString("utf8"), '{"a":1}');
});
