/** `tondex decode` through `main([...])` with a fake io: output schema, error reporting, exit codes. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import type { CliIo } from "../../../bin/io.ts";
import { main } from "../../../bin/main.ts";
import { decodeFileResult } from "../../../schemas/operations.ts";
import { listTraceFiles, loadTrace } from "../../helpers/traces.ts";

function fakeIo(stdin = ""): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    readStdin: async () => stdin,
  };
}

const trace = loadTrace(listTraceFiles().find((f) => f.startsWith("v1-")) ?? listTraceFiles()[0]!);
const dir = mkdtempSync(join(tmpdir(), "tondex-decode-"));

function lines(io: { out: string[] }): unknown[] {
  return io.out
    .join("")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

test("decodes a shared trace into one JSON line of the documented schema", async (t) => {
  const io = fakeIo();
  const code = await main(["decode", trace.path], io);
  t.is(code, 0, io.err.join(""));
  const [line, ...rest] = lines(io);
  t.is(rest.length, 0);
  const parsed = decodeFileResult.parse(line);
  t.is(parsed.file, trace.path);
  const swaps = parsed.operations.filter((op) => op.type === "swap");
  t.true(swaps.length > 0);
  for (const s of swaps) {
    if (s.type !== "swap") continue;
    t.regex(s.amount_in, /^\d+$/);
    t.regex(s.pool ?? "", /^0:[0-9A-F]{64}$/);
    t.regex(s.exit_name, /^[a-z_0-9-]+$/);
  }
});

test("RawTransaction JSON arrays and JSONL decode to the same operations as the trace", async (t) => {
  const arrayFile = join(dir, "txs.json");
  const jsonlFile = join(dir, "txs.jsonl");
  writeFileSync(arrayFile, JSON.stringify(trace.txs));
  writeFileSync(jsonlFile, `${trace.txs.map((tx) => JSON.stringify(tx)).join("\n")}\n`);
  const io = fakeIo();
  t.is(await main(["decode", arrayFile, jsonlFile], io), 0, io.err.join(""));
  const [a, b] = lines(io).map((l) => decodeFileResult.parse(l));
  t.deepEqual(a!.operations, b!.operations);
  t.true(a!.operations.some((op) => op.type === "swap"));
});

test("bad files are reported with file (and line) while the others still run", async (t) => {
  const badJsonl = join(dir, "bad.jsonl");
  const badArray = join(dir, "bad.json");
  const [first, second] = trace.txs;
  writeFileSync(badJsonl, `${JSON.stringify(first)}\n{"version":"raw-tx.v1"}\nnot json\n`);
  writeFileSync(badArray, JSON.stringify([first, { ...second, lt: "x" }]));
  const io = fakeIo();
  const code = await main(["decode", badJsonl, trace.path, badArray, join(dir, "missing.json")], io);
  t.is(code, 1);
  const err = io.err.join("");
  t.regex(err, new RegExp(`${badJsonl.replace(/[.]/g, "\\.")}: line 3: invalid JSON`));
  t.regex(err, new RegExp(`${badArray.replace(/[.]/g, "\\.")}: /1/lt: `));
  t.regex(err, /missing\.json: cannot read/);
  const out = lines(io).map((l) => decodeFileResult.parse(l));
  t.deepEqual(
    out.map((o) => o.file),
    [trace.path],
  );
});

test("JSONL validation errors name the line", async (t) => {
  const file = join(dir, "invalid.jsonl");
  writeFileSync(
    file,
    `${JSON.stringify(trace.txs[0])}\n${JSON.stringify({ ...trace.txs[1], account: "nope" })}\n`,
  );
  const io = fakeIo();
  t.is(await main(["decode", file], io), 1);
  t.regex(io.err.join(""), /invalid\.jsonl: line 2: \/account: /);
});

test("stdin, usage and unknown options", async (t) => {
  const io = fakeIo(JSON.stringify(trace.txs));
  t.is(await main(["decode", "-"], io), 0);
  t.is(decodeFileResult.parse(lines(io)[0]).file, "-");
  const none = fakeIo();
  t.is(await main(["decode"], none), 2);
  t.regex(none.err.join(""), /usage: tondex decode/);
  const help = fakeIo();
  t.is(await main(["decode", "--help"], help), 0);
  const bad = fakeIo();
  t.is(await main(["decode", "--frobnicate", trace.path], bad), 2);
});
