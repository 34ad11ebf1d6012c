/**
 * Mainnet backfill throughput against the local toncenter v3 stand-in (test/helpers/toncenter/blocks.ts)
 * with 100 ms of latency on every answer and a server-side limit of 10 requests/s (429 with the real body
 * beyond it): `tondex backfill` (a child process, embedded store, the default MAINNET_CONCURRENCY and
 * STON.fi filter) over 200 masterchain blocks from the first recorded trace, with TON_API_RPS=10.
 * Target: ≥ 90% of the limit in answered requests/s, measured from the first to the last request the
 * stand-in saw (the child's start-up excluded); blocks/s is what that rate gives.
 *
 * The baselines, one block at a time, show what concurrency adds: little while the latency is within the
 * limit's interval (100 ms each), but at 300 ms one block at a time stays near 3 requests/s.
 *
 * Run alone: `node --import tsx bench/mainnet.ts`; bench/run.ts imports `runMainnetBench`.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { SERVER_NODE_FLAGS } from "../bin/node-flags.ts";
import { startStandin } from "../test/helpers/toncenter/blocks.ts";
import { loadAllTraces } from "../test/helpers/traces.ts";

const exec = promisify(execFile);
const TONDEX = join(import.meta.dirname, "../bin/tondex.mjs");

export type MainnetBenchResult = {
  latencyMs: number;
  concurrency: number | null;
  blocks: number;
  requests: number;
  rateLimited: number;
  seconds: number;
  requestsPerSecond: number;
  blocksPerSecond: number;
  limit: number;
  share: number;
  ok: boolean;
};

const LIMIT = 10;
const LATENCY_MS = 100;
const SLOW_LATENCY_MS = 300;
const BLOCKS = 200;

/** One backfill; `concurrency` unset: the configured default (MAINNET_CONCURRENCY). */
export async function runMainnetBackfill(
  latencyMs: number,
  concurrency?: number,
): Promise<MainnetBenchResult> {
  const traces = loadAllTraces();
  const first = Math.min(...traces.map((t) => (t.file.trace as { mc_seqno_start: number }).mc_seqno_start));
  const times: number[] = [];
  const standin = await startStandin({
    traces: traces.map((t) => t.file),
    head: first + BLOCKS + 10,
    latencyMs,
    requestsPerSecond: LIMIT,
    faults: () => {
      times.push(performance.now());
      return null;
    },
  });
  const dir = await mkdtemp(join(tmpdir(), "tondex-bench-mainnet-"));
  try {
    await exec(
      process.execPath,
      // As the launchers start it (bin/node-flags.ts).
      [...SERVER_NODE_FLAGS, TONDEX, "backfill", "--from", String(first), "--to", String(first + BLOCKS - 1)],
      {
        env: {
          ...process.env,
          TON_API_URL: standin.url,
          TON_API_RPS: String(LIMIT),
          DATA_DIR: join(dir, "data"),
          LOG_LEVEL: "warn",
          ...(concurrency === undefined ? {} : { MAINNET_CONCURRENCY: String(concurrency) }),
        },
      },
    );
  } finally {
    await standin.close();
    await rm(dir, { recursive: true, force: true });
  }
  const rateLimited = standin.stats.faults.get("rate_limited") ?? 0;
  const answered = standin.stats.requests - rateLimited;
  // n requests span n-1 intervals of the limit.
  const seconds = (times.at(-1)! - times[0]!) / 1000;
  const requestsPerSecond = (times.length - 1) / seconds;
  const share = requestsPerSecond / LIMIT;
  return {
    latencyMs,
    concurrency: concurrency ?? null,
    blocks: BLOCKS,
    requests: answered,
    rateLimited,
    seconds,
    requestsPerSecond,
    blocksPerSecond: BLOCKS / seconds,
    limit: LIMIT,
    share,
    // A refusal (arrival jitter at the server) costs a retry; the rate counts answered requests only.
    ok: share >= 0.9,
  };
}

/**
 * The target case (100 ms, default concurrency) and one block at a time beside it; then a slower API
 * (300 ms, about what the public one answers in) where one block at a time cannot fill the limit.
 */
export async function runMainnetBench(): Promise<MainnetBenchResult[]> {
  return [
    await runMainnetBackfill(LATENCY_MS),
    await runMainnetBackfill(LATENCY_MS, 1),
    await runMainnetBackfill(SLOW_LATENCY_MS),
    await runMainnetBackfill(SLOW_LATENCY_MS, 1),
  ];
}

export function printMainnetBench(results: readonly MainnetBenchResult[]): void {
  for (const r of results) {
    const label = r.concurrency === null ? "default concurrency" : `concurrency ${r.concurrency} (baseline)`;
    console.log(
      `mainnet backfill vs stand-in (${r.latencyMs} ms latency, limit ${r.limit} req/s, ${label}): ` +
        `${r.requestsPerSecond.toFixed(2)} req/s (${(r.share * 100).toFixed(1)}% of the limit), ` +
        `${r.blocksPerSecond.toFixed(2)} blocks/s; ${r.requests} requests answered, ${r.rateLimited} refused (429), ` +
        `${r.blocks} blocks in ${r.seconds.toFixed(1)} s` +
        (r.concurrency === null && r.latencyMs === LATENCY_MS
          ? ` — target ≥ 90%: ${r.ok ? "OK" : "BELOW TARGET"}`
          : ""),
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printMainnetBench(await runMainnetBench());
}
