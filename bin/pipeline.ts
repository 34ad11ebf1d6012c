/**
 * Wiring of the embedded pipeline (DESIGN.md "Data flow"): source → in-process bus → processor core →
 * ClickHouse facts (+ hot cache). bin/ is the only place that knows every stage.
 *
 * Lifecycle: the cursor stored with the facts says which blocks are done; the source resumes after it.
 * A finite source (a replay, a devnet run with DEVNET_BLOCKS) ends with a flush that releases the
 * operations still waiting in the trace window. `stop()` is graceful: the source stops, the batch in
 * flight is written and committed, and the next start resumes from the stored cursor.
 */
import { join } from "node:path";
import { createMemoryBus } from "../infra/bus/memory.ts";
import { rawTransactionsTopic } from "../infra/bus/topics.ts";
import type { Batch, Bus } from "../infra/bus/types.ts";
import { createMemoryCache } from "../infra/cache/memory.ts";
import { type CacheNamespace, cacheNamespace } from "../infra/cache/types.ts";
import { stringifyJson } from "../infra/json.ts";
import type { Logger } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { openStore, type Store } from "../infra/store/client.ts";
import { latestPoolStates, selectFacts } from "../infra/store/facts-reader.ts";
import { DEFAULT_CONSUMER, readCursor, writeBatch } from "../infra/store/facts-writer.ts";
import { migrate } from "../infra/store/migrate.ts";
import { createDevnetSource } from "../ingest/devnet/source.ts";
import { runIngest } from "../ingest/loop.ts";
import { createReplaySource } from "../ingest/replay/index.ts";
import type { Source, SourceBlock } from "../ingest/source.ts";
import { ProcessorCore } from "../processors/core/index.ts";
import { PoolTracker } from "../processors/core/pool-state.ts";
import { chainStateLookups } from "../processors/lookups.ts";
import { batchHandler, type ProcessorShell } from "../processors/shell.ts";
import { type PoolStateRow, poolStates as poolStatesTable } from "../schemas/facts.ts";
import type { RawTransaction, RejectedRecord } from "../schemas/raw-transaction.ts";
import type { Config } from "./config.ts";

export type PipelineDeps = {
  logger: Logger;
  metrics: Metrics;
  store?: Store;
  source?: Source;
  /** Called after each block is published (progress display). */
  onBlock?: (block: SourceBlock) => void;
};

export type PipelineResult = { blocks: number; transactions: number; lastMcSeqno: number; finished: boolean };

export type Pipeline = {
  readonly store: Store;
  readonly source: Source;
  readonly poolStates: CacheNamespace<PoolStateRow>;
  /**
   * The indexed data's version: bumped after every committed write and every pool-state cache update, so
   * an unchanged value means nothing a reader sees has changed (the API's response memo keys on it).
   */
  dataVersion(): number;
  /** Settles when the source ends (and the flush is stored) or after `stop()`. */
  readonly done: Promise<PipelineResult>;
  stop(): Promise<void>;
};

export function sourceOf(config: Config): Source {
  switch (config.source) {
    case "devnet":
      return createDevnetSource({
        seed: config.devnetSeed,
        actionsPerBlock: config.devnetActionsPerBlock,
        intervalMs: config.devnetBlockIntervalMs,
        maxBlocks: config.devnetBlocks,
        drain: config.devnetBlocks > 0,
      });
    case "replay":
      return createReplaySource(config.replayPath!.split(",").filter((p) => p !== ""));
    case "mainnet":
      throw new Error("SOURCE=mainnet is not available in this build yet; use devnet or replay");
  }
}

type Value = RawTransaction | RejectedRecord;

export async function startPipeline(config: Config, deps: PipelineDeps): Promise<Pipeline> {
  const { logger, metrics } = deps;
  const store =
    deps.store ??
    (await openStore({
      clickhouseUrl: config.clickhouseUrl,
      dataDir: join(config.dataDir, "clickhouse"),
      clickhouseRequestTimeoutMs: config.clickhouseRequestTimeoutMs,
    }));
  const migrations = await migrate(store);
  const after = (await readCursor(store)).mcSeqno ?? 0;
  logger.info(
    { store: store.kind, version: store.version, migrations: migrations.applied, after },
    "store ready",
  );
  const source = deps.source ?? sourceOf(config);
  const restored = await latestPoolStates(store);
  const poolRows = await selectFacts(store, "pools", {});
  const lookups = chainStateLookups(source.chainState, (what, error) =>
    logger.warn({ what, err: error }, "chain-state lookup failed"),
  );
  const core = new ProcessorCore(
    { windowBlocks: config.windowBlocks, lookups, resumedAfter: after },
    (types) => PoolTracker.fromRows(restored, poolRows, types),
  );
  core.restore({ pools: poolRows, routers: await selectFacts(store, "routers", {}) });
  const bus: Bus = createMemoryBus({
    partitions: config.busPartitions,
    capacity: config.busCapacityRecords,
    // In one process the records are handed over as objects: the source built and validated them.
    roundTrip: false,
  });
  const cache = createMemoryCache({ maxEntries: config.cacheMaxEntries });
  let dataVersion = 0;
  const poolStateNamespace = cacheNamespace<PoolStateRow>(cache, {
    name: "pool_state",
    version: 1,
    ttlMs: config.cacheTtlSeconds * 1000,
    codec: { encode: (v) => stringifyJson(v), decode: (t) => poolStatesTable.schema.parse(JSON.parse(t)) },
  });
  const poolStates: CacheNamespace<PoolStateRow> = {
    ...poolStateNamespace,
    async set(id, value) {
      await poolStateNamespace.set(id, value);
      dataVersion++;
    },
  };
  const write = async (
    rows: Parameters<typeof writeBatch>[1],
    position: Parameters<typeof writeBatch>[2],
  ) => {
    await writeBatch(store, rows, position);
    dataVersion++;
  };
  let processedMc = after;
  const shell: ProcessorShell<Batch<Value>> = {
    async core(batch) {
      const values = batch.records.map((r) => r.value);
      const { rows, poolReports } = await core.process(values);
      for (const r of poolReports) {
        metrics.poolReports.inc({ kind: r.kind });
        // A pool whose state is unknown (active before the first transaction seen) is normal without chain
        // access: counted, not a warning. A failed check means the model and the chain disagree.
        if (r.kind === "unknown_pool") logger.debug({ report: r }, "pool state unknown");
        else logger.warn({ report: r }, "pool state check failed");
      }
      for (const v of values) processedMc = Math.max(processedMc, v.mc_seqno ?? 0);
      return rows;
    },
    position: (batch) => ({
      consumer: DEFAULT_CONSUMER,
      partition_id: batch.partition,
      mc_seqno: core.resumeAfter(),
      next_offset: batch.nextOffset,
    }),
    size: (batch) => batch.records.length,
    write,
    poolStates,
    ctx: { logger, metrics },
  };
  const consumer = bus.consume(rawTransactionsTopic, DEFAULT_CONSUMER, batchHandler(shell), {
    maxBatch: config.batchMaxRecords,
    maxWaitMs: config.batchMaxMs,
  });
  const abort = new AbortController();
  const run = async (): Promise<PipelineResult> => {
    const ingest = await runIngest({
      source,
      bus,
      after,
      signal: abort.signal,
      onBlock: (b) => {
        metrics.setSourceHead(b.mc_seqno);
        deps.onBlock?.(b);
      },
    });
    const finished = !abort.signal.aborted;
    if (finished) {
      while (processedMc < ingest.lastMcSeqno) await Promise.race([consumer.done, sleep(20)]);
    }
    await consumer.stop();
    await consumer.done;
    if (finished) {
      const { rows } = await core.process([], true);
      const position = {
        consumer: DEFAULT_CONSUMER,
        partition_id: 0,
        mc_seqno: ingest.lastMcSeqno,
        next_offset: 0n,
      };
      await write(rows, position);
      logger.info({ lastMcSeqno: ingest.lastMcSeqno }, "source finished; window flushed");
    }
    return {
      blocks: ingest.blocks,
      transactions: ingest.transactions,
      lastMcSeqno: ingest.lastMcSeqno,
      finished,
    };
  };
  const done = run();
  return {
    store,
    source,
    poolStates,
    dataVersion: () => dataVersion,
    done,
    async stop() {
      abort.abort();
      await done.catch(() => undefined);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
