/**
 * `tondex start [--flag value ...]`: the whole service in one process (the embedded default): source
 * (devnet unless SOURCE says otherwise) → in-process bus → processors → ClickHouse (embedded chdb under
 * DATA_DIR unless CLICKHOUSE_URL is set) → REST API and /metrics on PORT. SIGINT/SIGTERM stop it
 * gracefully; the next start resumes from the stored cursor. Settings: bin/config.ts (`--help`).
 */
import { ConfigError } from "../../infra/errors.ts";
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { configHelp, loadConfig } from "../config.ts";
import { startDistributedPipeline } from "../distributed.ts";
import type { CliIo } from "../io.ts";
import { startPipeline } from "../pipeline.ts";
import { type ApiServer, KEEP_DEX_TVL_EVERY_MS, startServer } from "../server.ts";

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(`usage: tondex start [--option value ...]\n\n${configHelp()}\n`);
    return 0;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, args);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`tondex start: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, name: "tondex" });
  const metrics = createMetrics({ defaultMetrics: true, dataDir: config.dataDir });
  // The processors parse every source's BOCs; only the devnet builds and hashes cells.
  const patches = config.source === "devnet" ? (["parse", "build"] as const) : (["parse"] as const);
  applyLibraryPatches(config.libraryPatches === "on" ? patches : [], logger);
  // KAFKA_BROKERS or REDIS_URL: the distributed roles in this one process (bin/distributed.ts); otherwise
  // the embedded pipeline (over a ClickHouse server when CLICKHOUSE_URL is set).
  const pipeline =
    config.kafkaBrokers !== null || config.redisUrl !== null
      ? await startDistributedPipeline(config, { logger, metrics })
      : await startPipeline(config, { logger, metrics });
  let server: ApiServer;
  try {
    server = await startServer(
      pipeline,
      { ...config, keepDexTvlEveryMs: KEEP_DEX_TVL_EVERY_MS },
      logger,
      metrics,
    );
  } catch (error) {
    await pipeline.stop();
    await pipeline.store.close();
    io.stderr(`tondex start: ${(error as Error).message}\n`);
    return 1;
  }
  logger.info({ port: config.port, source: config.source, dataDir: config.dataDir }, "tondex is serving");
  pipeline.done.then(
    (r) => logger.info(r, r.finished ? "source finished; the API keeps serving" : "pipeline stopped"),
    (error: unknown) => logger.error({ err: error }, "pipeline failed"),
  );
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    pipeline.done.catch(() => resolve("pipeline failure"));
  });
  logger.info({ signal }, "stopping");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await server.stopBackground();
  await pipeline.stop();
  const failed = await pipeline.done.then(
    () => false,
    () => true,
  );
  await pipeline.store.close();
  return failed ? 1 : 0;
}
