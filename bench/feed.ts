/**
 * The export feed's `/events` over the bulk store (./bulk/store.ts: ≥ 10M swap legs, 90 days): ranges of
 * 1,000 and 10,000 masterchain blocks, p50/p99 of the handler's work (`eventsOf` over the server's read
 * model, whose pool and asset lists are loaded as in a running server: head, the feed query, mapping, and
 * the JSON body as Koa writes it), beside the raw-facts scan of the same ranges measured in the same run (the
 * operation rows of the range from the tables the feed reads, `FINAL`, without joins or mapping: the floor
 * any answer pays), and the lookup path of rows written before migration 008 (`{ stored: false }`:
 * pool_states per event and a walk up every trace) over the 1,000-block ranges. Target: p50 < 100 ms for
 * 1,000 blocks.
 *
 * The ranges lie in the store's last 20,000 blocks, where it also holds the trace log, so the lookup path
 * walks real traces; every range is different (no answer repeats), after one warm-up query. The embedded
 * engine takes one data path per process, so the measurement runs in a child process.
 *
 * Run alone: `node --import tsx bench/feed.ts`; bench/run.ts imports `runFeedBench`. The first run builds
 * the bulk store (tens of minutes); later runs reuse it. BULK_STORE_DIR picks another store directory.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { z } from "zod";
import type { ApiDeps } from "../api/deps.ts";
import { eventsOf } from "../api/queries/dexscreener.ts";
import { selectFeedEvents } from "../api/queries/sql/feed.ts";
import { cachedReadModel } from "../api/read-model-cached.ts";
import { ClickHouseReadModel } from "../api/read-model-clickhouse.ts";
import { stringifyJson } from "../infra/json.ts";
import type { Store } from "../infra/store/client.ts";
import { openBulkStore } from "./bulk/store.ts";
import { fmt } from "./harness.ts";

export type Latency = { samples: number; p50: number; p99: number; events: number };
export type FeedBench = {
  storeRows: Record<string, number>;
  buildSeconds: number;
  results: { blocks: number; events: Latency; scan: Latency; lookups?: Latency }[];
  /** The stored columns and the lookups gave the same records over the first 1,000-block range. */
  identical: boolean;
};

const TARGET_P50_MS = 100;
const TRACED_BLOCKS = 20_000;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] as number;
};

async function timed(ranges: [number, number][], run: (from: number, to: number) => Promise<number>) {
  await run(...(ranges[0] as [number, number]));
  const ms: number[] = [];
  let events = 0;
  for (const [from, to] of ranges) {
    const start = performance.now();
    events += await run(from, to);
    ms.push(performance.now() - start);
  }
  return {
    samples: ms.length,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    events: events / ranges.length,
  };
}

const SCAN_SQL = `SELECT id, tx_hash, lt, mc_seqno, pool, amount_in, amount_out, maker, reserve0_after, reserve1_after
FROM swaps FINAL WHERE mc_seqno BETWEEN {from:UInt32} AND {to:UInt32}
UNION ALL
SELECT id, tx_hash, lt, mc_seqno, pool, amount0, amount1, maker, reserve0_after, reserve1_after
FROM liquidity_by_block FINAL WHERE mc_seqno BETWEEN {from:UInt32} AND {to:UInt32}`;

/** Disjoint ranges of `blocks` blocks ending at `last`, newest first, within the traced blocks. */
function ranges(last: number, blocks: number, count: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const to = last - ((i * blocks) % (TRACED_BLOCKS - blocks + 1));
    out.push([to - blocks + 1, to]);
  }
  return out;
}

async function measure(store: Store, last: number): Promise<FeedBench["results"]> {
  // The read model as the server builds it (bin/server.ts): its reference lists (pools, assets) are read
  // once, as a running server holds them; every measured range is still a different, uncached query.
  const data = cachedReadModel(new ClickHouseReadModel(store), { ttlMs: 3_600_000 });
  await data.listPools();
  const deps = { data } as unknown as ApiDeps;
  const events = (from: number, to: number) =>
    eventsOf(deps, from, to).then((e) => {
      JSON.stringify({ events: e }); // as Koa writes the route's body (the wire objects hold no bigint)
      return e.length;
    });
  const scan = (from: number, to: number) =>
    store.query(SCAN_SQL, z.unknown(), { from, to }).then((r) => r.length);
  const lookups = (from: number, to: number) =>
    selectFeedEvents(store, from, to, { stored: false }).then((e) => e.length);
  const out: FeedBench["results"] = [];
  for (const [blocks, count] of [
    [1_000, 20],
    [10_000, 6],
  ] as const) {
    const r = ranges(last, blocks, count);
    out.push({
      blocks,
      events: await timed(r, events),
      scan: await timed(r, scan),
      ...(blocks === 1_000 ? { lookups: await timed(r.slice(0, 5), lookups) } : {}),
    });
  }
  return out;
}

async function child(): Promise<FeedBench> {
  const { store, meta, close } = await openBulkStore({
    ...(process.env.BULK_STORE_DIR ? { dir: process.env.BULK_STORE_DIR } : {}),
  });
  try {
    const results = await measure(store, meta.lastSeqno);
    const [from, to] = ranges(meta.lastSeqno, 1_000, 1)[0] as [number, number];
    const identical =
      stringifyJson(await selectFeedEvents(store, from, to)) ===
      stringifyJson(await selectFeedEvents(store, from, to, { stored: false }));
    return { storeRows: meta.rows, buildSeconds: meta.buildSeconds, results, identical };
  } finally {
    await close();
  }
}

const self = fileURLToPath(import.meta.url);

export async function runFeedBench(): Promise<FeedBench> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", self, "--child"], {
    maxBuffer: 1 << 20,
    env: process.env,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) as string) as FeedBench;
}

export function printFeedBench(b: FeedBench): void {
  const ms = (l: Latency) => `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms`;
  console.log(
    `Export feed /events over the bulk store (${fmt(b.storeRows.swaps ?? 0)} swap legs, ${fmt(b.storeRows.pool_states ?? 0)} pool states; built once in ${fmt(b.buildSeconds)} s)`,
  );
  console.log(
    `  stored maker/reserves vs lookups over one 1,000-block range: ${b.identical ? "identical" : "DIFFERENT"}`,
  );
  for (const r of b.results) {
    const verdict =
      r.blocks === 1_000
        ? r.events.p50 < TARGET_P50_MS
          ? "  (target p50 < 100 ms: met)"
          : "  (target p50 < 100 ms: NOT met)"
        : "";
    console.log(
      `  ${fmt(r.blocks)} blocks, ~${fmt(r.events.events)} events: /events ${ms(r.events)} (${r.events.samples} ranges)${verdict}`,
    );
    console.log(`      raw-facts scan of the same ranges: ${ms(r.scan)}, ~${fmt(r.scan.events)} rows`);
    if (r.lookups !== undefined)
      console.log(
        `      lookup path (rows without the stored maker and reserves): ${ms(r.lookups)} (${r.lookups.samples} ranges)`,
      );
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === self) {
  if (process.argv.includes("--child")) console.log(JSON.stringify(await child()));
  else printFeedBench(await runFeedBench());
}
