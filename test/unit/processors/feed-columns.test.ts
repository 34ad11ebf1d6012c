/**
 * processors/core/feed-columns.ts on the shared mainnet traces: the maker of every pool operation is the
 * account of the trace's root transaction (TON's trace id is the root transaction's hash), whatever sits
 * between the user and the router (an aggregator contract in the mixed DeDust/swap.coffee trace); a walk
 * that leaves the transactions it is given says null (the feed then asks the store), and the pool
 * transaction itself as the root gives the fallback.
 */
import test from "ava";
import { classify } from "../../../dex/classify/index.ts";
import { ReservesAfter, traceMaker } from "../../../processors/core/feed-columns.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { listTraceFiles, loadTrace } from "../../helpers/traces.ts";

function lookups(txs: readonly RawTransaction[]) {
  const byHash = new Map(txs.map((t) => [t.hash, t]));
  const sender = new Map(txs.flatMap((t) => t.out_msgs.map((m) => [m.hash, t] as const)));
  return { transaction: (h: string) => byHash.get(h), senderOf: (m: string) => sender.get(m) };
}

test("maker = the account of the trace's root transaction, for every pool operation of the real traces", (t) => {
  let n = 0;
  for (const name of listTraceFiles()) {
    const trace = loadTrace(name);
    const rootHash = Buffer.from(trace.file.trace_id ?? "", "base64").toString("hex");
    const root = trace.txs.find((tx) => tx.hash === rootHash);
    if (root === undefined) continue;
    const ops = classify(trace.txs, { jettonMasters: trace.masters });
    const w = lookups(trace.txs);
    for (const op of ops) {
      if (op.type !== "swap" && op.type !== "liquidity_mint" && op.type !== "liquidity_withdraw") continue;
      if (op.tx_hash === rootHash) continue;
      t.is(traceMaker(op.tx_hash, "0:FALLBACK", w), root.account, `${name}: ${op.id}`);
      n++;
    }
  }
  t.true(n >= 7, `only ${n} pool operations in the traces`);
});

test("a walk that leaves the given transactions is null; a root pool transaction or no inbound message gives the fallback", (t) => {
  const trace = loadTrace(listTraceFiles()[0] as string);
  const op = classify(trace.txs, { jettonMasters: trace.masters }).find((o) => o.type === "swap");
  if (op === undefined) return t.fail("no swap");
  const pool = trace.txs.find((tx) => tx.hash === op.tx_hash) as RawTransaction;
  t.is(traceMaker(op.tx_hash, "0:F", lookups([pool])), null);
  t.is(traceMaker("00".repeat(32), "0:F", lookups(trace.txs)), null);
  const asRoot = {
    ...pool,
    in_msg: { ...(pool.in_msg as NonNullable<RawTransaction["in_msg"]>), source: null },
  };
  t.is(traceMaker(pool.hash, "0:F", lookups([asRoot])), "0:F");
  t.is(traceMaker(pool.hash, null, lookups([{ ...pool, in_msg: null }])), null);
});

test("reserves after a pool transaction: exact (pool, lt) only, forgotten with their block", (t) => {
  const r = new ReservesAfter();
  r.record([{ pool: "0:P", lt: 10n, mc_seqno: 5, reserve0: 1n, reserve1: 2n }]);
  t.deepEqual(r.get("0:P", 10n), { reserve0_after: 1n, reserve1_after: 2n });
  t.is(r.get("0:P", 11n), null);
  t.is(r.get("0:Q", 10n), null);
  r.prune(4);
  t.not(r.get("0:P", 10n), null);
  r.prune(5);
  t.is(r.get("0:P", 10n), null);
});
