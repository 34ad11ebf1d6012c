/**
 * The STON.fi trace filter (ingest/mainnet/stonfi-filter.ts) on the recorded mainnet traces: a trace is kept
 * whole when its STON.fi message lies within the look-ahead, other traces are dropped, blocks are released in
 * order after the look-ahead, and blocks learnt before a resume keep an open trace's later transactions.
 */
import test from "ava";
import {
  type FetchedBlock,
  StonfiTraceFilter,
  touchesStonfi,
} from "../../../../ingest/mainnet/stonfi-filter.ts";
import type { RawTransaction } from "../../../../schemas/raw-transaction.ts";
import { loadAllTraces, loadTrace } from "../../../helpers/traces.ts";

/** One trace's transactions as blocks `from..to`, every transaction labelled with `traceId`. */
function blocksOf(txs: readonly RawTransaction[], traceId: string, from: number, to: number): FetchedBlock[] {
  const out: FetchedBlock[] = [];
  for (let mc = from; mc <= to; mc++) {
    const transactions = txs.filter((tx) => tx.mc_seqno === mc);
    out.push({
      block: { mc_seqno: mc, utime: 0, transactions, rejected: [] },
      traceIds: transactions.map(() => traceId),
    });
  }
  return out;
}

test("every recorded trace touches STON.fi; the STON.fi op set excludes the generic jetton ops", (t) => {
  for (const trace of loadAllTraces()) t.true(trace.txs.some(touchesStonfi), trace.name);
  const jettonOnly = loadTrace("v2-jetton-to-jetton.json").txs[0]!; // the user's wallet: a jetton transfer
  t.false(touchesStonfi(jettonOnly));
});

test("a trace is kept whole within the look-ahead; a trace without STON.fi is dropped; order holds", (t) => {
  const trace = loadTrace("v1-jetton-to-jetton.json");
  const from = Math.min(...trace.txs.map((x) => x.mc_seqno));
  const to = Math.max(...trace.txs.map((x) => x.mc_seqno));
  const stranger = { ...trace.txs[0]!, hash: "f".repeat(64) };
  const blocks = blocksOf(trace.txs, "T", from, to);
  blocks[0]!.block.transactions.push(stranger);
  (blocks[0]!.traceIds as (string | null)[]).push("OTHER");
  const filter = new StonfiTraceFilter(8);
  const out = [...blocks.flatMap((b) => filter.push(b)), ...filter.flush()];
  t.deepEqual(
    out.map((b) => b.mc_seqno),
    blocks.map((b) => b.block.mc_seqno),
  );
  t.deepEqual(
    out.flatMap((b) => b.transactions.map((x) => x.hash)),
    trace.txs.map((x) => x.hash),
  );
});

test("too short a look-ahead loses the transactions before it (the documented limit)", (t) => {
  const trace = loadTrace("v1-jetton-to-jetton.json"); // first STON.fi message 6 blocks after the external
  const from = Math.min(...trace.txs.map((x) => x.mc_seqno));
  const to = Math.max(...trace.txs.map((x) => x.mc_seqno));
  const filter = new StonfiTraceFilter(2);
  const out = [...blocksOf(trace.txs, "T", from, to).flatMap((b) => filter.push(b)), ...filter.flush()];
  const kept = out.flatMap((b) => b.transactions);
  t.true(kept.length < trace.txs.length);
  t.false(kept.some((x) => x.mc_seqno === from));
});

test("blocks learnt before a resume keep an open trace's later transactions", (t) => {
  // A trace whose last STON.fi message is followed by transactions in later blocks (payouts, excesses).
  const trace = loadAllTraces().find((x) => {
    const lastStonfi = Math.max(...x.txs.filter(touchesStonfi).map((y) => y.mc_seqno));
    return x.txs.some((y) => y.mc_seqno > lastStonfi);
  })!;
  const from = Math.min(...trace.txs.map((x) => x.mc_seqno));
  const to = Math.max(...trace.txs.map((x) => x.mc_seqno));
  const all = blocksOf(trace.txs, "T", from, to);
  const resumeAt = Math.max(...trace.txs.filter(touchesStonfi).map((x) => x.mc_seqno)) + 1;
  const after = all.filter((b) => b.block.mc_seqno >= resumeAt);
  const expected = trace.txs.filter((x) => x.mc_seqno >= resumeAt).map((x) => x.hash);
  t.true(expected.length > 0);
  t.false(after.some((b) => b.block.transactions.some(touchesStonfi)));

  const cold = new StonfiTraceFilter(32);
  const coldOut = [...after.flatMap((b) => cold.push(b)), ...cold.flush()];
  t.deepEqual(
    coldOut.flatMap((b) => b.transactions),
    [],
  );

  const warm = new StonfiTraceFilter(32);
  for (const b of all.filter((b) => b.block.mc_seqno < resumeAt)) warm.learn(b);
  const warmOut = [...after.flatMap((b) => warm.push(b)), ...warm.flush()];
  t.deepEqual(
    warmOut.flatMap((b) => b.transactions.map((x) => x.hash)),
    expected,
  );
});
