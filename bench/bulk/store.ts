/**
 * The bulk store: ≥ 10M swap legs over 1,200 pools and 90 days (./world.ts), written through the pipeline's
 * own writer (infra/store/facts-writer.ts `writeBatch`, one insert per table per batch, then the cursor)
 * into an embedded store under `.cache/bulk-store/<version>/` (gitignored). Built once — it takes tens of
 * minutes on a 2-core machine — and reused by every later run: `openBulkStore()` opens it when its
 * `meta.json` (written last, after the final batch) is there, else builds it. Migrations added later are
 * applied on open.
 *
 * Entry point for benchmarks (the export feed's in ../feed.ts, analytics): `openBulkStore()` →
 * `{ store, meta, close }`. The engine is in-process chdb, one data path per process: open it in a process
 * that opens no other store (../feed.ts runs in a child process for that reason), and one process at a
 * time (a second one fails with "Cannot lock file …/status": run the benches that use it one after another).
 *
 *   node --import tsx bench/bulk/store.ts     # build (or just describe) the store
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { prepareRollups } from "../../infra/store/rollups.ts";
import { createWorld, type WorldOptions } from "./world.ts";

export const BULK_OPTIONS: WorldOptions = {
  seed: 17,
  days: 90,
  pools: 1_200,
  wallets: 250_000,
  swaps: 10_050_000,
  traceBlocks: 20_000,
  endUtime: 1_764_000_000,
  firstSeqno: 50_000_000,
};

/** Bumped whenever the generator's output changes: a new directory, the old one is left alone. */
const GENERATOR_VERSION = 2;

export const BULK_STORE_DIR = resolve(
  fileURLToPath(new URL("../../.cache/bulk-store/", import.meta.url)),
  `v${GENERATOR_VERSION}-seed${BULK_OPTIONS.seed}-${BULK_OPTIONS.swaps}`,
);

export type BulkMeta = {
  options: WorldOptions;
  blocks: number;
  firstSeqno: number;
  lastSeqno: number;
  rows: Record<string, number>;
  buildSeconds: number;
  builtAt: string;
};

const BATCH_BLOCKS = 8_000;

export async function openBulkStore(
  options: { dir?: string; log?: (line: string) => void; world?: Partial<WorldOptions> } = {},
): Promise<{ store: Store; meta: BulkMeta; close: () => Promise<void> }> {
  const dir = options.dir ?? BULK_STORE_DIR;
  const log = options.log ?? ((line: string) => console.error(line));
  const metaFile = join(dir, "meta.json");
  if (!existsSync(metaFile)) await build(dir, { ...BULK_OPTIONS, ...options.world }, log);
  const meta = JSON.parse(await readFile(metaFile, "utf8")) as BulkMeta;
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dir, "clickhouse") });
  await migrate(store);
  return { store, meta, close: () => store.close() };
}

async function build(dir: string, world: WorldOptions, log: (line: string) => void): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dir, "clickhouse") });
  try {
    await migrate(store);
    // As the pipeline starts (bin/pipeline.ts): the empty store's rollups recorded as built, so the batches
    // below keep them, and the first open rolls up nothing again (without it, that open took the store for
    // one from before the rollups and rewrote all of them).
    await prepareRollups(store, { after: null, log: (_fields, message) => log(`bulk store: ${message}`) });
    const market = createWorld(world);
    const rows: Record<string, number> = {};
    const count = (r: object) => {
      for (const [k, v] of Object.entries(r)) if (Array.isArray(v)) rows[k] = (rows[k] ?? 0) + v.length;
    };
    count(market.reference);
    let pending: Promise<unknown> = writeBatch(store, market.reference, position(world.firstSeqno - 1, 0));
    let legs = 0;
    for (let from = 0; from < market.blocks; from += BATCH_BLOCKS) {
      const to = Math.min(market.blocks, from + BATCH_BLOCKS);
      const { swapLegs, ...batch } = market.rows(from, to);
      legs += swapLegs;
      count(batch);
      await pending;
      // The next batch is generated while the insert thread writes this one.
      pending = writeBatch(store, batch, position(world.firstSeqno + to - 1, to));
      if ((from / BATCH_BLOCKS) % 25 === 0)
        log(
          `bulk store: ${to}/${market.blocks} blocks, ${legs} swap legs, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
    }
    await pending;
    const meta: BulkMeta = {
      options: world,
      blocks: market.blocks,
      firstSeqno: world.firstSeqno,
      lastSeqno: world.firstSeqno + market.blocks - 1,
      rows,
      buildSeconds: Math.round((performance.now() - started) / 1000),
      builtAt: new Date().toISOString(),
    };
    await writeFile(join(dir, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
    log(`bulk store built in ${meta.buildSeconds} s: ${JSON.stringify(rows)}`);
  } finally {
    await store.close();
  }
}

const position = (mcSeqno: number, offset: number) => ({
  consumer: "tondex.processor",
  partition_id: 0,
  mc_seqno: mcSeqno,
  next_offset: BigInt(offset),
});

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { meta, close } = await openBulkStore();
  await close();
  console.log(JSON.stringify(meta, null, 2));
}
