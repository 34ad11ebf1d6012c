/**
 * PoolTracker against a plain seeded devnet market (seed 2; the admin-heavy run is pool-state.test.ts):
 * every pool equals ChainState; a tampered payout is caught and resynced; fact rows round-trip through
 * `fromRows`; a snapshot restores; a tracker started mid-run reports unknown pools instead of guessing.
 */
import { beginCell, Cell } from "@ton/core";
import test from "ava";
import { decodeBody, encodeBody, STONFI_V1_OP, STONFI_V2_OP } from "../../../dex/codecs/index.ts";
import { applyLibraryPatches } from "../../../infra/library-patches/index.ts";
import { Devnet } from "../../../ingest/devnet/devnet.ts";
import { PoolTracker } from "../../../processors/core/pool-state.ts";
import { poolStates, pools as poolsTable } from "../../../schemas/facts.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { assertMatchesChain, poolTxs, type Run, runOf } from "../../helpers/pool-state-run.ts";

applyLibraryPatches(["parse", "build"]);

async function marketRun(seed: number, blocks: number): Promise<Run> {
  const devnet = new Devnet({ seed });
  const txs: RawTransaction[] = [];
  for (let i = 0; i < blocks; i++) txs.push(...(await devnet.nextBlock()).transactions);
  while (devnet.pending > 0) txs.push(...devnet.drainBlock().transactions);
  return runOf(devnet, txs);
}

const runP = marketRun(2, 70);

test("every pool equals ChainState after a seeded market run", async (t) => {
  const run = await runP;
  const tracker = new PoolTracker((a) => run.types.get(a));
  const lists = poolTxs(run);
  const started = performance.now();
  const reports = lists.flatMap((list) => list.flatMap((tx) => tracker.apply(tx).report ?? []));
  const ms = performance.now() - started;
  const n = lists.flat().length;
  t.log(`${n} pool txs in ${ms.toFixed(0)} ms (${Math.round((n / ms) * 1000)} tx/s)`);
  t.deepEqual(reports, []);
  t.deepEqual(tracker.needsResync(), []);
  await assertMatchesChain(t, run, tracker);
});

/** A copy of `tx` whose first `pay_to` asks for one more unit of its non-zero side. */
function tamperPayTo(tx: RawTransaction): RawTransaction {
  const i = tx.out_msgs.findIndex(
    (m) => m.opcode === STONFI_V1_OP.pay_to || m.opcode === STONFI_V2_OP.pay_to,
  );
  const m = tx.out_msgs[i]!;
  const body = decodeBody(Cell.fromBase64(m.body_boc), {
    dex: m.opcode === STONFI_V1_OP.pay_to ? "v1" : "v2",
  });
  if (body.kind !== "stonfi.v1.pay_to" && body.kind !== "stonfi.v2.pay_to") throw new Error(body.kind);
  const more =
    body.amount0Out > 0n ? { amount0Out: body.amount0Out + 1n } : { amount1Out: body.amount1Out + 1n };
  const out_msgs = tx.out_msgs.map((x, j) =>
    j === i
      ? {
          ...x,
          body_boc: encodeBody({ ...body, ...more })
            .toBoc()
            .toString("base64"),
        }
      : x,
  );
  return { ...tx, out_msgs };
}

const isSwapPayout = (tx: RawTransaction, op: number) =>
  tx.in_msg?.opcode === op &&
  tx.out_msgs.some((m) => m.opcode === STONFI_V1_OP.pay_to || m.opcode === STONFI_V2_OP.pay_to);

for (const [dex, op] of [
  ["v1", STONFI_V1_OP.swap],
  ["v2", STONFI_V2_OP.swap],
] as const) {
  test(`a tampered ${dex} pay_to amount is a mismatch; the pool waits for resync, then resumes`, async (t) => {
    const run = await runP;
    const lists = poolTxs(run).filter((l) => l.filter((tx) => isSwapPayout(tx, op)).length > 3);
    const list = lists[0]!;
    const target = list.filter((tx) => isSwapPayout(tx, op))[2]!;
    const clean = new PoolTracker((a) => run.types.get(a));
    const tampered = new PoolTracker((a) => run.types.get(a));
    const statuses: string[] = [];
    for (const tx of list) {
      clean.apply(tx);
      const r = tampered.apply(tx === target ? tamperPayTo(tx) : tx);
      statuses.push(r.status);
      if (r.report) {
        t.like(r.report, {
          kind: "mismatch",
          pool: target.account,
          txHash: target.hash,
          lt: BigInt(target.lt),
        });
        t.not(
          r.report.kind === "mismatch" ? r.report.expected : "",
          r.report.kind === "mismatch" ? r.report.actual : "",
        );
        t.deepEqual(tampered.needsResync(), [target.account]);
        t.is(tampered.apply(list[list.length - 1]!).status, "awaiting_resync");
        // the shell reads the pool from the chain; here the clean tracker stands in for ChainState
        const c = clean.get(target.account)!;
        tampered.resync(target.account, c.state, c.lt);
      }
    }
    t.is(statuses.filter((s) => s === "mismatch").length, 1);
    t.deepEqual(tampered.get(target.account)?.state, clean.get(target.account)?.state);
    t.deepEqual(tampered.needsResync(), []);
  });
}

/** All pool txs, split at the median lt: [before, after]. */
function halves(run: Run): [RawTransaction[], RawTransaction[]] {
  const all = poolTxs(run).flat();
  const lts = all.map((tx) => BigInt(tx.lt)).sort((a, b) => (a < b ? -1 : 1));
  const mid = lts[lts.length >> 1]!;
  return [all.filter((tx) => BigInt(tx.lt) < mid), all.filter((tx) => BigInt(tx.lt) >= mid)];
}

test("rows validate, fromRows round-trips, and a restart from rows or a snapshot continues exactly", async (t) => {
  const run = await runP;
  const [before, after] = halves(run);
  const first = new PoolTracker((a) => run.types.get(a));
  const r = first.applyBatch(before);
  t.deepEqual(r.reports, []);
  for (const row of r.poolStates) poolStates.schema.parse(row);
  for (const row of r.pools) poolsTable.schema.parse(row);
  t.is(new Set(r.pools.map((p) => p.pool)).size, r.pools.length);
  const restored = PoolTracker.fromRows(r.poolStates, r.pools, (a) => run.types.get(a));
  const snap = new PoolTracker((a) => run.types.get(a));
  snap.restore(first.snapshot());
  for (const p of first.snapshot().pools) {
    const back = restored.get(p.pool);
    t.deepEqual(back && { ...back, lt: 0n }, { ...p, lt: 0n }, p.pool);
  }
  for (const tracker of [first, restored, snap]) {
    t.deepEqual(tracker.applyBatch(after).reports, []);
    await assertMatchesChain(t, run, tracker);
  }
});

test("a tracker that starts mid-run reports unknown pools once and never guesses", async (t) => {
  const run = await runP;
  const [, after] = halves(run);
  const late = new PoolTracker((a) => run.types.get(a));
  const r = late.applyBatch(after);
  t.deepEqual(r.poolStates, []);
  t.true(r.reports.length > 0);
  t.true(r.reports.every((x) => x.kind === "unknown_pool"));
  t.is(new Set(r.reports.map((x) => x.pool)).size, r.reports.length);
  t.deepEqual(new Set(late.needsResync()), new Set(r.reports.map((x) => x.pool)));
  // The devnet records each account's status: an active pool's StateInit is never taken as its state.
  t.true(r.reports.every((x) => x.kind === "unknown_pool" && x.reason.includes("active")));
  // ...but its identity is known: a pools row per unknown pool (later rows only add to it), no deployment,
  // router and token wallets as the pool really has them, the curve only where certain.
  const full = new PoolTracker((a) => run.types.get(a));
  full.applyBatch(poolTxs(run).flat());
  const last = new Map(r.pools.map((row) => [row.pool, row]));
  t.deepEqual(new Set(last.keys()), new Set(r.reports.map((x) => x.pool)));
  for (const row of last.values()) {
    poolsTable.schema.parse(row);
    const truth = full.get(row.pool)!;
    t.like(
      row,
      { created_lt: null, created_utime: null, token0_master: null, token1_master: null },
      row.pool,
    );
    t.deepEqual(
      [row.router, row.token0_wallet, row.token1_wallet],
      [truth.router, truth.token0Wallet, truth.token1Wallet],
      row.pool,
    );
    const type = run.types.get(row.pool)!;
    const ambiguous = type === "v2_constant_product" || type === "v2_constant_sum";
    t.is(row.pool_type, ambiguous ? null : type, row.pool);
  }
});

test("on a known pool: an unknown op is reported, getters and failed or bounced messages change nothing", async (t) => {
  const run = await runP;
  const list = poolTxs(run).find((l) => run.types.get(l[0]!.account) === "v2_constant_product")!;
  const [first, second] = list as [RawTransaction, RawTransaction];
  const withBody = (op: number, lt: bigint): RawTransaction => {
    const body = beginCell().storeUint(op, 32).storeUint(1, 64).endCell().toBoc().toString("base64");
    return {
      ...second,
      lt: lt.toString(),
      out_msgs: [],
      in_msg: { ...second.in_msg!, opcode: op, body_boc: body },
    };
  };
  const tracker = new PoolTracker((a) => run.types.get(a));
  t.is(tracker.apply(first).status, "changed");
  const lt = BigInt(second.lt);
  t.is(tracker.apply(withBody(0x26df39fc, lt)).status, "unchanged"); // getter_pool_data
  t.is(tracker.apply({ ...second, lt: `${lt + 1n}`, aborted: true }).status, "failed");
  t.is(
    tracker.apply({ ...second, lt: `${lt + 2n}`, in_msg: { ...second.in_msg!, bounced: true } }).status,
    "bounced",
  );
  t.is(tracker.apply({ ...second, lt: `${lt + 2n}` }).status, "duplicate");
  const r = tracker.apply(withBody(0x12345678, lt + 3n));
  t.like(r, { status: "unrecognised", report: { kind: "unrecognised", op: "unknown op 0x12345678" } });
  t.deepEqual(tracker.needsResync(), [first.account]);
});
