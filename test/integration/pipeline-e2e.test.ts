/**
 * End to end, embedded (chdb in this process, in-process bus): a devnet run of at least 100k
 * transactions goes through the whole pipeline, and the stored facts equal the devnet's ground truth —
 * every operation present once, every amount equal, nothing extra — and every transaction is stored once.
 * TONDEX_E2E_BLOCKS overrides the number of market blocks (e.g. for a quicker local run).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { loadConfig, TEST_ENV } from "../../bin/config.ts";
import { startPipeline } from "../../bin/pipeline.ts";
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { countFacts } from "../../infra/store/facts-reader.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { createDevnetSource } from "../../ingest/devnet/source.ts";
import { factsMatchTruth } from "../helpers/facts-truth.ts";

const BLOCKS = Number(process.env.TONDEX_E2E_BLOCKS ?? 160);
const MIN_TRANSACTIONS = process.env.TONDEX_E2E_BLOCKS ? 0 : 100_000;

test("a devnet run of ≥ 100k transactions ends with facts equal to the ground truth", async (t) => {
  applyLibraryPatches(["parse", "build"]);
  const dir = await mkdtemp(join(tmpdir(), "tondex-e2e-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = loadConfig(
    { ...TEST_ENV, DATA_DIR: dir, BATCH_MAX_RECORDS: "5000", BATCH_MAX_MS: "50" },
    [],
  );
  const truth: TruthRecord[] = [];
  let generated = 0;
  const source = createDevnetSource({
    seed: 5,
    actionsPerBlock: 100,
    intervalMs: 0,
    maxBlocks: BLOCKS,
    drain: true,
    onBlock: (b) => {
      truth.push(...b.truth);
      generated += b.transactions.length;
    },
  });
  const pipeline = await startPipeline(config, {
    logger: createLogger({ level: "silent" }),
    metrics: createMetrics(),
    source,
  });
  t.teardown(() => pipeline.store.close());
  const result = await pipeline.done;
  t.true(result.finished);
  t.is(result.transactions, generated);
  t.true(generated >= MIN_TRANSACTIONS, `only ${generated} transactions`);
  t.is(await countFacts(pipeline.store, "transactions", {}), BigInt(generated));
  const check = await factsMatchTruth(pipeline.store, truth);
  t.deepEqual(check.problems.slice(0, 20), []);
  t.true(check.checked > 5_000, `only ${check.checked} operations`);
  t.log(`${generated} transactions, ${check.checked} operations`, check.rowsByTable);
});
