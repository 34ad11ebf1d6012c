/**
 * `tondex process`: one processor replica. Kafka's raw-transactions topic → core → ClickHouse (facts and
 * cursor, then the offset is committed) → Redis (pool states, data version). Run N of them with the same
 * settings: they form one consumer group; one reads the partition, the others take over when it stops or
 * dies (processors/README.md "Partitioning contract"). Needs KAFKA_BROKERS and CLICKHOUSE_URL; REDIS_URL
 * for the API replicas to quote from. `GET /metrics` on METRICS_PORT (consumer lag, batches, facts written,
 * failures). SIGINT/SIGTERM stop after the batch in flight.
 */
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics, serveMetrics } from "../../infra/metrics.ts";
import {
  chainStateOf,
  kafkaBusOf,
  openServerStore,
  requireVars,
  sharedCacheOf,
  startProcessProcess,
} from "../distributed.ts";
import type { CliIo } from "../io.ts";
import { sourceOf } from "../pipeline.ts";
import { commandConfig } from "./distributed-config.ts";

export async function run(args: string[], io: CliIo): Promise<number> {
  const config = commandConfig("process", args, io, (c) =>
    requireVars(c, "tondex process", ["KAFKA_BROKERS", "CLICKHOUSE_URL"]),
  );
  if (typeof config === "number") return config;
  const logger = createLogger({ level: config.logLevel, name: "tondex-process" });
  const metrics = createMetrics({ defaultMetrics: true });
  applyLibraryPatches(config.libraryPatches === "on" ? ["parse"] : [], logger);
  const store = await openServerStore(config);
  const bus = kafkaBusOf(config, logger);
  const shared = sharedCacheOf(config, { logger, metrics });
  // The source is not read here: it gives the chain-state reads (the devnet's, or toncenter's) and the
  // devnet's world (pricing anchors), as in one process.
  const source = sourceOf(config, { logger, metrics });
  const chainState = chainStateOf(config, source, { logger, metrics }, shared.cache);
  const processor = await startProcessProcess(config, {
    logger,
    metrics,
    store,
    bus,
    shared,
    chainState,
    source,
  });
  const metricsServer = await serveMetrics(metrics, config.metricsPort);
  logger.info({ group: "tondex.processor", metricsPort: metricsServer.port }, "processor replica running");
  const reason = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    processor.done.then(
      () => resolve("done"),
      () => resolve("failure"),
    );
  });
  logger.info({ reason }, "stopping");
  await processor.stop();
  const failed = await processor.done.then(
    () => false,
    (error: unknown) => {
      logger.error({ err: error }, "processor failed");
      return true;
    },
  );
  await metricsServer.close();
  await bus.close();
  await shared.close();
  await store.close();
  return failed ? 1 : 0;
}
