/**
 * Embedded pipeline throughput: transactions per second from devnet blocks to committed facts, next to the
 * raw chdb insert rate of the very rows the pipeline wrote, measured in the same run and the same engine.
 * Target: ≥ 50,000 tx/s, or ≥ 0.5 of the raw insert rate (the processing costs at most as much as the
 * insert it feeds).
 *
 * 1. The devnet (seed 1) generates the blocks once, timed on its own (`tondex start` pays this too), and
 *    they stay in memory.
 * 2. Pipeline: an in-memory `Source` replaying those blocks → `startPipeline` (the bus, processor core,
 *    store writes of `tondex start`) into a fresh embedded store, until `done`. A recording store keeps
 *    every insert call (table + rows, by reference) on the way through.
 * 3. Raw insert: the same insert calls, in the same order and batches, into a second database of the same
 *    chdb engine (one engine path per process), nothing else: one `store.insert` after another on this
 *    thread (serialisation included). Its rate is quoted as tx/s of the input.
 * Each measurement is the best of `rounds` runs on a truncated database, so a busy machine skews it less.
 * BATCH_MAX_RECORDS, WINDOW_BLOCKS, ... are read from the environment like `tondex start` does, and the
 * process-wide speedups of a composition root are on (`applyLibraryPatches`, as `tondex start` on the devnet).
 *
 * Run alone: `node --import tsx bench/pipeline.ts [blocks]`; bench/run.ts imports `runPipelineBench`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../bin/config.ts";
import { startPipeline } from "../bin/pipeline.ts";
import type { ChainState } from "../dex/chain-state.ts";
import { applyLibraryPatches } from "../infra/library-patches/index.ts";
import { createLogger } from "../infra/log.ts";
import { createMetrics } from "../infra/metrics.ts";
import { openStore, type Store } from "../infra/store/client.ts";
import { migrate } from "../infra/store/migrate.ts";
import { Devnet } from "../ingest/devnet/devnet.ts";
import type { Source, SourceBlock } from "../ingest/source.ts";
import { cursor, FACT_TABLES } from "../schemas/facts.ts";
import { fmt } from "./harness.ts";

const TARGET_TX_PER_SECOND = 50_000;
const TARGET_RATIO = 0.5;
/** Second database of the same engine, for the raw insert. */
const RAW_DB = "bench_raw";
const TABLES = [...Object.values(FACT_TABLES).map((t) => t.name), cursor.name];

type Insert = { table: string; rows: readonly object[] };
type Timed = { seconds: number };

export type PipelineBench = {
  blocks: number;
  transactions: number;
  rows: number;
  devnet: Timed & { txPerSecond: number };
  pipeline: Timed & { txPerSecond: number };
  rawInsert: Timed & { txPerSecond: number };
  /** pipeline / raw insert. */
  ratio: number;
  /** Both stages on one thread, as `tondex start` runs them: 1 / (1/devnet + 1/pipeline). */
  startTxPerSecond: number;
  ok: boolean;
};

const now = () => Number(process.hrtime.bigint()) / 1e9;

/** Seed 1 for `blocks` market blocks, then drained like `tondex start` with DEVNET_BLOCKS. */
async function generate(blocks: number): Promise<{ blocks: SourceBlock[]; state: ChainState } & Timed> {
  const devnet = new Devnet({ seed: 1 });
  const out: SourceBlock[] = [];
  const start = now();
  for (let i = 0; i < blocks; i++) out.push(await devnet.nextBlock());
  while (devnet.pending > 0) out.push(devnet.drainBlock());
  const seconds = now() - start;
  const strip = (b: SourceBlock) => ({ mc_seqno: b.mc_seqno, utime: b.utime, transactions: b.transactions });
  return { blocks: out.map(strip), state: devnet.state, seconds };
}

function memorySource(blocks: readonly SourceBlock[], chainState: ChainState): Source {
  return {
    name: "memory",
    async *blocks(after) {
      for (const b of blocks) if (b.mc_seqno > after) yield b;
    },
    head: () => blocks.at(-1)?.mc_seqno ?? null,
    chainState,
  };
}

/**
 * `store` with every insert kept in `log` (rows by reference: the copy costs nothing), one entry per
 * table insert, whether it came alone (`insert`) or in a sequence (`insertAll`, as the writer sends a
 * batch; entries without rows are no insert and are not logged).
 */
function recording(store: Store, log: Insert[]): Store {
  return {
    ...store,
    async insert(table, rows) {
      if (rows.length > 0) log.push({ table, rows });
      await store.insert(table, rows);
    },
    async insertAll(inserts) {
      for (const i of inserts) if (i.rows.length > 0) log.push({ table: i.table, rows: i.rows });
      await store.insertAll(inserts);
    },
  };
}

async function truncate(store: Store, db: string, tables: readonly string[] = TABLES): Promise<void> {
  for (const t of tables) await store.command(`TRUNCATE TABLE IF EXISTS ${db}.${t}`);
}

async function best<T extends Timed>(rounds: number, run: (round: number) => Promise<T>): Promise<T> {
  let fastest: T | null = null;
  for (let round = 0; round < rounds; round++) {
    const r = await run(round);
    if (fastest === null || r.seconds < fastest.seconds) fastest = r;
  }
  return fastest!;
}

export async function runPipelineBench(
  options: { blocks?: number; rounds?: number } = {},
): Promise<PipelineBench> {
  // The process-wide settings `tondex start` applies at startup on the devnet source.
  applyLibraryPatches(["parse", "build"]);
  const rounds = options.rounds ?? 2;
  const generated = await generate(options.blocks ?? 120);
  const transactions = generated.blocks.reduce((n, b) => n + b.transactions.length, 0);
  const dataDir = await mkdtemp(join(tmpdir(), "tondex-bench-"));
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dataDir, "clickhouse") });
  try {
    await migrate(store);
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const logger = createLogger({ level: "silent" });
    let inserts: Insert[] = [];
    const pipeline = await best(rounds, async () => {
      await truncate(store, "default");
      const log: Insert[] = [];
      const source = memorySource(generated.blocks, generated.state);
      const start = now();
      const p = await startPipeline(config, {
        logger,
        metrics: createMetrics(),
        store: recording(store, log),
        source,
      });
      await p.done;
      const seconds = now() - start;
      inserts = log;
      return { seconds };
    });
    await store.command(`CREATE DATABASE IF NOT EXISTS ${RAW_DB}`);
    // every table the pipeline inserted rows into (facts, cursor, and what else it writes, e.g. rollup_status)
    const written = [...new Set([...TABLES, ...inserts.map((i) => i.table)])];
    for (const t of written) await store.command(`CREATE TABLE IF NOT EXISTS ${RAW_DB}.${t} AS default.${t}`);
    const rawInsert = await best(rounds, async () => {
      await truncate(store, RAW_DB, written);
      const start = now();
      for (const i of inserts) await store.insert(`${RAW_DB}.${i.table}`, i.rows);
      return { seconds: now() - start };
    });
    const rate = (t: Timed) => ({ ...t, txPerSecond: transactions / t.seconds });
    const p = rate(pipeline);
    const raw = rate(rawInsert);
    const devnet = rate(generated);
    const ratio = p.txPerSecond / raw.txPerSecond;
    return {
      blocks: generated.blocks.length,
      transactions,
      rows: inserts.reduce((n, i) => n + i.rows.length, 0),
      devnet,
      pipeline: p,
      rawInsert: raw,
      ratio,
      startTxPerSecond: 1 / (1 / devnet.txPerSecond + 1 / p.txPerSecond),
      ok: p.txPerSecond >= TARGET_TX_PER_SECOND || ratio >= TARGET_RATIO,
    };
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printPipelineBench(r: PipelineBench): void {
  const line = (name: string, t: { txPerSecond: number; seconds: number }, extra = "") =>
    console.log(
      `  ${name.padEnd(30)} ${fmt(t.txPerSecond).padStart(12)} tx/s  (${t.seconds.toFixed(2)} s)${extra}`,
    );
  console.log(
    `Embedded pipeline, devnet seed 1: ${r.blocks} blocks, ${fmt(r.transactions)} tx, ${fmt(r.rows)} rows written`,
  );
  line("baseline: raw chdb insert", r.rawInsert, "  same rows, same insert calls");
  const verdict = r.ok ? "meets" : "BELOW";
  line(
    "pipeline → committed facts",
    r.pipeline,
    `  ratio ${r.ratio.toFixed(3)}  target ${fmt(TARGET_TX_PER_SECOND)} tx/s or ratio ≥ ${TARGET_RATIO} ${verdict}`,
  );
  line("devnet generation", r.devnet);
  console.log(
    `  ${"start (devnet + pipeline)".padEnd(30)} ${fmt(r.startTxPerSecond).padStart(12)} tx/s  (one thread)`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const blocks = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  printPipelineBench(await runPipelineBench(blocks === undefined ? {} : { blocks }));
}
