/**
 * The processor's thin I/O shell (STYLE practice 3): for each batch, call the pure core, write its facts
 * with ONE insert per table plus the cursor, refresh the hot cache, and only then let the batch be
 * committed. The core never sees the bus, the store or the clock; the shell never decodes anything.
 *
 * `batchHandler(shell)` is the staged handler for `bus.consume(...)`: `prepareBatch` (core) then
 * `sinkBatch` (store, cache, metrics); the bus commits when the sink resolves, and prepares the next batch
 * meanwhile. The runtime around it (lifecycle, end of input) is ./run.ts.
 */
import type { CacheNamespace } from "../infra/cache/types.ts";
import { errorMessage } from "../infra/errors.ts";
import type { Logger } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { RETRY_DEFAULTS, type RetryOptions, retry } from "../infra/retry.ts";
import type { CursorPosition } from "../infra/store/facts-writer.ts";
import type { FactRows, FactTableName, PoolStateRow } from "../schemas/facts.ts";

/** The `Common`-style context passed explicitly (no module singletons). */
export type ProcessorContext = {
  readonly logger: Logger;
  readonly metrics: Metrics;
};

export type ProcessorShell<B> = {
  /** The pure core: one batch in, its fact rows out. */
  readonly core: (batch: B) => FactRows | Promise<FactRows>;
  /** Where the batch leaves its partition (stored as the cursor with its facts). */
  readonly position: (batch: B) => CursorPosition;
  /** The newest mc_seqno read once the core has taken the batch (metrics: lag). */
  readonly head?: (batch: B) => number;
  /** Records of the partition after the batch, not yet processed (metrics: consumer lag); null: unknown. */
  readonly lag?: (batch: B) => { partition: number; records: number } | null;
  /** Raw transactions in the batch (metrics). */
  readonly size: (batch: B) => number;
  /** Stores the rows and the cursor: `(rows, pos) => writeBatch(store, rows, pos)` in production. */
  readonly write: (rows: FactRows, position: CursorPosition) => Promise<unknown>;
  /** Latest pool state per pool goes here after the write (the API simulates from it). */
  readonly poolStates?: CacheNamespace<PoolStateRow>;
  /** Retries of a write failing with a retryable error; afterwards the batch fails and is not committed. */
  readonly retry?: Omit<RetryOptions, "onRetry">;
  readonly ctx: ProcessorContext;
};

/** The highest-lt state of each pool in the rows. */
export function latestStatePerPool(rows: readonly PoolStateRow[]): Map<string, PoolStateRow> {
  const latest = new Map<string, PoolStateRow>();
  for (const row of rows) {
    const seen = latest.get(row.pool);
    if (seen === undefined || row.lt > seen.lt) latest.set(row.pool, row);
  }
  return latest;
}

/** A batch through the core: its rows, and its cursor as the core saw it right after the batch. */
export type PreparedBatch = {
  readonly rows: FactRows;
  readonly position: CursorPosition;
  readonly head: number | null;
  readonly lag: { partition: number; records: number } | null;
  readonly endTimer: () => void;
};

/** The core's half of a batch. Cores run one batch at a time, in order (they keep state between them). */
export async function prepareBatch<B>(shell: ProcessorShell<B>, batch: B): Promise<PreparedBatch> {
  const endTimer = shell.ctx.metrics.batchSeconds.startTimer();
  const rows = await shell.core(batch);
  return {
    rows,
    position: shell.position(batch),
    head: shell.head?.(batch) ?? null,
    lag: shell.lag?.(batch) ?? null,
    endTimer,
  };
}

/** Write (retrying retryable failures) → cache → metrics. Throws if the write finally fails. */
export async function sinkBatch<B>(
  shell: ProcessorShell<B>,
  batch: B,
  prepared: PreparedBatch,
): Promise<void> {
  const { logger, metrics } = shell.ctx;
  const { rows, position } = prepared;
  await retry(() => shell.write(rows, position), {
    ...(shell.retry ?? RETRY_DEFAULTS),
    onRetry(error, attempt, delayMs) {
      metrics.storeRetries.inc();
      logger.warn({ err: error, attempt, delayMs }, "store write failed, retrying");
    },
  });
  if (shell.poolStates !== undefined && rows.pool_states !== undefined) {
    await cachePoolStates(shell.poolStates, rows.pool_states, shell.ctx);
  }
  metrics.transactionsProcessed.inc(shell.size(batch));
  metrics.blocksProcessed.inc(rows.blocks?.length ?? 0);
  for (const [table, tableRows] of Object.entries(rows) as [FactTableName, readonly unknown[]][]) {
    if (tableRows.length > 0) metrics.factsWritten.inc({ table }, tableRows.length);
  }
  for (const u of rows.unknown_messages ?? []) metrics.countUnknown(u.kind, u.reason);
  metrics.setProcessed(position.partition_id, position.mc_seqno);
  if (prepared.head !== null) metrics.setConsumed(position.partition_id, prepared.head);
  if (prepared.lag !== null) metrics.setConsumerLag(prepared.lag.partition, prepared.lag.records);
  prepared.endTimer();
}

/** The cache is an optimisation over the store: a failure is logged and counted, never fatal. */
async function cachePoolStates(
  cache: CacheNamespace<PoolStateRow>,
  rows: readonly PoolStateRow[],
  ctx: ProcessorContext,
): Promise<void> {
  for (const [pool, state] of latestStatePerPool(rows)) {
    try {
      await cache.set(pool, state);
    } catch (error) {
      ctx.metrics.cacheErrors.inc();
      ctx.logger.warn({ pool, error: errorMessage(error) }, "hot cache update failed");
    }
  }
}

/**
 * For `bus.consume(topic, group, batchHandler(shell), options)`, as a staged handler: the bus runs the
 * core on the next batch while the store takes this one (chdb inserts on its own threads), and commits a
 * batch once its facts and cursor are stored, in order. The position is taken right after the batch's
 * own core step, so the cursor stored with a batch never runs ahead of the facts stored with it.
 */
export function batchHandler<B>(shell: ProcessorShell<B>): {
  prepare(batch: B): Promise<PreparedBatch>;
  sink(batch: B, prepared: PreparedBatch): Promise<void>;
} {
  const failed = (error: unknown): never => {
    shell.ctx.metrics.batchFailures.inc();
    throw error;
  };
  return {
    prepare: (batch) => prepareBatch(shell, batch).catch(failed),
    sink: (batch, prepared) => sinkBatch(shell, batch, prepared).catch(failed),
  };
}
