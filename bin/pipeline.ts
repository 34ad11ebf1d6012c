/**
 * Wiring of the embedded pipeline (DESIGN.md "Data flow"): source → in-process bus → processor core →
 * ClickHouse facts (+ hot cache). bin/ is the only place that knows every stage; it builds the adapters
 * and the core, and runs the two stage runtimes: ingest/loop.ts (source → bus) and processors/run.ts
 * (bus → core → store → commit).
 *
 * Lifecycle: the cursor stored with the facts says which blocks are done; the source resumes after it.
 * A finite source (a replay, a devnet run with DEVNET_BLOCKS) ends with a flush that releases the
 * operations still waiting in the trace window. `stop()` is graceful: the source stops, the batch in
 * flight is written and committed, and the next start resumes from the stored cursor.
 */
import { join } from "node:path";
import type { ChainState } from "../dex/chain-state.ts";
import { createMemoryBus } from "../infra/bus/memory.ts";
import type { Bus } from "../infra/bus/types.ts";
import { createMemoryCache } from "../infra/cache/memory.ts";
import { type CacheNamespace, cacheNamespace } from "../infra/cache/types.ts";
import { stringifyJson } from "../infra/json.ts";
import { bocParser } from "../infra/library-patches/index.ts";
import type { Logger } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { openStore, type Store } from "../infra/store/client.ts";
import { latestPoolStates, poolStatesAround, selectFacts } from "../infra/store/facts-reader.ts";
import { readCursor, writeBatch } from "../infra/store/facts-writer.ts";
import { migrate } from "../infra/store/migrate.ts";
import { prepareRollups } from "../infra/store/rollups.ts";
import type { ToncenterClient } from "../infra/toncenter/client.ts";
import { createDevnetSource } from "../ingest/devnet/source.ts";
import { runIngest } from "../ingest/loop.ts";
import { createReplaySource } from "../ingest/replay/index.ts";
import type { Source, SourceBlock } from "../ingest/source.ts";
import { ProcessorCore } from "../processors/core/index.ts";
import { PoolTracker } from "../processors/core/pool-state.ts";
import { chainStateLookups } from "../processors/lookups.ts";
import { runProcessor } from "../processors/run.ts";
import { type PoolStateRow, poolStates as poolStatesTable } from "../schemas/facts.ts";
import { mainnetChainStateOf } from "./chain-state.ts";
import { type Config, windowBlocksOf } from "./config.ts";
import { mainnetSourceOf, toncenterClientOf } from "./mainnet.ts";
import { pricingConfigOf } from "./pricing.ts";

export type PipelineDeps = {
  logger: Logger;
  metrics: Metrics;
  store?: Store;
  source?: Source;
  /** Called after each block is published (progress display). */
  onBlock?: (block: SourceBlock) => void;
  /**
   * The toncenter client of a source built by the caller (backfill), so that chain-state reads share its
   * rate limit; absent: one is made from TON_API_URL.
   */
  toncenter?: ToncenterClient;
};

export type PipelineResult = { blocks: number; transactions: number; lastMcSeqno: number; finished: boolean };

export type Pipeline = {
  readonly store: Store;
  readonly source: Source;
  /** Get-method reads: the source's own, or toncenter's when TON_API_URL is set; null: no chain access. */
  readonly chainState: ChainState | null;
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

export function sourceOf(
  config: Config,
  deps: { logger?: Logger; metrics?: Metrics; client?: ToncenterClient } = {},
): Source {
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
      return mainnetSourceOf(config, deps);
  }
}

/** The devnet's world when the source is the devnet (its anchors' addresses). */
export const devnetWorldOf = (source: Source) =>
  "devnet" in source ? (source as ReturnType<typeof createDevnetSource>).devnet.world : undefined;

/**
 * The processor core as a (re)start builds it: resumed after the stored cursor `after`, its pool trackers,
 * pools and routers restored from the store (`tondex start`, and every `tondex process` replica each time
 * it is handed the partition: bin/distributed.ts).
 */
export async function buildCore(
  config: Config,
  deps: { store: Store; after: number; chainState: ChainState | null; source: Source; logger: Logger },
): Promise<ProcessorCore> {
  const { store, after, chainState, source, logger } = deps;
  const restored = await latestPoolStates(store);
  const poolRows = await selectFacts(store, "pools", {});
  const lookups = chainStateLookups(chainState, (what, error) =>
    logger.warn({ what, err: error }, "chain-state lookup failed"),
  );
  const core = new ProcessorCore(
    {
      windowBlocks: windowBlocksOf(config),
      lookups,
      resumedAfter: after,
      pricing: pricingConfigOf(config, devnetWorldOf(source)),
      parseBoc: config.libraryPatches === "on" ? bocParser() : undefined,
    },
    (types) => PoolTracker.fromRows(restored, poolRows, types),
  );
  core.restore({
    pools: poolRows,
    routers: await selectFacts(store, "routers", {}),
    // the swaps of re-read blocks are priced with the states they were first priced with
    poolStates: await poolStatesAround(store, after),
  });
  return core;
}

export async function startPipeline(config: Config, deps: PipelineDeps): Promise<Pipeline> {
  const { logger, metrics } = deps;
  const store =
    deps.store ??
    (await openStore({
      clickhouseUrl: config.clickhouseUrl,
      dataDir: join(config.dataDir, "clickhouse"),
      clickhouseRequestTimeoutMs: config.clickhouseRequestTimeoutMs,
    }));
  const migrations = await migrate(store, {
    // A line per migration applied, and per statement once a migration has run a second (an upgrade's
    // copies can take minutes on a large data dir); the rest of a fresh install's statements at debug.
    log: (fields, message) => {
      const shown = fields.statement === fields.statements || Number(fields.elapsedMs) >= 1_000;
      if (shown) logger.info(fields, message);
      else logger.debug(fields, message);
    },
  });
  const after = (await readCursor(store)).mcSeqno ?? 0;
  // Before the processor writes: backfill rollups of an older data dir, or roll up facts after the cursor.
  await prepareRollups(store, { after, log: (fields, message) => logger.info(fields, message) });
  logger.info(
    { store: store.kind, version: store.version, migrations: migrations.applied, after },
    "store ready",
  );
  const cache = createMemoryCache({ maxEntries: config.cacheMaxEntries });
  // One toncenter client for the source and the chain-state reads: one rate limit for every request.
  const toncenter =
    deps.toncenter ?? (config.tonApiUrl === null ? undefined : toncenterClientOf(config, metrics));
  const source =
    deps.source ?? sourceOf(config, { logger, metrics, ...(toncenter ? { client: toncenter } : {}) });
  const chainState =
    source.chainState ?? (toncenter ? mainnetChainStateOf(config, toncenter, cache, logger) : null);
  const core = await buildCore(config, { store, after, chainState, source, logger });
  const bus: Bus = createMemoryBus({
    partitions: config.busPartitions,
    capacity: config.busCapacityRecords,
    // In one process the records are handed over as objects: the source built and validated them.
    roundTrip: false,
  });
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
  const processor = runProcessor({
    bus,
    core,
    write,
    poolStates,
    maxBatchRecords: config.batchMaxRecords,
    maxBatchMs: config.batchMaxMs,
    ctx: { logger, metrics },
  });
  const abort = new AbortController();
  const run = async (): Promise<PipelineResult> => {
    const ingest = await runIngest({
      source,
      bus,
      after,
      signal: abort.signal,
      onBlock: (b) => {
        metrics.setSourceHead(Math.max(b.mc_seqno, source.head() ?? 0));
        deps.onBlock?.(b);
      },
    }).catch(async (error: unknown) => {
      await processor.stop();
      throw error;
    });
    const finished = !abort.signal.aborted;
    // The bus is this run's own: the records it published are the partition's offsets 0..records.
    if (finished) {
      await processor.finish({
        lastMcSeqno: ingest.lastMcSeqno,
        records: ingest.records,
      });
    } else await processor.stop();
    await processor.done;
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
    chainState,
    poolStates,
    dataVersion: () => dataVersion,
    done,
    async stop() {
      abort.abort();
      await done.catch(() => undefined);
    },
  };
}
