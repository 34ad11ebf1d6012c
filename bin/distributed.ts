/**
 * Wiring of the distributed deployment (DESIGN.md "Data flow"; processors/README.md "Partitioning
 * contract"): the same stages as bin/pipeline.ts, split over processes that share Kafka
 * (KAFKA_BROKERS), a ClickHouse server (CLICKHOUSE_URL) and Redis (REDIS_URL):
 *
 *   tondex ingest   source ──► Kafka (raw-transactions topic; an end-of-input record after a finite source)
 *   tondex process  Kafka ──► core ──► ClickHouse (facts + cursor) ──► commit; pool states + data version → Redis
 *                   (N replicas in one consumer group: one reads the partition, the others take over)
 *   tondex serve    API over ClickHouse, quoting from Redis's pool states; memo keyed on Redis's data version
 *
 * This module builds the adapters and the runtimes; the stages' logic stays in ingest/, processors/, api/.
 */
import { join } from "node:path";
import type { ChainState } from "../dex/chain-state.ts";
import { createKafkaBus } from "../infra/bus/kafka.ts";
import { createMemoryBus } from "../infra/bus/memory.ts";
import { rawTransactionsTopic } from "../infra/bus/topics.ts";
import type { Bus } from "../infra/bus/types.ts";
import { type DataVersion, localDataVersion, redisDataVersion } from "../infra/cache/data-version.ts";
import { createMemoryCache } from "../infra/cache/memory.ts";
import { createRedisCache, type RedisCache } from "../infra/cache/redis.ts";
import { type CacheNamespace, cacheNamespace, type HotCache } from "../infra/cache/types.ts";
import { errorMessage } from "../infra/errors.ts";
import { stringifyJson } from "../infra/json.ts";
import type { Logger } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { openStore, type Store } from "../infra/store/client.ts";
import { readCursor, writeBatch } from "../infra/store/facts-writer.ts";
import { migrate } from "../infra/store/migrate.ts";
import { prepareRollups } from "../infra/store/rollups.ts";
import { runIngest } from "../ingest/loop.ts";
import type { Source } from "../ingest/source.ts";
import type { ProcessorCore } from "../processors/core/index.ts";
import { type ProcessorRun, runProcessor } from "../processors/run.ts";
import { endOfInput } from "../schemas/bus-control.ts";
import { type PoolStateRow, poolStates as poolStatesTable } from "../schemas/facts.ts";
import { mainnetChainStateOf } from "./chain-state.ts";
import type { Config } from "./config.ts";
import { toncenterClientOf } from "./mainnet.ts";
import { buildCore, type Pipeline, type PipelineResult, sourceOf } from "./pipeline.ts";

/** The raw-transactions topic has one partition: the processors' contract (processors/README.md). */
export const RAW_TOPIC_PARTITIONS = 1;
/** How often a `serve` replica reads the data version from Redis. */
export const DATA_VERSION_POLL_MS = 100;

export type Deps = { readonly logger: Logger; readonly metrics: Metrics };

/** The problems that stop a distributed command, all at once (`what` needs each named variable). */
export function requireVars(
  config: Config,
  what: string,
  vars: readonly ("KAFKA_BROKERS" | "CLICKHOUSE_URL")[],
) {
  const missing = vars.filter(
    (v) => (v === "KAFKA_BROKERS" ? config.kafkaBrokers : config.clickhouseUrl) === null,
  );
  return missing.map((v) => `${v} is required by ${what}`);
}

export function kafkaBusOf(config: Config, logger: Logger): Bus {
  return createKafkaBus({
    brokers: config.kafkaBrokers ?? [],
    partitions: RAW_TOPIC_PARTITIONS,
    clientId: "tondex",
    namePrefix: config.kafkaTopicPrefix,
    // A replica that stops heart-beating (SIGKILL, a lost host) hands the partition over after 10 s.
    sessionTimeoutMs: 10_000,
    logger,
  });
}

export async function openServerStore(config: Config): Promise<Store> {
  return openStore({
    clickhouseUrl: config.clickhouseUrl,
    dataDir: config.dataDir,
    clickhouseRequestTimeoutMs: config.clickhouseRequestTimeoutMs,
  });
}

export type SharedCache = {
  readonly cache: HotCache;
  readonly poolStates: CacheNamespace<PoolStateRow>;
  readonly dataVersion: DataVersion;
  close(): Promise<void>;
};

/**
 * The hot cache and the data version: Redis when REDIS_URL is set (shared by every replica), in-process
 * otherwise. Reads of pool states that fail (Redis down) count in `tondex_cache_errors_total` and answer
 * "not cached", so the API falls back to the store.
 */
export function sharedCacheOf(config: Config, deps: Deps): SharedCache {
  const { logger, metrics } = deps;
  let lastLogged = 0;
  const onError = (error: unknown) => {
    metrics.cacheErrors.inc();
    if (Date.now() - lastLogged > 10_000) {
      lastLogged = Date.now();
      logger.warn({ error: errorMessage(error) }, "Redis unavailable; falling back to the store");
    }
  };
  const redis: RedisCache | null =
    config.redisUrl === null
      ? null
      : createRedisCache({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, onError });
  const cache: HotCache = redis ?? createMemoryCache({ maxEntries: config.cacheMaxEntries });
  const namespace = cacheNamespace<PoolStateRow>(cache, {
    name: "pool_state",
    version: 1,
    ttlMs: config.cacheTtlSeconds * 1000,
    codec: { encode: (v) => stringifyJson(v), decode: (t) => poolStatesTable.schema.parse(JSON.parse(t)) },
  });
  const dataVersion =
    redis === null
      ? localDataVersion()
      : redisDataVersion(redis.client, { pollMs: DATA_VERSION_POLL_MS, onError });
  const poolStates: CacheNamespace<PoolStateRow> = {
    ...namespace,
    async get(id) {
      try {
        return await namespace.get(id);
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    async set(id, value) {
      await namespace.set(id, value);
      await dataVersion.bump();
    },
  };
  return {
    cache,
    poolStates,
    dataVersion,
    async close() {
      dataVersion.close();
      await redis?.close();
    },
  };
}

/** Get-method reads: the source's own (the devnet's), or toncenter's when TON_API_URL is set. */
export function chainStateOf(
  config: Config,
  source: Source | null,
  deps: Deps,
  cache: HotCache,
): ChainState | null {
  if (source?.chainState) return source.chainState;
  if (config.tonApiUrl === null) return null;
  return mainnetChainStateOf(config, toncenterClientOf(config, deps.metrics), cache, deps.logger);
}

/**
 * A core as a restart builds it (bin/pipeline.ts `buildCore`), after the rollups of what was written past
 * the stored cursor are refreshed (a replica may have died between its facts and its cursor).
 */
export async function coreFromStore(
  config: Config,
  deps: { store: Store; chainState: ChainState | null; source: Source; logger: Logger },
): Promise<ProcessorCore> {
  const { store, logger } = deps;
  const after = (await readCursor(store)).mcSeqno ?? 0;
  await prepareRollups(store, { after, log: (fields, message) => logger.info(fields, message) });
  const core = await buildCore(config, { ...deps, after });
  logger.info({ after }, "core built from the store");
  return core;
}

/** `tondex ingest`: the source's blocks after the stored cursor → Kafka; an end-of-input record after a finite source. */
export async function runIngestProcess(
  config: Config,
  deps: Deps & { store: Store; bus: Bus; source?: Source; signal: AbortSignal },
): Promise<{ blocks: number; transactions: number; lastMcSeqno: number; finished: boolean }> {
  const { store, bus, signal, logger, metrics } = deps;
  await migrate(store);
  const after = (await readCursor(store)).mcSeqno ?? 0;
  const source = deps.source ?? sourceOf(config, { logger, metrics });
  logger.info({ after, source: source.name }, "ingest starting");
  const result = await runIngest({
    source,
    bus,
    after,
    signal,
    onBlock: (b) => metrics.setSourceHead(Math.max(b.mc_seqno, source.head() ?? 0)),
  });
  const finished = !signal.aborted;
  if (finished) {
    await bus.produce(rawTransactionsTopic, [{ key: "end", value: endOfInput(result.lastMcSeqno) }]);
    logger.info(result, "source finished; end of input published");
  }
  return { ...result, finished };
}

/** `tondex process`: one replica of the processor group over Kafka; the core is built at every (re)assignment. */
export async function startProcessProcess(
  config: Config,
  deps: Deps & { store: Store; bus: Bus; shared: SharedCache; chainState: ChainState | null; source: Source },
): Promise<ProcessorRun> {
  const { store, bus, shared, chainState, source, logger, metrics } = deps;
  await migrate(store);
  // Built at start to fail fast; each assignment of the partition (the first one included: a standby may
  // wait long) rebuilds it from what the store holds then.
  const build = () => coreFromStore(config, { store, chainState, source, logger });
  const first = await build();
  return runProcessor({
    bus,
    core: first,
    rebuildCore: build,
    write: async (rows, position) => {
      await writeBatch(store, rows, position);
      await shared.dataVersion.bump();
    },
    poolStates: shared.poolStates,
    maxBatchRecords: config.batchMaxRecords,
    maxBatchMs: config.batchMaxMs,
    ctx: { logger, metrics },
  });
}

/**
 * `tondex start` with KAFKA_BROKERS or REDIS_URL set: the three roles in one process over the shared
 * servers (the bus is Kafka when KAFKA_BROKERS is set, else in-process; the store is the server when
 * CLICKHOUSE_URL is set, else embedded). `done` settles when ingest ends; the processor and the API keep
 * running until `stop()`.
 */
export async function startDistributedPipeline(config: Config, deps: Deps): Promise<Pipeline> {
  const { logger, metrics } = deps;
  const store = await openStore({
    clickhouseUrl: config.clickhouseUrl,
    dataDir: join(config.dataDir, "clickhouse"),
    clickhouseRequestTimeoutMs: config.clickhouseRequestTimeoutMs,
  });
  await migrate(store);
  const bus =
    config.kafkaBrokers !== null
      ? kafkaBusOf(config, logger)
      : createMemoryBus({ partitions: RAW_TOPIC_PARTITIONS, capacity: config.busCapacityRecords });
  const shared = sharedCacheOf(config, deps);
  const source = sourceOf(config, { logger, metrics });
  const chainState = chainStateOf(config, source, deps, shared.cache);
  const processor = await startProcessProcess(config, { ...deps, store, bus, shared, chainState, source });
  const abort = new AbortController();
  const done = (async (): Promise<PipelineResult> => {
    try {
      const ingest = await runIngestProcess(config, { ...deps, store, bus, source, signal: abort.signal });
      return {
        blocks: ingest.blocks,
        transactions: ingest.transactions,
        lastMcSeqno: ingest.lastMcSeqno,
        finished: ingest.finished,
      };
    } catch (error) {
      await processor.stop();
      throw error;
    }
  })();
  done.catch(() => {});
  return {
    store,
    source,
    chainState,
    poolStates: shared.poolStates,
    dataVersion: () => shared.dataVersion.current(),
    done,
    async stop() {
      abort.abort();
      await done.catch(() => undefined);
      await processor.stop();
      await bus.close();
      await shared.close();
    },
  };
}
