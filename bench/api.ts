/**
 * API throughput over loopback for the three simulations — `POST /v1/swap/simulate`,
 * `/v1/reverse_swap/simulate` and `/v1/liquidity_provision/simulate` — against the server `tondex start`
 * runs (bin/server.ts `startServer`: `apiListener` over the priced, cached ClickHouse read model of an
 * embedded pipeline's store, its hot pool-state cache, the devnet's ChainState and the response memo keyed
 * on the pipeline's data version, with `/metrics`), next to a bare `node:http` server answering the
 * same-size JSON body, measured in the same run with the same load.
 *
 * Per simulation:
 * - repeated: one request again and again (a UI re-quoting): answered from the response memo;
 * - distinct: every request different — swaps and reverse swaps over every traded pair of pools with
 *   reserves, both directions, without `pool_address` (every pool of the pair is simulated and the best
 *   wins), liquidity over every pool; the amount counts up so no request repeats and none can be answered
 *   from memory. This is what bots and wallets do, and the figure the targets apply to:
 *   distinct swap ≥ 0.35× bare, distinct reverse ≥ 0.25× bare, where bare is the bare server under the
 *   same distinct load. The load generator builds every distinct request anew (autocannon's
 *   `setupRequest`), which costs it more than repeating one; on two cores shared by the server and the
 *   load generator that caps the bare server at about 0.6 of its repeated figure. Both bare figures
 *   are printed;
 * - p99 latency of distinct requests at half of their measured maximum: target < 5 ms. Measured twice:
 *   paced (./paced.mjs: requests due evenly over time, latency counted from when each was due) — the
 *   figure the target applies to — and with autocannon's `overallRate`, which gives each connection a
 *   quota per second that it spends at full speed from the start of the second (full load for half of
 *   every second, and its latency histogram adds a 1 ms-spaced series below every slow answer), printed
 *   for comparison with earlier runs.
 *
 * The app runs in this process; the bare server (./bare.mjs) and the load generator (./load.mjs,
 * autocannon) each run in a child process of their own.
 *
 * The server runs under the V8 flags of the launchers (bin/node-flags.ts: a larger young generation) when
 * this process does: `npm run bench` passes them, and the header line says which flags it ran with.
 *
 * Run alone: `node --max-semi-space-size=64 --import tsx bench/api.ts`; bench/run.ts imports `runApiBench`.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { constants, monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getHeapSpaceStatistics } from "node:v8";
import { friendly } from "../api/mappers/common.ts";
import { isKnownPool, type KnownPoolRecord } from "../api/read-model.ts";
import { ClickHouseReadModel } from "../api/read-model-clickhouse.ts";
import { loadConfig } from "../bin/config.ts";
import { SERVER_NODE_FLAGS } from "../bin/node-flags.ts";
import { startPipeline } from "../bin/pipeline.ts";
import { startServer } from "../bin/server.ts";
import { applyLibraryPatches } from "../infra/library-patches/index.ts";
import { createLogger } from "../infra/log.ts";
import { createMetrics } from "../infra/metrics.ts";
import { createDevnetSource } from "../ingest/devnet/source.ts";
import { fmt } from "./harness.ts";

const CONNECTIONS = 32;
const SECONDS = 5;
const WARMUP_SECONDS = 2;
/** Offsets of the amounts: warm-up and half-load runs never repeat a measured request. */
const WARMUP_OFFSET = 10_000_000;
const HALF_OFFSET = 20_000_000;
const HALF_BURSTS_OFFSET = 30_000_000;

export type Kind = "swap" | "reverse" | "liquidity";
const ROUTES: Record<Kind, string> = {
  swap: "/v1/swap/simulate",
  reverse: "/v1/reverse_swap/simulate",
  liquidity: "/v1/liquidity_provision/simulate",
};
/** Targets of the distinct figure (ratio to bare); liquidity is measured and printed without one. */
const DISTINCT_TARGET: Partial<Record<Kind, number>> = { swap: 0.35, reverse: 0.25 };
const REPEATED_TARGET = 0.5;
const HALF_P99_TARGET_MS = 5;

/** What one autocannon run reports (the fields used here). */
export type Load = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Paced runs: p99 counted from when each request was due, the load generator's timer lateness included. */
  p99FromDueMs?: number;
  /** Paced runs: the load generator's own event-loop delay, longest (ms). */
  clientLoopMaxMs?: number;
  total: number;
  failed: number;
};

/** A request with `{n}` for its amount, and the amount it starts from. */
type Template = { path: string; from: bigint };

export type KindBench = {
  kind: Kind;
  route: string;
  bodyBytes: number;
  /** The machine's 1-minute load average before and after this simulation's runs (other processes count). */
  load: [number, number];
  /** Distinct request shapes (pair and direction, or pool) the distinct load rotates over. */
  templates: number;
  /** Shapes left out because their first request did not answer 200 (named in the output). */
  dropped: string[];
  bare: Load;
  /** The bare server under the distinct load: the same paths, the same load generator's work per request. */
  bareDistinct: Load;
  repeated: Load;
  distinct: Load;
  /** Distinct requests at half of `distinct.requestsPerSecond`, paced evenly. */
  half: Load & { rate: number };
  /** The same with autocannon's per-second quotas (`overallRate`). */
  halfBursts: Load;
  /** The server's collections during the paced half-load run: count and longest pause, young and full. */
  halfGc: GcPauses;
  /** Response-memo hits during the distinct runs: 0 means every one was computed. */
  distinctMemoHits: number;
  /**
   * The server's old generation grown per distinct request during the distinct run (bytes): what its
   * young collections promoted, all of it garbage later (the answers are not kept). null when a full
   * collection ran during the run (it frees some of it, so the difference says nothing).
   */
  distinctOldBytesPerRequest: number | null;
};

/** Bytes in use in this process's (the server's) old generation. */
const oldGeneration = () =>
  getHeapSpaceStatistics().find((x) => x.space_name === "old_space")?.space_used_size ?? 0;

export type ApiBench = {
  devnet: { blocks: number; transactions: number };
  pools: number;
  kinds: KindBench[];
};

const loadScript = fileURLToPath(new URL("./load.mjs", import.meta.url));
const bareScript = fileURLToPath(new URL("./bare.mjs", import.meta.url));

/** One load run in a child process (./load.mjs: autocannon with its own event loop and core). */
function cannon(
  url: string,
  seconds: number,
  options: { rate?: number; paced?: boolean; distinct?: { templates: Template[]; offset: number } } = {},
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
        ...(r.latencyFromDue === undefined ? {} : { p99FromDueMs: r.latencyFromDue.p99 }),
        ...(r.loopDelay === undefined ? {} : { clientLoopMaxMs: r.loopDelay.max }),
        total: r.requests.total,
        failed: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

/** The bare baseline in a child process of its own, answering `body`; resolves with its base URL. */
function bareServer(body: Buffer): Promise<{ base: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bareScript, body.toString("base64")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.on("error", reject);
    child.stdout.once("data", (chunk) => {
      resolve({ base: `http://127.0.0.1:${String(chunk).trim()}`, stop: () => child.kill() });
    });
  });
}

export type GcPauses = {
  young: number;
  youngMaxMs: number;
  full: number;
  fullMaxMs: number;
  /** The longest delay of this process's event loop (the server's), whatever its cause. */
  loopMaxMs: number;
  /**
   * The server's event-loop utilization (the share of time it ran code, not waiting for I/O): over the
   * run, in its busiest 100 ms, and how many 100 ms windows were ≥ 0.95 (saturated: requests queue).
   */
  utilization: { mean: number; max: number; saturatedWindows: number; windows: number };
};

/**
 * Counts this process's collections (the server's), its longest event-loop delay and its event-loop
 * utilization until `stop`.
 */
function gcPauses(): { stop(): GcPauses } {
  const seen: GcPauses = {
    young: 0,
    youngMaxMs: 0,
    full: 0,
    fullMaxMs: 0,
    loopMaxMs: 0,
    utilization: { mean: 0, max: 0, saturatedWindows: 0, windows: 0 },
  };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const first = performance.eventLoopUtilization();
  let last = first;
  const windows = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const u = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const w = seen.utilization;
    w.windows++;
    w.max = Math.max(w.max, u);
    if (u >= 0.95) w.saturatedWindows++;
  }, 100);
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      // detail.kind: 1 minor (scavenge); 2, 4, 8 major, incremental, weak callbacks.
      const minor =
        (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR;
      if (minor) {
        seen.young++;
        seen.youngMaxMs = Math.max(seen.youngMaxMs, e.duration);
      } else {
        seen.full++;
        seen.fullMaxMs = Math.max(seen.fullMaxMs, e.duration);
      }
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop: () => {
      observer.disconnect();
      loop.disable();
      seen.loopMaxMs = loop.max / 1e6;
      clearInterval(windows);
      seen.utilization.mean = performance.eventLoopUtilization(first).utilization;
      return seen;
    },
  };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A small trade: 1/100000 of a reserve (never zero), so every quote is well inside the pool. */
const small = (reserve: bigint) => reserve / 100_000n + 1n;

/**
 * The distinct request shapes of a simulation: swaps and reverse swaps per traded pair and direction (the
 * first pool of a pair gives the amounts), liquidity per pool (Balanced, token_a = token0).
 */
function templatesOf(kind: Kind, pools: readonly KnownPoolRecord[]): Template[] {
  const route = ROUTES[kind];
  if (kind === "liquidity") {
    return pools.map((p) => ({
      path:
        `${route}?provision_type=Balanced&pool_address=${friendly(p.address)}&token_a=${friendly(p.token0)}` +
        `&token_b=${friendly(p.token1)}&token_a_units={n}&slippage_tolerance=0.01`,
      from: small(p.state.reserve0),
    }));
  }
  const byPair = new Map<string, Template>();
  for (const p of pools) {
    for (const zeroToOne of [true, false]) {
      const [offer, ask] = zeroToOne ? [p.token0, p.token1] : [p.token1, p.token0];
      const key = `${offer}|${ask}`;
      if (byPair.has(key)) continue;
      const [offerReserve, askReserve] = zeroToOne
        ? [p.state.reserve0, p.state.reserve1]
        : [p.state.reserve1, p.state.reserve0];
      byPair.set(key, {
        path: `${route}?offer_address=${friendly(offer)}&ask_address=${friendly(ask)}&units={n}&slippage_tolerance=0.01`,
        from: small(kind === "swap" ? offerReserve : askReserve),
      });
    }
  }
  return [...byPair.values()];
}

const at = (t: Template, offset: number) => t.path.replace("{n}", `${t.from + BigInt(offset)}`);

export async function runApiBench(options: { blocks?: number; kinds?: Kind[] } = {}): Promise<ApiBench> {
  applyLibraryPatches(["parse", "build"]);
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
    const pools = (await new ClickHouseReadModel(pipeline.store).listPools())
      .filter(isKnownPool)
      .filter((p) => p.state.reserve0 > 0n && p.state.reserve1 > 0n);
    const metrics = createMetrics();
    const server = await startServer(pipeline, { ...config, port: 0 }, logger, metrics);
    server.keepAliveTimeout = 60_000;
    const tondex = { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    // Memo hits, as /metrics counts them.
    const hits = async () => {
      const m = (await metrics.registry.getMetricsAsJSON()).find(
        (x) => x.name === "tondex_api_memo_requests_total",
      );
      return Number(m?.values.find((v) => v.labels.outcome === "hit")?.value ?? 0);
    };
    const kinds: KindBench[] = [];
    try {
      for (const kind of options.kinds ?? (["swap", "reverse", "liquidity"] as const)) {
        const templates: Template[] = [];
        const dropped: string[] = [];
        let body: Buffer | undefined;
        for (const t of templatesOf(kind, pools)) {
          const res = await fetch(`${tondex.base}${at(t, 0)}`, { method: "POST" });
          const bytes = Buffer.from(await res.arrayBuffer());
          if (res.status !== 200) {
            dropped.push(`${at(t, 0)}: ${res.status} ${bytes}`);
            continue;
          }
          body ??= bytes;
          templates.push(t);
        }
        if (body === undefined || templates.length === 0) throw new Error(`${kind}: no request answered 200`);
        const loadBefore = loadavg()[0] ?? 0;
        const bare = await bareServer(body);
        try {
          const repeatedPath = at(templates[0]!, 0);
          await cannon(`${bare.base}${repeatedPath}`, WARMUP_SECONDS);
          const bareLoad = await cannon(`${bare.base}${repeatedPath}`, SECONDS);
          await cannon(bare.base, WARMUP_SECONDS, { distinct: { templates, offset: WARMUP_OFFSET } });
          const bareDistinct = await cannon(bare.base, SECONDS, { distinct: { templates, offset: 1 } });
          await cannon(`${tondex.base}${repeatedPath}`, WARMUP_SECONDS);
          const repeated = await cannon(`${tondex.base}${repeatedPath}`, SECONDS);
          await cannon(tondex.base, WARMUP_SECONDS, { distinct: { templates, offset: WARMUP_OFFSET } });
          const before = await hits();
          const distinctGc = gcPauses();
          const oldBefore = oldGeneration();
          const distinct = await cannon(tondex.base, SECONDS, { distinct: { templates, offset: 1 } });
          const oldGrown = oldGeneration() - oldBefore;
          const fullDuringDistinct = distinctGc.stop().full;
          const rate = Math.max(1, Math.floor(distinct.requestsPerSecond / 2));
          const gc = gcPauses();
          const half = await cannon(tondex.base, SECONDS, {
            rate,
            paced: true,
            distinct: { templates, offset: HALF_OFFSET },
          });
          const halfGc = gc.stop();
          const halfBursts = await cannon(tondex.base, SECONDS, {
            rate,
            distinct: { templates, offset: HALF_BURSTS_OFFSET },
          });
          kinds.push({
            kind,
            route: ROUTES[kind],
            bodyBytes: body.length,
            load: [loadBefore, loadavg()[0] ?? 0],
            templates: templates.length,
            dropped,
            bare: bareLoad,
            bareDistinct,
            repeated,
            distinct,
            half: { ...half, rate },
            halfBursts,
            halfGc,
            distinctMemoHits: (await hits()) - before,
            distinctOldBytesPerRequest:
              fullDuringDistinct > 0 ? null : Math.round(oldGrown / Math.max(1, distinct.total)),
          });
        } finally {
          bare.stop();
        }
      }
    } finally {
      await close(tondex.server);
    }
    return { devnet: { blocks: indexed.blocks, transactions: generated }, pools: pools.length, kinds };
  } finally {
    await pipeline.store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printApiBench(r: ApiBench): void {
  const line = (name: string, l: Load) =>
    `  ${name.padEnd(36)} ${fmt(l.requestsPerSecond).padStart(9)} req/s  p50 ${l.p50Ms} ms  p99 ${l.p99Ms} ms` +
    `  (${fmt(l.total)} requests, ${l.failed} failed)`;
  const verdict = (target: number | undefined, ok: boolean) =>
    target === undefined ? "" : `  target ${target} ${ok ? "meets" : "BELOW"}`;
  // The server runs in this process: under the launchers' V8 flags only when started with them.
  const flags = SERVER_NODE_FLAGS.filter((f) => process.execArgv.includes(f));
  console.log(
    `API over loopback (${CONNECTIONS} connections, ${SECONDS} s each; devnet ${r.devnet.blocks} blocks, ` +
      `${fmt(r.devnet.transactions)} tx, ${r.pools} pools with reserves; server V8 flags: ` +
      `${flags.length === SERVER_NODE_FLAGS.length ? flags.join(" ") : `not the launchers' (${SERVER_NODE_FLAGS.join(" ")}): run it with npm run bench`})`,
  );
  for (const k of r.kinds) {
    console.log(
      `POST ${k.route} (body ${k.bodyBytes} bytes; distinct over ${k.templates} request shapes; ` +
        `load average ${k.load[0].toFixed(2)} before, ${k.load[1].toFixed(2)} after)`,
    );
    for (const d of k.dropped) console.log(`  left out (not 200): ${d}`);
    console.log(line("baseline: bare node:http, same body", k.bare));
    const rep = k.repeated.requestsPerSecond / k.bare.requestsPerSecond;
    console.log(line("tondex, repeated request (memo)", k.repeated));
    console.log(`  ratio ${rep.toFixed(4)}${verdict(REPEATED_TARGET, rep >= REPEATED_TARGET)}`);
    const dis = k.distinct.requestsPerSecond / k.bareDistinct.requestsPerSecond;
    const target = DISTINCT_TARGET[k.kind];
    console.log(line("baseline: bare, every request distinct", k.bareDistinct));
    console.log(line("tondex, every request distinct", k.distinct));
    console.log(
      `  ratio ${dis.toFixed(4)}${verdict(target, target !== undefined && dis >= target)}` +
        `  (memo hits during the distinct runs: ${k.distinctMemoHits})`,
    );
    console.log(
      `  server old generation grown per distinct request: ${
        k.distinctOldBytesPerRequest === null
          ? "not measured (a full collection ran)"
          : `${k.distinctOldBytesPerRequest} bytes`
      }`,
    );
    console.log(line(`distinct at half load, paced (${fmt(k.half.rate)} req/s)`, k.half));
    console.log(
      `  server collections during the paced run: ${k.halfGc.young} young (longest ` +
        `${k.halfGc.youngMaxMs.toFixed(1)} ms), ${k.halfGc.full} other (longest ${k.halfGc.fullMaxMs.toFixed(1)} ms); ` +
        `longest event-loop delay: server ${k.halfGc.loopMaxMs.toFixed(1)} ms, load generator ${k.half.clientLoopMaxMs} ms`,
    );
    const u = k.halfGc.utilization;
    console.log(
      `  server event-loop utilization during the paced run: ${u.mean.toFixed(2)} mean, ${u.max.toFixed(2)} ` +
        `in its busiest 100 ms; saturated (≥ 0.95) in ${u.saturatedWindows} of ${u.windows} windows of 100 ms`,
    );
    console.log(line("the same, autocannon overallRate", k.halfBursts));
    console.log(
      `  p99 at half of the distinct max, paced: ${k.half.p99Ms} ms (from when due: ${k.half.p99FromDueMs} ms)` +
        verdict(HALF_P99_TARGET_MS, k.half.p99Ms < HALF_P99_TARGET_MS),
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const kinds = process.argv.slice(2).filter((a): a is Kind => a in ROUTES);
  printApiBench(await runApiBench(kinds.length > 0 ? { kinds } : {}));
}
