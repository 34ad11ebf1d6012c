import test from "ava";
import fc from "fast-check";
import { parseRawTransaction, type RawTransactionInput } from "../../../schemas/raw-transaction.ts";
import { rawTransactionFromTrace } from "../../../schemas/trace-file.ts";
import { loadAllTraces } from "../../helpers/traces.ts";

const traces = loadAllTraces();

function sample(): RawTransactionInput {
  const tx = traces[0]!.txs[1]!;
  return structuredClone(tx);
}

test("every recorded trace transaction maps to a valid RawTransaction", (t) => {
  let n = 0;
  for (const trace of traces) {
    for (const tx of trace.file.transactions) {
      const raw = rawTransactionFromTrace(tx);
      const parsed = parseRawTransaction(JSON.parse(JSON.stringify(raw)));
      t.true(parsed.ok, `${trace.name} ${tx.hash}: ${parsed.ok ? "" : parsed.errors.join("; ")}`);
      if (parsed.ok) t.deepEqual(parsed.value, raw);
      n++;
    }
  }
  t.true(n > 50);
});

test("trace mapping keeps hashes, lt, phases and messages", (t) => {
  const src = traces[0]!.file.transactions[0]!;
  const tx = rawTransactionFromTrace(src);
  t.is(tx.version, "raw-tx.v1");
  t.is(tx.hash, Buffer.from(src.hash, "base64").toString("hex"));
  t.is(tx.lt, src.lt);
  t.is(tx.shard, null);
  t.is(tx.action, null);
  t.deepEqual(tx.compute, {
    success: src.compute_exit_code === 0 || src.compute_exit_code === 1,
    exit_code: src.compute_exit_code,
  });
  t.is(tx.in_msg?.source, null, "the external-in message has no source");
  t.is(tx.out_msgs.length, src.out_msgs.length);
  t.is(tx.out_msgs[0]?.opcode, Number.parseInt(src.out_msgs[0]!.opcode!.slice(2), 16));
});

test("validation errors name the path", (t) => {
  const bad = sample() as Record<string, unknown> & { in_msg: Record<string, unknown> };
  bad.in_msg.body_boc = "not base64!";
  bad.lt = "12a";
  const parsed = parseRawTransaction(bad);
  t.false(parsed.ok);
  if (!parsed.ok) {
    t.true(
      parsed.errors.some((e) => e.startsWith("/in_msg/body_boc: ")),
      parsed.errors.join("; "),
    );
    t.true(
      parsed.errors.some((e) => e.startsWith("/lt: ")),
      parsed.errors.join("; "),
    );
  }
});

test("unknown fields, a wrong version and bad JSON text are rejected", (t) => {
  t.false(parseRawTransaction({ ...sample(), extra: 1 }).ok);
  t.false(parseRawTransaction({ ...sample(), version: "raw-tx.v0" }).ok);
  const text = parseRawTransaction("{nope");
  t.false(text.ok);
  if (!text.ok) t.regex(text.errors[0]!, /^\/: invalid JSON/);
  t.true(parseRawTransaction(JSON.stringify(sample())).ok);
});

test("addresses and hashes are normalised (uppercase address hex, lowercase hashes)", (t) => {
  const tx = sample();
  const parsed = parseRawTransaction({
    ...tx,
    account: tx.account.toLowerCase(),
    hash: tx.hash.toUpperCase(),
  });
  t.true(parsed.ok);
  if (parsed.ok) {
    t.is(parsed.value.account, tx.account.toUpperCase());
    t.is(parsed.value.hash, tx.hash.toLowerCase());
  }
});

test("parseRawTransaction never throws", (t) => {
  fc.assert(
    fc.property(fc.anything(), (value) => {
      const r = parseRawTransaction(value);
      return r.ok === false || r.ok === true;
    }),
    { seed: 20250607, numRuns: 500 },
  );
  t.pass();
});
