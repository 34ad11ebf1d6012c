/**
 * The processor runtime (processors/run.ts) over the in-process bus with a stand-in core and an in-memory
 * write: cursor per batch, finish (wait, stop, flush, final cursor), stop (no flush), the one-partition
 * contract, and a failed write ending the run.
 */
import test from "ava";
import { createMemoryBus } from "../../../infra/bus/memory.ts";
import { rawTransactionsTopic } from "../../../infra/bus/topics.ts";
import { NonRetryableError } from "../../../infra/errors.ts";
import { createLogger } from "../../../infra/log.ts";
import { createMetrics } from "../../../infra/metrics.ts";
import type { CursorPosition } from "../../../infra/store/facts-writer.ts";
import { type Core, runProcessor } from "../../../processors/run.ts";
import { blockEnd } from "../../../schemas/bus-control.ts";
import type { FactRows } from "../../../schemas/facts.ts";
import { RAW_TX_VERSION, type RawTransaction } from "../../../schemas/raw-transaction.ts";

function rawTx(i: number, mc: number): RawTransaction {
  return {
    version: RAW_TX_VERSION,
    mc_seqno: mc,
    shard: null,
    block_seqno: null,
    hash: i.toString(16).padStart(64, "0"),
    lt: String(1000 + i),
    now: 1_763_700_000 + i,
    account: `0:${"A".repeat(64)}`,
    aborted: false,
    compute: { success: true, exit_code: 0 },
    action: null,
    in_msg: null,
    out_msgs: [],
  };
}

/** Records what it is given; resumes after the highest block it saw, minus one. */
function standInCore(): Core & { calls: { hashes: string[]; flush: boolean; whole: number }[] } {
  const calls: { hashes: string[]; flush: boolean; whole: number }[] = [];
  let head = 0;
  return {
    calls,
    async process(records, flush = false, whole = 0) {
      const txs = records as RawTransaction[];
      calls.push({ hashes: txs.map((tx) => tx.hash), flush, whole });
      for (const tx of txs) head = Math.max(head, tx.mc_seqno);
      return { rows: flush ? { blocks: [] } : {}, poolReports: [] };
    },
    resumeAfter: () => Math.max(0, head - 1),
    get head() {
      return head;
    },
  };
}

function setup(partitions = 1, failWrite = false) {
  const bus = createMemoryBus({ partitions, roundTrip: false });
  const core = standInCore();
  const writes: { rows: FactRows; position: CursorPosition }[] = [];
  const metrics = createMetrics();
  const run = runProcessor({
    bus,
    core,
    write: async (rows, position) => {
      if (failWrite) throw new NonRetryableError("store refused");
      writes.push({ rows, position });
    },
    maxBatchRecords: 2,
    maxBatchMs: 0,
    ctx: { logger: createLogger({ level: "silent" }), metrics },
  });
  const produce = (txs: RawTransaction[]) =>
    bus.produce(
      rawTransactionsTopic,
      txs.map((tx) => ({ key: tx.account, value: tx })),
    );
  return { bus, core, writes, run, produce, metrics };
}

test("block-end markers tell the core which blocks are whole; they are not counted as transactions", async (t) => {
  const { bus, core, run, metrics } = setup();
  await bus.produce(
    rawTransactionsTopic,
    [rawTx(1, 10), rawTx(2, 10), blockEnd(10), rawTx(3, 11), blockEnd(11)].map((value) => ({
      key: "k",
      value,
    })),
  );
  await run.finish({ lastMcSeqno: 11, records: 5 });
  await run.done;
  t.deepEqual(
    core.calls.map((c) => [c.hashes.length, c.flush, c.whole]),
    [
      [2, false, 0],
      [1, false, 10],
      [0, false, 11],
      [0, true, 0],
    ],
  );
  t.is((await metrics.transactionsProcessed.get()).values[0]?.value, 3);
});

test("finish waits for every record (the last block spans two batches), flushes, stores the final cursor", async (t) => {
  const { core, writes, run, produce } = setup();
  await produce([rawTx(1, 10), rawTx(2, 10), rawTx(3, 11), rawTx(4, 12), rawTx(5, 12)]);
  await run.finish({ lastMcSeqno: 12, records: 5 });
  await run.done;
  t.deepEqual(
    core.calls.map((c) => [c.hashes.length, c.flush]),
    [
      [2, false],
      [2, false],
      [1, false],
      [0, true],
    ],
  );
  t.deepEqual(
    writes.map((w) => [w.position.mc_seqno, w.position.next_offset]),
    [
      [9, 2n],
      [11, 4n],
      [11, 5n],
      [12, 0n],
    ],
    "each batch stores the core's resume point; the flush stores the last block",
  );
  t.deepEqual(writes.at(-1)?.rows, { blocks: [] });
});

test("stop ends after the batch in flight and leaves the window unflushed", async (t) => {
  const { core, writes, run, produce } = setup();
  await produce([rawTx(1, 10)]);
  while (writes.length === 0) await new Promise((r) => setTimeout(r, 5));
  await run.stop();
  await run.done;
  t.false(core.calls.some((c) => c.flush));
  t.is(writes.length, 1);
});

test("a batch from a second partition fails the run instead of cutting traces", async (t) => {
  const { run, produce } = setup(2);
  // Keys spread over both partitions (the bus partitions by key).
  const txs = Array.from({ length: 8 }, (_, i) => ({
    ...rawTx(i, 10),
    account: `0:${String(i).repeat(64)}`,
  }));
  await produce(txs);
  await t.throwsAsync(run.done, { instanceOf: NonRetryableError, message: /one partition.*partition 1/ });
});

test("a write that fails for good ends the run with its error; finish rejects too", async (t) => {
  const { run, produce } = setup(1, true);
  await produce([rawTx(1, 10)]);
  await t.throwsAsync(run.finish({ lastMcSeqno: 10, records: 1 }), { message: "store refused" });
  await t.throwsAsync(run.done, { message: "store refused" });
});

test("a block-end marker crosses the topic codec as itself, not as a rejected record", (t) => {
  const { codec } = rawTransactionsTopic;
  t.deepEqual(codec.decode(codec.encode(blockEnd(7))), blockEnd(7));
});
