/**
 * Statistics, candles and TVL history over the bulk store (./bulk/store.ts: ≥ 10M swap legs, 1,200 pools,
 * 90 days), read from the rollups, beside a naive GROUP BY over the raw facts (`swaps FINAL`, `pool_states
 * FINAL`) answering the same question in the same run. The TVL routes price with the bulk world's anchors
 * (its USD₮-like jetton, TON and the routers' pTON masters), a point per hour over 24 h, per day over 30 d; a
 * pool's TVL history is the busiest priced pool's (the busiest pool of all may have no price). p50/p99 of
 * the handler's work (query functions and the DTO as JSON) for 24 h and 30-day windows, every sample a
 * different window (odd-second bounds, so the seconds rows and every coarser rollup level are read; then
 * again 30-day windows on whole days, as dashboards ask, which read no seconds row; and `/v1/stats/dex` over 30 days up to
 * the indexed head). `/v1/stats/dex`'s naive reads are all it answers (the totals, and every pool's last
 * state at `until` for its TVL); its totals are also measured alone against the naive totals. The swaps
 * carry USD as the processor prices them (./bulk/world.ts). Target: p50 < 50 ms and p99 < 200 ms at
 * 30 days, ≥ 10× faster than the naive query.
 * The DEX TVL is first kept at every hour as a server's keeper does at start (timed; api/queries/tvl-keeper.ts),
 * and the DEX TVL history is also measured computed at every boundary (the code before migration 020).
 *
 * The first open of a store written before the rollups' current columns backfills them (the progress
 * lines of `prepareRollups`); the time is reported, as is the opening (with the migrations the store has not
 * applied yet: their copies and mutations). The embedded engine takes one data path per process,
 * so the measurement runs in a child process. Run alone: `node --import tsx bench/analytics.ts`.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { z } from "zod";
import type { ApiDeps } from "../api/deps.ts";
import { ohlcvDto } from "../api/mappers/ohlcv.ts";
import { dexStatsDto, poolStatsListDto } from "../api/mappers/stats.ts";
import { dexTvlDto, poolTvlDto } from "../api/mappers/tvl.ts";
import { poolOhlcv } from "../api/queries/ohlcv.ts";
import { dexStats, feeStats, poolStats } from "../api/queries/stats.ts";
import { tvlHistory } from "../api/queries/tvl.ts";
import { keepDexTvlInBackground } from "../api/queries/tvl-keeper.ts";
import { cachedReadModel } from "../api/read-model-cached.ts";
import { ClickHouseReadModel } from "../api/read-model-clickhouse.ts";
import { ClickHouseStatsReadModel } from "../api/read-model-stats.ts";
import { SERVER_NODE_FLAGS } from "../bin/node-flags.ts";
import type { PricingConfig } from "../dex/pricing/index.ts";
import { stringifyJson } from "../infra/json.ts";
import type { Store } from "../infra/store/client.ts";
import { readCursor } from "../infra/store/facts-writer.ts";
import { prepareRollups } from "../infra/store/rollups.ts";
import { openBulkStore } from "./bulk/store.ts";
import { BULK_USD_SYMBOL, bulkPricing } from "./bulk/world.ts";
import { fmt } from "./harness.ts";

/** `first`: the route's first request in the process (its reads' caches cold; the catalogue already read). */
type Latency = { samples: number; p50: number; p99: number; first: number };
type RouteResult = { route: string; window: string; api: Latency; naive: Latency | null };
export type AnalyticsBench = {
  swaps: number;
  /** Computing and keeping the DEX TVL at every hour of the store not kept yet (`keepDexTvlInBackground`'s first step). */
  keepTvlSeconds: number;
  /** Opening the store, with the migrations it had not applied yet (their backfills included). */
  openSeconds: number;
  backfillSeconds: number | null;
  results: RouteResult[];
};

const DAY = 86_400;
const SAMPLES = 12;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] as number;
};

async function timed(windows: readonly [number, number][], run: (w: [number, number]) => Promise<unknown>) {
  const started = performance.now();
  await run(windows[0] as [number, number]);
  const first = performance.now() - started;
  const ms: number[] = [];
  for (const w of windows) {
    const start = performance.now();
    await run(w);
    ms.push(performance.now() - start);
  }
  return { samples: ms.length, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), first };
}

const NAIVE_DEX = `SELECT countIf(amount_out > 0) AS trades,
  uniqExactIf(coalesce(maker, route_sender, sender, ''), amount_out > 0) AS wallets,
  sumIf(amount_in, amount_out > 0) AS volume, sumIf(volume_usd, amount_out > 0) AS volume_usd
FROM swaps FINAL WHERE utime BETWEEN {since:UInt32} AND {until:UInt32} AND pool IS NOT NULL`;

/** Every pool's last state at `until`: what `/v1/stats/dex` prices for its TVL, from the state history. */
const NAIVE_STATES_AT = `SELECT pool, argMax((reserve0, reserve1), lt) AS reserves
FROM pool_states FINAL WHERE utime <= toDateTime({until:UInt32}, 'UTC') GROUP BY pool`;

const NAIVE_POOLS = `SELECT pool, countIf(amount_out > 0) AS trades,
  uniqExactIf(coalesce(maker, route_sender, sender, ''), amount_out > 0) AS wallets,
  sumIf(amount_in, amount_out > 0) AS volume_in, sumIf(amount_out, amount_out > 0) AS volume_out
FROM swaps FINAL WHERE utime BETWEEN {since:UInt32} AND {until:UInt32} AND pool IS NOT NULL GROUP BY pool`;

/** The list without each pool's distinct wallets: per-pool sums and the wallets of every pool together. */
const NAIVE_POOLS_LIST = `SELECT pool, countIf(amount_out > 0) AS trades,
  sumIf(amount_in, amount_out > 0) AS volume_in, sumIf(amount_out, amount_out > 0) AS volume_out,
  (SELECT uniqExactIf(coalesce(maker, route_sender, sender, ''), amount_out > 0) FROM swaps FINAL
   WHERE utime BETWEEN {since:UInt32} AND {until:UInt32} AND pool IS NOT NULL) AS all_wallets
FROM swaps FINAL WHERE utime BETWEEN {since:UInt32} AND {until:UInt32} AND pool IS NOT NULL GROUP BY pool`;

const NAIVE_CANDLES = `SELECT toStartOfHour(utime) AS t, argMin((amount_in, amount_out), (mc_seqno, lt, id)) AS o,
  argMax((amount_in, amount_out), (mc_seqno, lt, id)) AS c, max(toFloat64(amount_out) / toFloat64(amount_in)) AS h,
  min(toFloat64(amount_out) / toFloat64(amount_in)) AS l, sum(amount_out) AS v
FROM swaps FINAL WHERE pool = {pool:String} AND utime BETWEEN {since:UInt32} AND {until:UInt32} AND amount_out > 0
GROUP BY t ORDER BY t`;

/** Each pool's last reserves per step boundary up to `until`, from the state history (no rollup). */
const NAIVE_TVL = `SELECT pool,
  toUInt32(greatest(intDiv(toUInt32(utime) + {step:UInt32} - 1, {step:UInt32}) * {step:UInt32}, {since:UInt32})) AS p,
  argMax((reserve0, reserve1), lt) AS reserves
FROM pool_states FINAL WHERE utime <= toDateTime({until:UInt32}, 'UTC') GROUP BY pool, p`;

/** The bulk world's pricing (./bulk/world.ts `bulkPricing`), its anchors read back from the store. */
async function readBulkPricing(store: Store): Promise<PricingConfig> {
  const [usd] = await store.query(
    "SELECT address, decimals FROM assets FINAL WHERE symbol = {symbol:String} LIMIT 1",
    z.object({ address: z.string(), decimals: z.number() }),
    { symbol: BULK_USD_SYMBOL },
  );
  if (usd === undefined) throw new Error(`the bulk store has no ${BULK_USD_SYMBOL} asset: rebuild it`);
  const ptons = await store.query(
    "SELECT DISTINCT assumeNotNull(pton_master) AS a FROM routers FINAL WHERE pton_master IS NOT NULL",
    z.object({ a: z.string() }),
  );
  return bulkPricing(
    usd,
    ptons.map((p) => p.a),
  );
}

/**
 * `count` windows of `seconds` ending at different odd seconds before `end`, or (`wholeDays`) on whole days
 * ending at the last midnights before it, as a dashboard asks for days.
 */
function windows(end: number, seconds: number, count: number, wholeDays = false): [number, number][] {
  return Array.from({ length: count }, (_, i) => {
    const until = wholeDays ? Math.floor(end / DAY) * DAY - i * DAY - 1 : end - i * 7_919 - 37;
    return [until - seconds + 1, until] as [number, number];
  });
}

export async function measure(store: Store): Promise<{ results: RouteResult[]; keepTvlSeconds: number }> {
  const stats = new ClickHouseStatsReadModel(store);
  const [span] = await store.query(
    "SELECT toUInt32(max(utime)) AS end FROM swaps",
    z.object({ end: z.coerce.number() }),
  );
  const end = span?.end ?? 0;
  const deps = {
    // As bin/server.ts wires it: the reference data cached between batches. No batch is written during the
    // run, so the data version never changes (without one, the catalogue was read again after two minutes,
    // inside whichever request came then: seconds).
    data: cachedReadModel(new ClickHouseReadModel(store), { ttlMs: 60_000, version: () => 0 }),
    stats,
    pricing: await readBulkPricing(store),
    clock: () => end * 1000,
  } as unknown as ApiDeps;
  const busiest = await store.query(
    "SELECT pool FROM pool_rollup_1d FINAL GROUP BY pool ORDER BY sum(trades) DESC LIMIT 50",
    z.object({ pool: z.string() }),
  );
  const pool = busiest[0]?.pool ?? "";
  // The DEX TVL at every hour of the store kept, as a server's keeper does at start (those kept already are
  // only read): the histories below read kept points.
  const keeping = performance.now();
  const keeper = keepDexTvlInBackground(deps, { everyMs: 3_600_000 });
  await keeper.settled();
  await keeper.stop();
  const keepTvlSeconds = (performance.now() - keeping) / 1000;
  // A pool's TVL history: the busiest pool whose TVL has a value (the busiest of all may have no price).
  let tvlPool = pool;
  for (const { pool: p } of busiest) {
    const last = await tvlHistory(deps, { since: end - DAY, until: end, interval: "day", pool: p });
    if (last.points.some((x) => x.tvlUsd !== null)) {
      tvlPool = p;
      break;
    }
  }
  const naive =
    (sql: string, extra: Record<string, unknown> = {}) =>
    (w: [number, number]) =>
      store.query(sql, z.unknown(), { since: w[0], until: w[1], ...extra });
  // All `/v1/stats/dex` answers, read naively: the totals, then every pool's last state at `until`.
  const naiveDexStats = async (w: [number, number]) => {
    await naive(NAIVE_DEX)(w);
    await naive(NAIVE_STATES_AT)(w);
  };
  const out: RouteResult[] = [];
  for (const [label, seconds, wholeDays] of [
    ["24 h", DAY, false],
    ["30 d", 30 * DAY, false],
    ["30 d on whole days", 30 * DAY, true],
  ] as const) {
    const ws = windows(end, seconds, SAMPLES, wholeDays);
    const run = async (
      route: string,
      api: (w: [number, number]) => Promise<unknown>,
      base?: (w: [number, number]) => Promise<unknown>,
    ) => {
      out.push({
        route,
        window: label,
        api: await timed(ws, api),
        naive: base === undefined ? null : await timed(ws.slice(0, 4), base),
      });
    };
    // The route against the naive reads of all it answers (the totals, and the states its TVL prices);
    // its totals alone against the naive totals.
    await run(
      "/v1/stats/dex",
      async ([since, until]) => stringifyJson(dexStatsDto(await dexStats(deps, { since, until }))),
      naiveDexStats,
    );
    await run(
      "/v1/stats/dex, its totals alone (no TVL)",
      ([since, until]) => stats.dexTotals({ since, until }, null),
      naive(NAIVE_DEX),
    );
    await run(
      "/v1/stats/pool (all pools)",
      async ([since, until]) => stringifyJson(poolStatsListDto(await poolStats(deps, { since, until }))),
      naive(NAIVE_POOLS_LIST),
    );
    await run(
      "/v1/stats/pool (all pools, unique_wallets=true)",
      async ([since, until]) =>
        stringifyJson(poolStatsListDto(await poolStats(deps, { since, until, wallets: true }))),
      naive(NAIVE_POOLS),
    );
    await run(
      "/v1/stats/pool?pool_address",
      async ([since, until]) =>
        stringifyJson(poolStatsListDto(await poolStats(deps, { since, until, pool }))),
      naive(NAIVE_POOLS.replace("pool IS NOT NULL", "pool = {pool:String}"), { pool }),
    );
    await run("/v1/stats/fees", async ([since, until]) =>
      stringifyJson(await feeStats(deps, { since, until, referrer: pool })),
    );
    await run(
      "/v1/pools/{a}/ohlcv (hourly)",
      async ([, until]) =>
        stringifyJson(
          ohlcvDto(
            await poolOhlcv(deps, pool, {
              timeframe: "hour",
              before: until + 1,
              limit: Math.min(1000, seconds / 3600),
              currency: "token",
              token: "base",
            }),
          ),
        ),
      naive(NAIVE_CANDLES, { pool }),
    );
    // A point per hour over a day, per day over 30 days (the route's default span for days).
    const interval = seconds === DAY ? "hour" : "day";
    const step = interval === "hour" ? 3_600 : DAY;
    await run(
      `/v1/stats/tvl (${interval === "hour" ? "hourly" : "daily"})`,
      async ([since, until]) => stringifyJson(dexTvlDto(await tvlHistory(deps, { since, until, interval }))),
      naive(NAIVE_TVL, { step }),
    );
    // The same history computed from the states at every boundary (no kept points: the code before 020).
    const computed = { ...deps, stats: undefined } as ApiDeps;
    await run(
      `/v1/stats/tvl (${interval === "hour" ? "hourly" : "daily"}), computed`,
      async ([since, until]) =>
        stringifyJson(dexTvlDto(await tvlHistory(computed, { since, until, interval }))),
    );
    await run(
      `/v1/pools/{a}/tvl (${interval === "hour" ? "hourly" : "daily"})`,
      async ([since, until]) =>
        stringifyJson(poolTvlDto(tvlPool, await tvlHistory(deps, { since, until, interval, pool: tvlPool }))),
      naive(NAIVE_TVL, { step }),
    );
  }
  // As a dashboard asks for "the last 30 days": no `until`, so up to the indexed head, where the TVL prices
  // the pools' latest states the API holds (their records) instead of reading the state history; the
  // windows start at distinct odd seconds.
  const toHead = windows(end, 30 * DAY, SAMPLES).map(([since]) => [since, end] as [number, number]);
  out.push({
    route: "/v1/stats/dex",
    window: "30 d up to the indexed head",
    api: await timed(toHead, async ([since]) => stringifyJson(dexStatsDto(await dexStats(deps, { since })))),
    naive: await timed(toHead.slice(0, 4), naiveDexStats),
  });
  return { results: out, keepTvlSeconds };
}

async function child(): Promise<AnalyticsBench> {
  const opening = performance.now();
  const { store, meta, close } = await openBulkStore({
    ...(process.env.BULK_STORE_DIR ? { dir: process.env.BULK_STORE_DIR } : {}),
  });
  const openSeconds = (performance.now() - opening) / 1000;
  try {
    const started = performance.now();
    const after = (await readCursor(store)).mcSeqno;
    const prepared = await prepareRollups(store, {
      after,
      log: (_fields, message) => console.error(message),
    });
    const backfillSeconds = prepared.backfilled ? (performance.now() - started) / 1000 : null;
    return { swaps: meta.rows.swaps ?? 0, openSeconds, backfillSeconds, ...(await measure(store)) };
  } finally {
    await close();
  }
}

const self = fileURLToPath(import.meta.url);

export async function runAnalyticsBench(): Promise<AnalyticsBench> {
  // With the server's V8 flags (bin/node-flags.ts): the handlers measured run as they do in a server.
  const args = [...SERVER_NODE_FLAGS, "--import", "tsx", self, "--child"];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    maxBuffer: 1 << 20,
    env: process.env,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) as string) as AnalyticsBench;
}

export function printAnalyticsBench(b: AnalyticsBench): void {
  const ms = (l: Latency) => `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;
  const first = (l: Latency) => `first request ${l.first.toFixed(1)} ms`;
  console.log(
    `Statistics and candles over the bulk store (${fmt(b.swaps)} swap legs; opened and migrated in ${b.openSeconds.toFixed(0)} s; rollups${b.backfillSeconds === null ? " already built" : ` backfilled in ${b.backfillSeconds.toFixed(0)} s`}; the DEX TVL kept at every hour not kept yet in ${b.keepTvlSeconds.toFixed(1)} s)`,
  );
  for (const r of b.results) {
    const ratio = r.naive === null ? 0 : r.naive.p50 / r.api.p50;
    const speedup =
      r.naive === null
        ? ""
        : `, naive GROUP BY ${ms(r.naive)} (${ratio.toFixed(ratio < 10 ? 1 : 0)}× the route's p50)`;
    const target = r.window.startsWith("30 d")
      ? r.api.p50 < 50 && r.api.p99 < 200
        ? " [target met]"
        : " [target NOT met]"
      : "";
    console.log(`  ${r.route}, ${r.window}: ${ms(r.api)}${target}, ${first(r.api)}${speedup}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === self) {
  if (process.argv.includes("--child")) console.log(JSON.stringify(await child()));
  else printAnalyticsBench(await runAnalyticsBench());
}
