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
import type { FactRows, PoolStateRow } from "../schemas/facts.ts";
import type { RawTransaction, RejectedRecord } from "../schemas/raw-transaction.ts";
import type { CoreResult } from "./core/index.ts";
import { batchHandler, type ProcessorContext, type ProcessorShell } from "./shell.ts";

type Value = RawTransaction | RejectedRecord;

/** The partition one runtime reads (the partitioning contract above). */
export const PROCESSOR_PARTITION = 0;

/** What the runtime needs of `ProcessorCore` (tests may pass a stand-in). */
export type Core = {
  process(records: readonly Value[], flush?: boolean): Promise<CoreResult>;
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
  const { bus, core, ctx } = options;
  const group = options.group ?? DEFAULT_CONSUMER;
  const consumed = progress();
  const shell: ProcessorShell<Batch<Value>> = {
    async core(batch) {
      if (batch.partition !== PROCESSOR_PARTITION) {
        throw new NonRetryableError(
          `the processor reads one partition (whole traces in one window); got a batch of partition ${batch.partition}`,
        );
      }
      const values = batch.records.map((r) => r.value);
      const { rows, poolReports, poolResyncs = [] } = await core.process(values);
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
      consumed.advance(Number(batch.nextOffset));
      return rows;
    },
    position: (batch) => cursorAt(group, batch.partition, core.resumeAfter(), batch.nextOffset),
    head: () => core.head,
    size: (batch) => batch.records.length,
    write: options.write,
    ...(options.poolStates !== undefined ? { poolStates: options.poolStates } : {}),
    ctx,
  };
  const consumer = bus.consume(rawTransactionsTopic, group, batchHandler(shell), {
    maxBatch: options.maxBatchRecords,
    maxWaitMs: options.maxBatchMs,
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
