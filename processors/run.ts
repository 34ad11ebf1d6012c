/**
 * The processor runtime, in one place (DESIGN.md "Processors"; squid's `run(src, db, handler)`):
 *
 *   bus (raw-transactions topic) ──► core (pure: records → fact rows) ──► sink (one write: facts + cursor,
 *                                                                          then hot cache, metrics) ──► commit
 *
 * `runProcessor` consumes the topic with a staged handler (./shell.ts): the core prepares batch N + 1
 * while batch N's facts are written; the bus commits a batch once its facts and cursor are stored.
 * bin/ builds the adapters (bus, store, cache) and the core, and calls this; nothing here knows the source.
 *
 * Partitioning contract (processors/README.md): one runtime reads partition 0 of the topic and nothing
 * else. The trace window needs every transaction of a trace, and a pool's transactions in lt order, in
 * one ordered stream; records are keyed by account, so a second partition would split traces. A batch
 * from another partition fails the run (never silently mis-classified).
 *
 * Distributed (`rebuildCore` given; processors/README.md "Partitioning contract"): the runtimes of one
 * consumer group (`tondex process` replicas) share the partition; Kafka hands it to one at a time. Each
 * batch commits the offset a restart must resume from (the first record of the block after the stored
 * cursor), so whichever runtime reads the partition next starts where a restarted single process would;
 * a runtime that reads the partition from an offset it did not reach itself (a new assignment, a takeover,
 * a re-delivery) first rebuilds its core from the store, as a restart does. An end-of-input record
 * (schemas/bus-control.ts) flushes the window after the transactions before it, as `finish` does here.
 * Re-published blocks (an ingest restarted from the stored cursor) are dropped before the core
 * (./block-order.ts).
 *
 * Lifecycle: `stop()` ends after the batch in flight (the window is not flushed: the next start re-reads
 * from the stored cursor and rebuilds it). `finish({ lastMcSeqno, records })` is for a finite input: it
 * waits until every record published went through the core (by offset: a block's transactions may span
 * two batches, so reaching the last block's mc_seqno is not enough), stops, then flushes the window
 * (releasing the operations still waiting for later transactions) and stores the flush with the final
 * cursor.
 */
import { rawTransactionsTopic } from "../infra/bus/topics.ts";
import type { Batch, Bus } from "../infra/bus/types.ts";
import type { CacheNamespace } from "../infra/cache/types.ts";
import { NonRetryableError } from "../infra/errors.ts";
import { type CursorPosition, DEFAULT_CONSUMER } from "../infra/store/facts-writer.ts";
import { type BlockEnd, type EndOfInput, isBlockEnd, isEndOfInput } from "../schemas/bus-control.ts";
import type { FactRows, PoolStateRow } from "../schemas/facts.ts";
import type { RawTransaction, RejectedRecord } from "../schemas/raw-transaction.ts";
import { BlockOrder } from "./block-order.ts";
import type { CoreResult } from "./core/index.ts";
import { batchHandler, type PreparedBatch, type ProcessorContext, type ProcessorShell } from "./shell.ts";

type Value = RawTransaction | RejectedRecord;
type TopicValue = Value | BlockEnd | EndOfInput;

/** Distributed: the pause before a failed batch is read again. */
const DISTRIBUTED_RETRY_MS = 1_000;

/** The partition one runtime reads (the partitioning contract above). */
export const PROCESSOR_PARTITION = 0;

/** What the runtime needs of `ProcessorCore` (tests may pass a stand-in). */
export type Core = {
  /** `wholeThrough`: every block up to it is whole (its block-end marker was read). */
  process(records: readonly Value[], flush?: boolean, wholeThrough?: number): Promise<CoreResult>;
  /** The mc_seqno a restart resumes after, given what the core has seen (stored as the cursor). */
  resumeAfter(): number;
  /** The newest mc_seqno the core has read (the lag metric). */
  readonly head: number;
};

export type ProcessorRunOptions = {
  readonly bus: Bus;
  readonly core: Core;
  /** Stores the rows and the cursor in one batch (`writeBatch(store, rows, position)`). */
  readonly write: (rows: FactRows, position: CursorPosition) => Promise<unknown>;
  /** Latest pool state per pool goes here after each write (the API simulates from it). */
  readonly poolStates?: CacheNamespace<PoolStateRow>;
  readonly maxBatchRecords: number;
  readonly maxBatchMs: number;
  readonly group?: string;
  readonly ctx: ProcessorContext;
  /**
   * Distributed: builds a core from what the store holds (as a restart does); called when the partition
   * is read from an offset this runtime did not reach itself (the first batch included). Absent (one
   * process): `core` is used throughout and each batch commits its own end.
   */
  readonly rebuildCore?: () => Promise<Core>;
};

/** Where a finite input ended: its last block, and how many records it published to the bus in this run. */
export type InputEnd = { readonly lastMcSeqno: number; readonly records: number };

export type ProcessorRun = {
  /** Settles when the run ends (after `stop()` or `finish()`); rejects when a batch failed for good. */
  readonly done: Promise<void>;
  /** Stops after the batch in flight (written and committed); the window is left for the next start. */
  stop(): Promise<void>;
  /** The input ended: process its `records` (all published to this bus), then flush the window. */
  finish(end: InputEnd): Promise<void>;
};

export function runProcessor(options: ProcessorRunOptions): ProcessorRun {
  const { bus, ctx } = options;
  let core = options.core;
  const group = options.group ?? DEFAULT_CONSUMER;
  const consumed = progress();
  let order = new BlockOrder();
  /** Distributed: where the next batch starts if it continues this core (null: build one first). */
  let expected: bigint | null = null;
  /** The last block of the input, when the batch just prepared ended it (its flush sets the cursor). */
  let endedAt: number | null = null;
  const distributed = options.rebuildCore;

  /** One batch through the core: repeats dropped, the window flushed at an end-of-input record. */
  const processBatch = async (batch: Batch<TopicValue>): Promise<FactRows> => {
    const first = (batch.records[0] as { offset: bigint }).offset;
    if (distributed !== undefined && expected !== first) {
      ctx.logger.info(
        { offset: first.toString() },
        "reading the partition from here: core built from the store",
      );
      core = await distributed();
      order = new BlockOrder();
    }
    expected = batch.nextOffset;
    endedAt = null;
    const rows: FactRows = {};
    let values: Value[] = [];
    let whole = 0;
    for (const r of batch.records) {
      if (isBlockEnd(r.value)) {
        whole = Math.max(whole, r.value.mc_seqno);
        continue;
      }
      if (!isEndOfInput(r.value)) {
        // One process reads what its own ingest published once: nothing to drop.
        if (distributed === undefined || order.accept(r.value, r.offset)) values.push(r.value);
        continue;
      }
      if (values.length > 0) mergeRows(rows, await processValues(values, whole));
      values = [];
      mergeRows(rows, (await core.process([], true)).rows);
      endedAt = r.value.last_mc_seqno;
      ctx.logger.info({ lastMcSeqno: endedAt }, "end of input: window flushed");
    }
    if (values.length > 0 || endedAt === null) mergeRows(rows, await processValues(values, whole));
    return rows;
  };

  const processValues = async (values: readonly Value[], whole: number): Promise<FactRows> => {
    const { rows, poolReports, poolResyncs = [] } = await core.process(values, false, whole);
    for (const r of poolReports) {
      ctx.metrics.poolReports.inc({ kind: r.kind });
      // A pool whose state is unknown (active before the first transaction seen) is normal without chain
      // access: counted, not a warning. A failed check means the model and the chain disagree.
      if (r.kind === "unknown_pool") ctx.logger.debug({ report: r }, "pool state unknown");
      else ctx.logger.warn({ report: r }, "pool state check failed");
    }
    for (const r of poolResyncs) {
      ctx.metrics.poolResyncs.inc({ outcome: r.outcome, reason: r.reason });
      const resync = { ...r, lt: r.lt?.toString() ?? null };
      if (r.outcome === "resynced") ctx.logger.info({ resync }, "pool state read from the chain");
      else ctx.logger.debug({ resync }, "pool state not read from the chain");
    }
    return rows;
  };

  const shell: ProcessorShell<Batch<TopicValue>> = {
    async core(batch) {
      if (batch.partition !== PROCESSOR_PARTITION) {
        throw new NonRetryableError(
          `the processor reads one partition (whole traces in one window); got a batch of partition ${batch.partition}`,
        );
      }
      const rows = await processBatch(batch);
      consumed.advance(Number(batch.nextOffset));
      return rows;
    },
    position: (batch) => {
      const mc = endedAt ?? core.resumeAfter();
      // One process: the batch's end. Distributed: where a runtime that reads the partition next must start.
      const resume =
        distributed === undefined ? batch.nextOffset : order.resumeOffset(mc + 1, batch.nextOffset);
      return cursorAt(group, batch.partition, mc, resume);
    },
    head: () => core.head,
    lag: (batch) =>
      batch.highWatermark === undefined
        ? null
        : { partition: batch.partition, records: Number(batch.highWatermark - batch.nextOffset) },
    size: (batch) => batch.records.filter((r) => !isBlockEnd(r.value) && !isEndOfInput(r.value)).length,
    write: options.write,
    ...(options.poolStates !== undefined ? { poolStates: options.poolStates } : {}),
    ctx,
  };
  const handler = batchHandler(shell);
  const staged =
    distributed === undefined
      ? handler
      : { ...handler, commitOffset: (_: Batch<TopicValue>, p: PreparedBatch) => p.position.next_offset };
  const consumer = bus.consume(rawTransactionsTopic, group, staged, {
    maxBatch: options.maxBatchRecords,
    maxWaitMs: options.maxBatchMs,
    // Distributed: a batch whose store stays unavailable after the shell's retries is not committed and
    // is read again (from the last commit, with a core rebuilt from the store) until the store is back;
    // anything not retryable still ends the run.
    ...(distributed === undefined
      ? {}
      : { retries: Number.MAX_SAFE_INTEGER, retryDelayMs: DISTRIBUTED_RETRY_MS }),
  });
  let requestEnd: (end: InputEnd | null) => void = () => {};
  const endRequested = new Promise<InputEnd | null>((resolve) => {
    requestEnd = resolve;
  });
  const done = (async () => {
    // A failed batch ends the run before anyone asks (consumer.done rejects).
    const end = await Promise.race([endRequested, consumer.done.then(() => null)]);
    if (end !== null) await Promise.race([consumed.reached(end.records), consumer.done]);
    await consumer.stop();
    await consumer.done;
    if (end === null) return;
    const { rows } = await core.process([], true);
    await options.write(rows, cursorAt(group, PROCESSOR_PARTITION, end.lastMcSeqno, 0n));
    ctx.logger.info({ lastMcSeqno: end.lastMcSeqno }, "source finished; window flushed");
  })();
  // Callers await `done`; this only keeps an unobserved failure from crashing the process.
  done.catch(() => {});
  return {
    done,
    stop() {
      requestEnd(null);
      return done.catch(() => undefined);
    },
    finish(end) {
      requestEnd(end);
      return done;
    },
  };
}

/** Appends `more` to `rows`, table by table. */
function mergeRows(rows: FactRows, more: FactRows): void {
  const target = rows as Record<string, unknown[]>;
  for (const [table, list] of Object.entries(more) as [string, readonly unknown[]][]) {
    if (list.length === 0) continue;
    const existing = target[table];
    if (existing === undefined) target[table] = [...list];
    else existing.push(...list);
  }
}

function cursorAt(consumer: string, partition: number, mcSeqno: number, nextOffset: bigint): CursorPosition {
  return { consumer, partition_id: partition, mc_seqno: mcSeqno, next_offset: nextOffset };
}

/** The partition offset the core has consumed up to, and promises for "at least N". */
function progress(): { advance(offset: number): void; reached(offset: number): Promise<void> } {
  let head = 0;
  const waiters: { offset: number; resolve: () => void }[] = [];
  return {
    advance(offset) {
      if (offset <= head) return;
      head = offset;
      for (let i = waiters.length - 1; i >= 0; i--) {
        const w = waiters[i]!;
        if (w.offset <= head) {
          waiters.splice(i, 1);
          w.resolve();
        }
      }
    },
    reached(offset) {
      if (offset <= head) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ offset, resolve }));
    },
  };
}
