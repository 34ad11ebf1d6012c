/**
 * API throughput: `POST /v1/swap/simulate` requests per second over loopback, against the app serving
 * devnet data exactly as `tondex start` wires it (bin/server.ts: `apiListener` over the ClickHouse read
 * model of an embedded pipeline's store, its hot pool-state cache, the devnet's ChainState and the response
 * memo keyed on the pipeline's data version), next to a bare `node:http` server answering the same-size JSON
 * body, measured in the same run with the same load. Then the p99 latency of the app at half of its
 * measured maximum (`overallRate` = half the req/s).
 *
 * The request is the official client's `simulateSwap` for TON → dUSD without `pool_address` (three pools
 * of the pair are simulated and the best one wins), repeated as a quoting bot or a wallet UI repeats it.
 * Target: ratio ≥ 0.5.
 *
 * Also measured, the worst case: every request a different amount (`units` + i), so none can be answered
 * from the memo and each one runs the whole simulation.
 *
 * Both servers run in this process, one at a time; the load generator (./load.mjs, autocannon) runs in a
 * child process, so it does not share the servers' event loop.
 *
 * Run alone: `node --import tsx bench/api.ts`; bench/run.ts imports `runApiBench`.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { apiListener } from "../api/app.ts";
import { friendly, TON_RAW } from "../api/mappers/common.ts";
import { poolStateCache } from "../api/pool-state-cache.ts";
import { cachedReadModel } from "../api/read-model-cached.ts";
import { ClickHouseReadModel } from "../api/read-model-clickhouse.ts";
import { loadConfig } from "../bin/config.ts";
import { startPipeline } from "../bin/pipeline.ts";
import { createLogger } from "../infra/log.ts";
import { createMetrics } from "../infra/metrics.ts";
import { useNativeSha256 } from "../ingest/devnet/chain/native-sha256.ts";
import { createDevnetSource } from "../ingest/devnet/source.ts";
import { fmt } from "./harness.ts";

const TARGET_RATIO = 0.5;
const CONNECTIONS = 32;
const SECONDS = 5;
const WARMUP_SECONDS = 2;
/** 25 TON, the request's amount; the distinct requests count up from it. */
const UNITS = 25_000_000_000n;

/** What one autocannon run reports (the fields used here). */
export type Load = { requestsPerSecond: number; p50Ms: number; p99Ms: number; total: number; failed: number };

export type ApiBench = {
  path: string;
  bodyBytes: number;
  devnet: { blocks: number; transactions: number };
  tondex: Load;
  bare: Load;
  /** The app under `overallRate` = half of `tondex.requestsPerSecond`. */
  half: Load & { rate: number };
  /** The app when every request is a different amount: each one is simulated (memo misses). */
  distinct: Load;
  /** The response memo's counters over the whole run. */
  memo: { hits: number; misses: number };
};

const loadScript = fileURLToPath(new URL("./load.mjs", import.meta.url));

/**
 * One load run in a child process (./load.mjs: autocannon with its own event loop and core). With
 * `distinct`, every request is the template with `{n}` counting up from `from`, so none repeats.
 */
function cannon(
  url: string,
  seconds: number,
  options: { rate?: number; distinct?: { template: string; from: bigint } } = {},
): Promise<Load> {
  const args = [
    loadScript,
    JSON.stringify({ url, method: "POST", connections: CONNECTIONS, seconds, ...options }, (_, v) =>
      typeof v === "bigint" ? v.toString() : v,
    ),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      const r = JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
      resolve({
        requestsPerSecond: r.requests.total / (r.duration || seconds),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        total: r.requests.total,
        failed: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

async function listen(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function runApiBench(options: { blocks?: number } = {}): Promise<ApiBench> {
  useNativeSha256();
  const dir = await mkdtemp(join(tmpdir(), "tondex-bench-api-"));
  let generated = 0;
  const source = createDevnetSource({
    seed: 1,
    actionsPerBlock: 24,
    intervalMs: 0,
    maxBlocks: options.blocks ?? 30,
    drain: true,
    onBlock: (b) => {
      generated += b.transactions.length;
    },
  });
  const logger = createLogger({ level: "silent" });
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", BATCH_MAX_RECORDS: "5000" }, []);
  const pipeline = await startPipeline(config, { logger, metrics: createMetrics(), source });
  try {
    const indexed = await pipeline.done;
    // As `tondex start` wires it (bin/server.ts): reference lists reused for API_CACHE_TTL_MS.
    const data = cachedReadModel(new ClickHouseReadModel(pipeline.store), {
      ttlMs: config.apiCacheTtlMs,
      version: pipeline.dataVersion,
    });
    const { listener, memo } = apiListener({
      data,
      cache: poolStateCache(pipeline.poolStates),
      chain: source.devnet.state,
      clock: Date.now,
      logger,
      responseMemo: { version: pipeline.dataVersion, ttlMs: config.apiCacheTtlMs },
    });
    const dUsd = source.devnet.actions.master("dUSD").toString({ bounceable: true, urlSafe: true });
    const request = (units: bigint) =>
      `/v1/swap/simulate?offer_address=${friendly(TON_RAW)}&ask_address=${dUsd}&units=${units}&slippage_tolerance=0.01`;
    const path = request(UNITS);
    const tondex = await listen(listener);
    const sample = await fetch(`${tondex.base}${path}`, { method: "POST" });
    const body = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== 200) throw new Error(`the simulation failed: ${sample.status} ${body}`);
    const bare = await listen((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, {
          "content-type": "application/json; charset=utf-8",
          "content-length": body.length,
        });
        res.end(body);
      });
    });
    try {
      await cannon(`${tondex.base}${path}`, WARMUP_SECONDS);
      const app1 = await cannon(`${tondex.base}${path}`, SECONDS);
      await cannon(`${bare.base}${path}`, WARMUP_SECONDS);
      const bare1 = await cannon(`${bare.base}${path}`, SECONDS);
      const rate = Math.max(1, Math.floor(app1.requestsPerSecond / 2));
      const half = await cannon(`${tondex.base}${path}`, SECONDS, { rate });
      // Amounts above every earlier request's, and the warm-up's above the measured run's.
      const template = path.replace(`units=${UNITS}`, "units={n}");
      await cannon(tondex.base, WARMUP_SECONDS, { distinct: { template, from: 2n * UNITS } });
      const distinct = await cannon(tondex.base, SECONDS, { distinct: { template, from: UNITS + 1n } });
      return {
        path,
        bodyBytes: body.length,
        devnet: { blocks: indexed.blocks, transactions: generated },
        tondex: app1,
        bare: bare1,
        half: { ...half, rate },
        distinct,
        memo: memo === undefined ? { hits: 0, misses: 0 } : memo.stats(),
      };
    } finally {
      await close(tondex.server);
      await close(bare.server);
    }
  } finally {
    await pipeline.store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printApiBench(r: ApiBench): void {
  const ratio = r.tondex.requestsPerSecond / r.bare.requestsPerSecond;
  const line = (name: string, l: Load) =>
    `  ${name.padEnd(34)} ${fmt(l.requestsPerSecond).padStart(9)} req/s  p50 ${l.p50Ms} ms  p99 ${l.p99Ms} ms` +
    `  (${fmt(l.total)} requests, ${l.failed} failed)`;
  console.log(
    `API: POST /v1/swap/simulate over loopback (${CONNECTIONS} connections, ${SECONDS} s each; ` +
      `devnet ${r.devnet.blocks} blocks, ${fmt(r.devnet.transactions)} tx; body ${r.bodyBytes} bytes)`,
  );
  console.log(line("baseline: bare node:http, same body", r.bare));
  console.log(line("tondex (as tondex start serves it)", r.tondex));
  console.log(
    `  ratio ${ratio.toFixed(4)}  target ${TARGET_RATIO} ${ratio >= TARGET_RATIO ? "meets" : "BELOW"}`,
  );
  console.log(line(`tondex at half load (${fmt(r.half.rate)} req/s)`, r.half));
  console.log(`  p99 latency at half of the measured max: ${r.half.p99Ms} ms`);
  const distinctRatio = r.distinct.requestsPerSecond / r.bare.requestsPerSecond;
  console.log(line("tondex, every request distinct", r.distinct));
  console.log(`  ratio ${distinctRatio.toFixed(4)} (worst case: each request simulated, none from the memo)`);
  console.log(`  response memo over the run: ${fmt(r.memo.hits)} hits, ${fmt(r.memo.misses)} misses`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printApiBench(await runApiBench());
}
