/**
 * Acceptance: every recorded mainnet trace in test/vectors/mainnet-traces yields exactly the STON.fi
 * actions its `expected` lists (toncenter's test cases: swaps with amounts, assets, success, routes and
 * peer swaps, v1 referral payouts, v2 vault deposits). One generic test per file, no per-file cases.
 * On a mismatch the actual actions and operations are written to
 * test/unit/dex/classify/actual/<trace>/actual.json (gitignored) and the differences are printed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import test from "ava";
import { classify } from "../../../../dex/classify/index.ts";
import { operationToJson } from "../../../../dex/classify/json.ts";
import { operationJson } from "../../../../schemas/operations.ts";
import { listTraceFiles, loadTrace } from "../../../helpers/traces.ts";
import { checkExpected, type ExpectedAction, isStonfiAction } from "./harness.ts";
import { toToncenterActions } from "./toncenter.ts";

const ACTUAL_DIR = new URL("./actual/", import.meta.url);

function writeActual(name: string, content: unknown): string {
  const dir = new URL(`${name.replace(/\.json$/, "")}/`, ACTUAL_DIR);
  mkdirSync(dir, { recursive: true });
  const file = new URL("actual.json", dir);
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return file.pathname;
}

const files = listTraceFiles();

test("the trace folder is not empty", (t) => {
  t.true(files.length > 0);
});

for (const name of files) {
  test(`${name}: classified actions match the expected ones`, (t) => {
    const trace = loadTrace(name);
    const ops = classify(trace.txs, { jettonMasters: trace.masters });
    for (const op of ops) {
      const parsed = operationJson.safeParse(operationToJson(op));
      t.true(parsed.success, `${op.id} does not match the documented schema: ${parsed.error?.message}`);
    }
    const actions = toToncenterActions(ops, trace.txs);
    const routers = new Set(ops.flatMap((op) => ("router" in op && op.router ? [op.router] : [])));
    const expected = (trace.file.expected ?? []) as ExpectedAction[];
    const inScope = expected.filter((e) => isStonfiAction(e, routers));
    const failures = inScope.flatMap((e) => checkExpected(e, actions));
    const expectedSwaps = inScope.filter((e) => e.type === "jetton_swap").length;
    const actualSwaps = actions.filter((a) => a.type === "jetton_swap").length;
    if (actualSwaps !== expectedSwaps)
      failures.push(`jetton_swap: ${actualSwaps} actual, ${expectedSwaps} expected`);
    if (failures.length > 0) {
      const file = writeActual(name, { actions, operations: ops.map(operationToJson) });
      t.log(`actual written to ${file}`);
      for (const f of failures) t.log(f);
    }
    t.deepEqual(failures, []);
    t.true(inScope.length > 0, "a STON.fi trace lists at least one STON.fi action");
  });
}

for (const name of files) {
  test(`${name}: masters read from the trace itself agree with the recording indexer`, (t) => {
    const trace = loadTrace(name);
    const own = classify(trace.txs);
    const hinted = classify(trace.txs, { jettonMasters: trace.masters });
    t.is(own.length, hinted.length);
    own.forEach((op, i) => {
      const other = hinted[i]!;
      t.is(op.id, other.id);
      if (op.type !== "swap" || other.type !== "swap") return;
      for (const side of ["offer", "ask"] as const) {
        const master = op[side].master;
        if (master !== null)
          t.true(other[side].master === master, `${op.id} ${side}: ${master} vs ${other[side].master}`);
      }
    });
  });
}
