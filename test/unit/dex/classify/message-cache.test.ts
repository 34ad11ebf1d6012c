/**
 * dex/classify/message-cache.ts changes no output: classifying with a memo shared across calls (as the processor's
 * window does, re-classifying overlapping sets) gives exactly what classifying afresh gives, also when
 * the same messages come back as new objects (the content-keyed wallet-data cache answers those).
 */
import test from "ava";
import { classify, createClassifyMemo } from "../../../../dex/classify/index.ts";
import type { RawTransaction } from "../../../../schemas/raw-transaction.ts";
import { runDevnet } from "../../../helpers/devnet-run.ts";
import { listTraceFiles, loadTrace } from "../../../helpers/traces.ts";

const copy = (txs: readonly RawTransaction[]): RawTransaction[] => structuredClone(txs) as RawTransaction[];

test("a shared memo, fresh message objects and overlapping sets: the same operations", async (t) => {
  const memo = createClassifyMemo();
  for (const name of listTraceFiles()) {
    const trace = loadTrace(name);
    const options = { jettonMasters: trace.masters };
    const expected = classify(trace.txs, options);
    t.deepEqual(classify(trace.txs, { ...options, memo }), expected, `${name}: first pass`);
    t.deepEqual(classify(copy(trace.txs), { ...options, memo }), expected, `${name}: new objects`);
    t.deepEqual(classify(trace.txs, { ...options, memo }), expected, `${name}: again`);
  }
  const run = await runDevnet({ seed: 5, blocks: 6 });
  const blocks = run.blocks.map((b) => b.transactions);
  for (let i = 0; i + 3 <= blocks.length; i++) {
    const txs = blocks.slice(i, i + 3).flat();
    t.deepEqual(classify(copy(txs), { memo }), classify(txs), `devnet blocks ${i}..${i + 2}`);
  }
  t.true(memo.walletDataByContent.pairs > 0, "the content cache was used");
});
