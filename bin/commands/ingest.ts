/**
 * `tondex ingest`: the source's blocks (after the stored cursor) → Kafka's raw-transactions topic. Needs
 * KAFKA_BROKERS and CLICKHOUSE_URL (the cursor it resumes after). A finite source (a replay, a devnet run
 * with DEVNET_BLOCKS) ends with an end-of-input record and exit 0; SIGINT/SIGTERM stop after the block in
 * flight. The processors (`tondex process`) and the API (`tondex serve`) run as their own processes.
 */
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { kafkaBusOf, openServerStore, requireVars, runIngestProcess } from "../distributed.ts";
import type { CliIo } from "../io.ts";
import { commandConfig } from "./distributed-config.ts";

export async function run(args: string[], io: CliIo): Promise<number> {
  const config = commandConfig("ingest", args, io, (c) =>
    requireVars(c, "tondex ingest", ["KAFKA_BROKERS", "CLICKHOUSE_URL"]),
  );
  if (typeof config === "number") return config;
  const logger = createLogger({ level: config.logLevel, name: "tondex-ingest" });
  const metrics = createMetrics({ defaultMetrics: true });
  applyLibraryPatches(
    config.libraryPatches === "on" ? (config.source === "devnet" ? ["parse", "build"] : ["parse"]) : [],
    logger,
  );
  const store = await openServerStore(config);
  const bus = kafkaBusOf(config, logger);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const result = await runIngestProcess(config, { logger, metrics, store, bus, signal: abort.signal });
    logger.info(result, result.finished ? "ingest finished" : "ingest stopped");
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await bus.close();
    await store.close();
  }
}
