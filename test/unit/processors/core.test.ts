/**
 * ProcessorCore on its own (no bus, no store): the real mainnet traces of test/vectors/mainnet-traces in one
 * batch and block by block, the flush, the restart boundary (`resumedAfter`, `resumeAfter()`), rejected
 * records. Lookups answer from the trace's own recorded jetton masters and nothing else.
 */
import test from "ava";
import { classify } from "../../../dex/classify/index.ts";
import { type CoreLookups, ProcessorCore } from "../../../processors/core/index.ts";
import type { FactRows, PoolRow, RouterRow } from "../../../schemas/facts.ts";
import { type RawTransaction, rejectedRecord } from "../../../schemas/raw-transaction.ts";
import { type LoadedTrace, loadAllTraces } from "../../helpers/traces.ts";

const traces = loadAllTraces();
/** Deeper than every recorded trace (the longest spans 42 masterchain blocks). */
const DEEP = 64;

const lookupsOf = (trace: LoadedTrace): CoreLookups => ({
  walletMaster: async (wallet) => trace.masters.get(wallet) ?? null,
  jetton: async () => null,
  router: async () => null,
  poolType: async () => undefined,
});

type Collected = { [table: string]: unknown[] };
const collect = (into: Collected, rows: FactRows) => {
  for (const [table, list] of Object.entries(rows)) {
    into[table] = [...(into[table] ?? []), ...(list as unknown[])];
  }
};
const blocksOf = (txs: readonly RawTransaction[]): RawTransaction[][] => {
  const mcs = [...new Set(txs.map((tx) => tx.mc_seqno))].sort((a, b) => a - b);
  return mcs.map((mc) => txs.filter((tx) => tx.mc_seqno === mc));
};
const text = (row: unknown) => JSON.stringify(row, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
const sorted = (rows: readonly unknown[] = []) => rows.map(text).sort();
/** The last version of each pool row, version aside (a pool row is rewritten as the core learns more). */
const finalPools = (rows: readonly unknown[] = []) => {
  const last = new Map<string, PoolRow>();
  for (const row of rows as PoolRow[]) {
    const seen = last.get(row.pool);
    if (seen === undefined || row.version > seen.version) last.set(row.pool, row);
  }
  return [...last.values()].map(({ version: _, ...rest }) => text(rest)).sort();
};

async function oneBatch(trace: LoadedTrace, windowBlocks = DEEP): Promise<Collected> {
  const core = new ProcessorCore({ windowBlocks, lookups: lookupsOf(trace) });
  const out: Collected = {};
  collect(out, (await core.process(trace.txs)).rows);
  collect(out, (await core.process([], true)).rows);
  return out;
}

const oneBatchMacro = test.macro({
  async exec(t, trace: LoadedTrace) {
    const rows = await oneBatch(trace);
    const hashes = trace.txs.map((tx) => tx.hash).sort();
    t.deepEqual((rows.transactions as { hash: string }[]).map((r) => r.hash).sort(), hashes, "each tx once");
    t.deepEqual(
      (rows.blocks as { mc_seqno: number }[]).map((b) => b.mc_seqno),
      blocksOf(trace.txs).map((b) => b[0]!.mc_seqno),
      "every block once, ascending, when it leaves the window",
    );
    const ops = classify(trace.txs, { jettonMasters: trace.masters });
    const count = (type: string) => ops.filter((o) => o.type === type).length;
    t.is(rows.swaps?.length ?? 0, count("swap"));
    t.is(rows.swap_routes?.length ?? 0, count("swap_route"));
    t.is(rows.referral_fees?.length ?? 0, count("referral_payment") + count("vault_deposit"));
    t.deepEqual(rows.unknown_messages ?? [], []);
    t.true((rows.swaps?.length ?? 0) > 0);
    const swapIds = (rows.swaps as { id: string }[]).map((r) => r.id).sort();
    t.deepEqual(swapIds, [...new Set(swapIds)]);
    // Every pool and router an operation names has a row, known or not.
    for (const swap of rows.swaps as { pool: string | null; router: string | null }[]) {
      if (swap.pool !== null) t.true(rows.pools?.some((p) => (p as PoolRow).pool === swap.pool));
      if (swap.router !== null)
        t.true(rows.routers?.some((r) => (r as { address: string }).address === swap.router));
    }
  },
  title: (_, trace: LoadedTrace) =>
    `${trace.name}: one batch and a flush give every transaction, block and operation once`,
});

const perBlockMacro = test.macro({
  async exec(t, trace: LoadedTrace) {
    const whole = await oneBatch(trace);
    const core = new ProcessorCore({ windowBlocks: DEEP, lookups: lookupsOf(trace) });
    const split: Collected = {};
    for (const block of blocksOf(trace.txs)) collect(split, (await core.process(block)).rows);
    collect(split, (await core.process([], true)).rows);
    for (const table of new Set([...Object.keys(whole), ...Object.keys(split)])) {
      if (table === "pools") t.deepEqual(finalPools(split[table]), finalPools(whole[table]), table);
      else t.deepEqual(sorted(split[table]), sorted(whole[table]), table);
    }
  },
  title: (_, trace: LoadedTrace) => `${trace.name}: one block per batch stores the same facts as one batch`,
});

for (const trace of traces) {
  test(oneBatchMacro, trace);
  test(perBlockMacro, trace);
}

const trace = traces.find((tr) => tr.name === "v1-jetton-to-ton.json")!;
const swapAnchorMc = (tr: LoadedTrace): number => {
  const swap = classify(tr.txs, { jettonMasters: tr.masters }).find((o) => o.type === "swap")!;
  return tr.txs.find((tx) => tx.hash === swap.tx_hash)!.mc_seqno;
};

test("resumeAfter: a restart resumes `depth` blocks before the oldest block still in the window", async (t) => {
  const depth = 5;
  const core = new ProcessorCore({ windowBlocks: depth, lookups: lookupsOf(trace) });
  t.is(core.resumeAfter(), 0, "nothing seen: from the start");
  const blocks = blocksOf(trace.txs);
  const mcs = blocks.map((b) => b[0]!.mc_seqno);
  for (const block of blocks) await core.process(block);
  const head = mcs.at(-1)!;
  // The newest block waits for a later one (a batch may end inside it); the one before it was stepped, and
  // blocks ≤ that one − depth left the window; the oldest still in it is the first above that.
  const stepped = mcs.at(-2)!;
  const oldest = mcs.find((mc) => mc > stepped - depth)!;
  t.is(core.resumeAfter(), oldest - 1 - depth);
  await core.process([], true);
  t.is(core.resumeAfter(), head - depth, "after the flush the window is empty: resume after head − depth");
});

test("a restart re-reads the blocks before its cursor for context and does not release their operations again", async (t) => {
  const anchor = swapAnchorMc(trace);
  const run = async (resumedAfter: number) => {
    const core = new ProcessorCore({ windowBlocks: DEEP, lookups: lookupsOf(trace), resumedAfter });
    const out: Collected = {};
    collect(out, (await core.process(trace.txs)).rows);
    collect(out, (await core.process([], true)).rows);
    return out;
  };
  // Operations anchored below resumedAfter + 1 + depth were released before the restart.
  const before = await run(anchor - DEEP);
  t.is(before.swaps?.length ?? 0, 0);
  t.is(before.transactions?.length, trace.txs.length, "transactions are rewritten (idempotent rows)");
  const after = await run(anchor - DEEP - 1);
  t.deepEqual(sorted(after.swaps), sorted((await oneBatch(trace)).swaps));
});

test("rejected records become malformed unknown_messages rows naming their origin", async (t) => {
  const core = new ProcessorCore({ windowBlocks: DEEP, lookups: lookupsOf(trace) });
  const bad = rejectedRecord("/in_msg/hash: expected 64 hex digits", '{"hash":"x"}', "replay:/x.jsonl:3", 7);
  const { rows } = await core.process([bad, ...trace.txs]);
  const rejected = (rows.unknown_messages ?? []).filter((r) => r.id.startsWith("rejected:"));
  t.is(rejected.length, 1);
  t.like(rejected[0], {
    kind: "malformed",
    mc_seqno: 7,
    tx_hash: "",
    reason: "replay:/x.jsonl:3: /in_msg/hash: expected 64 hex digits",
  });
  t.is(rows.transactions?.length, trace.txs.length, "the valid records of the batch are processed");
});

test("a restarted core knows the jetton masters its stored pool and router rows name", async (t) => {
  // No chain: what the core knows of masters it learned from the traces themselves.
  const blind: CoreLookups = {
    walletMaster: async () => null,
    jetton: async () => null,
    router: async () => null,
    poolType: async () => undefined,
  };
  const masters = (rows: Collected) =>
    (rows.swaps as { id: string; offer_master: string | null; ask_master: string | null }[])
      .map((s) => `${s.id} ${s.offer_master} ${s.ask_master}`)
      .sort();
  // One core for every trace…
  const all = new ProcessorCore({ windowBlocks: DEEP, lookups: blind });
  const once: Collected = {};
  for (const trace of traces) {
    collect(once, (await all.process(trace.txs)).rows);
    collect(once, (await all.process([], true)).rows);
  }
  // …and a new core per trace, restored from the rows written so far, as after a restart.
  const restarted: Collected = {};
  for (const trace of traces) {
    const core = new ProcessorCore({ windowBlocks: DEEP, lookups: blind });
    const last = <R extends { version: bigint }>(rows: readonly R[], key: (r: R) => string) => {
      const m = new Map<string, R>();
      for (const r of rows) if ((m.get(key(r))?.version ?? -1n) < r.version) m.set(key(r), r);
      return [...m.values()];
    };
    core.restore({
      pools: last((restarted.pools ?? []) as PoolRow[], (p) => p.pool),
      routers: last((restarted.routers ?? []) as RouterRow[], (r) => r.address),
    });
    collect(restarted, (await core.process(trace.txs)).rows);
    collect(restarted, (await core.process([], true)).rows);
  }
  t.deepEqual(masters(restarted), masters(once));
  t.true(
    masters(once).some((s) => !s.endsWith("null null")),
    "some masters are learned from the traces",
  );
});
