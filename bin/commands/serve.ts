/**
 * `tondex serve`: one API replica (REST API and /metrics on PORT) over the ClickHouse server
 * (CLICKHOUSE_URL, required), quoting from the pool states the processors keep in Redis (REDIS_URL) and
 * memoizing on the data version kept there, so every replica answers from the same state and a commit
 * invalidates every replica's memo. Redis down: pool states come from ClickHouse (counted in
 * tondex_cache_errors_total) and nothing is memoized until it is back. Chain-state reads go to toncenter
 * when TON_API_URL is set (the devnet's chain lives in `tondex ingest`; without it those routes answer 503).
 */
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { chainStateOf, openServerStore, requireVars, sharedCacheOf } from "../distributed.ts";
import type { CliIo } from "../io.ts";
import { type ApiServer, KEEP_DEX_TVL_EVERY_MS, startServer } from "../server.ts";
import { commandConfig } from "./distributed-config.ts";

export async function run(args: string[], io: CliIo): Promise<number> {
  const config = commandConfig("serve", args, io, (c) => requireVars(c, "tondex serve", ["CLICKHOUSE_URL"]));
  if (typeof config === "number") return config;
  const logger = createLogger({ level: config.logLevel, name: "tondex-serve" });
  const metrics = createMetrics({ defaultMetrics: true });
  const store = await openServerStore(config);
  const shared = sharedCacheOf(config, { logger, metrics });
  const chainState = chainStateOf(config, null, { logger, metrics }, shared.cache);
  let server: ApiServer;
  try {
    server = await startServer(
      {
        store,
        source: { name: config.source, blocks: async function* () {}, head: () => null, chainState: null },
        chainState,
        poolStates: shared.poolStates,
        dataVersion: () => shared.dataVersion.current(),
        done: Promise.resolve({ blocks: 0, transactions: 0, lastMcSeqno: 0, finished: true }),
        stop: async () => {},
      },
      { ...config, keepDexTvlEveryMs: KEEP_DEX_TVL_EVERY_MS },
      logger,
      metrics,
    );
  } catch (error) {
    await shared.close();
    await store.close();
    io.stderr(`tondex serve: ${(error as Error).message}\n`);
    return 1;
  }
  logger.info({ port: config.port }, "tondex API replica serving");
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  logger.info({ signal }, "stopping");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await server.stopBackground();
  await shared.close();
  await store.close();
  return 0;
}
