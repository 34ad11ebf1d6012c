/**
 * The HTTP side of `tondex start`: the Koa API over the ClickHouse read model, plus Prometheus `/metrics`.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { Counter } from "prom-client";
import { type ApiDeps, apiListener } from "../api/app.ts";
import { type AssetList, parseAssetList, withAssetList } from "../api/asset-list.ts";
import { handleClientError } from "../api/errors.ts";
import { poolStateCache } from "../api/pool-state-cache.ts";
import { keepDexTvlInBackground } from "../api/queries/tvl-keeper.ts";
import { cachedReadModel } from "../api/read-model-cached.ts";
import { ClickHouseReadModel } from "../api/read-model-clickhouse.ts";
import { pricedReadModel } from "../api/read-model-priced.ts";
import { ClickHouseStatsReadModel } from "../api/read-model-stats.ts";
import type { ResponseMemoStats } from "../api/response-memo.ts";
import { unavailableChainState } from "../dex/chain-state-unavailable.ts";
import type { Logger } from "../infra/log.ts";
import { type Metrics, renderMetrics } from "../infra/metrics.ts";
import type { Config } from "./config.ts";
import type { Pipeline } from "./pipeline.ts";
import { pricingConfigOf } from "./pricing.ts";

export async function startServer(
  pipeline: Pipeline,
  options: {
    port: number;
    apiCacheTtlMs: number;
    txQueryWindowSeconds: number;
    assetListPath: string | null;
    corsOrigins: "*" | readonly string[];
    compressMinBytes: number;
    /**
     * Keep the DEX TVL at every hour of the indexed history ahead of the requests, checking every this many
     * ms (api/queries/tvl-keeper.ts); absent: requests compute the hours nobody asked for before.
     */
    keepDexTvlEveryMs?: number;
  } & Pick<Config, "source" | "pricingUsdAnchors" | "pricingMinDepthUsd" | "pricingTonPoolMinDepthUsd">,
  logger: Logger,
  metrics: Metrics,
): Promise<ApiServer> {
  const { port } = options;
  const chain =
    pipeline.chainState ?? unavailableChainState(`the ${pipeline.source.name} source has no chain access`);
  const assetList = await loadAssetList(options.assetListPath);
  const pricing = pricingConfigOf(options);
  const deps = {
    // USD fields outermost: they need the asset list's decimals (api/README.md "Pricing").
    data: pricedReadModel(
      withAssetList(
        cachedReadModel(new ClickHouseReadModel(pipeline.store), {
          ttlMs: options.apiCacheTtlMs,
          version: pipeline.dataVersion,
        }),
        assetList,
      ),
      { pricing, version: pipeline.dataVersion, ttlMs: options.apiCacheTtlMs },
    ),
    cache: poolStateCache(pipeline.poolStates),
    pricing,
    chain,
    stats: new ClickHouseStatsReadModel(pipeline.store),
    clock: Date.now,
    txQueryWindowS: options.txQueryWindowSeconds,
    logger,
    responseMemo: { version: pipeline.dataVersion, ttlMs: options.apiCacheTtlMs },
    http: { corsOrigins: options.corsOrigins, compressMinBytes: options.compressMinBytes },
  } satisfies ApiDeps;
  const { listener: api, memo } = apiListener(deps);
  if (memo !== undefined) countMemo(metrics, () => memo.stats());
  const server = createServer((req, res) => {
    if (req.url === "/metrics" && req.method === "GET") {
      renderMetrics(metrics).then(
        ({ contentType, body }) => {
          res.writeHead(200, { "content-type": contentType });
          res.end(body);
        },
        (error: unknown) => {
          logger.error({ err: error }, "metrics rendering failed");
          res.writeHead(500).end();
        },
      );
      return;
    }
    api(req, res);
  });
  server.on("clientError", handleClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e) => reject(new Error(`cannot listen on port ${port}: ${e.message}`)));
    server.listen(port, () => resolve());
  });
  const keeper =
    options.keepDexTvlEveryMs === undefined
      ? null
      : keepDexTvlInBackground(deps, { everyMs: options.keepDexTvlEveryMs });
  return Object.assign(server, { stopBackground: async () => keeper?.stop() });
}

/** How often `tondex start` and `tondex serve` look for new hours to keep the DEX TVL of. */
export const KEEP_DEX_TVL_EVERY_MS = 60_000;

/** The HTTP server, and the work it does in the background (stopped before the store is closed). */
export type ApiServer = Server & { stopBackground(): Promise<void> };

/** ASSET_LIST_PATH's list, or an empty one; a missing or malformed file stops the start with its reason. */
async function loadAssetList(path: string | null): Promise<AssetList> {
  if (path === null) return new Map();
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`ASSET_LIST_PATH: cannot read ${path}: ${(error as Error).message}`);
  }
  return parseAssetList(text, `ASSET_LIST_PATH ${path}`);
}

/** `tondex_api_memo_requests_total{outcome}`: memoizable requests answered from memory, shared or computed. */
function countMemo(metrics: Metrics, stats: () => ResponseMemoStats): void {
  const reported = { hit: 0, shared: 0, miss: 0 };
  new Counter({
    name: "tondex_api_memo_requests_total",
    help: "Requests to memoizable routes: hit (answered from memory), shared (waited for an identical one), miss (computed)",
    labelNames: ["outcome"] as const,
    registers: [metrics.registry],
    collect() {
      const now = stats();
      const current = { hit: now.hits, shared: now.shared, miss: now.misses };
      for (const outcome of ["hit", "shared", "miss"] as const) {
        this.inc({ outcome }, current[outcome] - reported[outcome]);
        reported[outcome] = current[outcome];
      }
    },
  });
}
