/**
 * Crash safety of `tondex start` (the real CLI in a child process, embedded chdb under a temp DATA_DIR,
 * devnet source): SIGKILL it at seeded random moments, restart it each time, and once a restart runs to
 * the end the facts equal the devnet's ground truth exactly — 0 lost, 0 duplicated — through the same
 * deduplicated reads the API uses, and so do the rollups (each bucket against a GROUP BY over those facts)
 * and `/v1/stats/dex` as the recovered process serves it. The ground truth comes from an in-process devnet
 * with the same seed.
 * The default run has more than 100k transactions; TONDEX_CRASH_BLOCKS sets the number of market blocks.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { z } from "zod";
import { openStore } from "../../infra/store/client.ts";
import { countFacts } from "../../infra/store/facts-reader.ts";
import { Prng } from "../../ingest/devnet/sim/prng.ts";
import { dexStatsResponse } from "../../schemas/api/stats.ts";
import { runDevnet } from "../helpers/devnet-run.ts";
import { factsMatchTruth } from "../helpers/facts-truth.ts";
import { rollupsMatchFacts } from "../helpers/rollups-check.ts";

const TONDEX = join(import.meta.dirname, "../../bin/tondex.mjs");
// Many small blocks: the cursor (head − 2 × WINDOW_BLOCKS, processors/core) moves within seconds, so the
// kills land after progress has been stored.
const BLOCKS = Number(process.env.TONDEX_CRASH_BLOCKS ?? 1100);
const MIN_TRANSACTIONS = process.env.TONDEX_CRASH_BLOCKS ? 0 : 100_000;
const ACTIONS = 10;
const SEED = 7;
const KILLS = 5;

type Run = { child: ChildProcess; log: string[]; exited: Promise<number | string | null> };

function start(dir: string, port: number): Run {
  const env = {
    ...process.env,
    SOURCE: "devnet",
    DEVNET_SEED: String(SEED),
    DEVNET_BLOCKS: String(BLOCKS),
    DEVNET_ACTIONS_PER_BLOCK: String(ACTIONS),
    DEVNET_BLOCK_INTERVAL_MS: "0",
    DATA_DIR: dir,
    PORT: String(port),
    LOG_LEVEL: "info",
    BATCH_MAX_RECORDS: "1000",
    WINDOW_BLOCKS: "16",
    BATCH_MAX_MS: "20",
  };
  const child = spawn(process.execPath, [TONDEX, "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  child.stdout!.on("data", (d: Buffer) => log.push(d.toString()));
  child.stderr!.on("data", (d: Buffer) => log.push(d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  return { child, log, exited };
}

async function waitFor(run: Run, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(run.log.join(""))) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${pattern}; log:\n${run.log.join("").slice(-2000)}`);
    if (run.child.exitCode !== null)
      throw new Error(`tondex exited with ${run.child.exitCode}:\n${run.log.join("").slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("SIGKILL at random points, restart: final facts equal the ground truth exactly", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "tondex-crash-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const rng = new Prng(20261121);
  const port = 20_000 + rng.int(20_000);
  const resumedAfter: number[] = [];
  const afterOf = (run: Run) => Number(/"after":(\d+)/.exec(run.log.join(""))?.[1] ?? -1);
  for (let i = 0; i < KILLS; i++) {
    const run = start(dir, port + i);
    await waitFor(run, /"msg":"tondex is serving"/, 120_000);
    await new Promise((r) => setTimeout(r, 1_000 + rng.int(9_000)));
    run.child.kill("SIGKILL");
    await run.exited;
    resumedAfter.push(afterOf(run));
  }
  const last = start(dir, port + KILLS);
  await waitFor(last, /source finished/, 1_200_000);
  resumedAfter.push(afterOf(last));
  // The kills really interrupted progress: later starts resumed from stored cursors.
  t.true(resumedAfter.filter((a) => a > 0).length >= 2, `resumed after: ${resumedAfter.join(", ")}`);
  const stats = dexStatsResponse.parse(
    await (await fetch(`http://127.0.0.1:${port + KILLS}/v1/stats/dex`)).json(),
  ).stats;
  last.child.kill("SIGTERM");
  const code = await last.exited;
  t.is(code, 0, `tondex stopped with ${code}; log:\n${last.log.join("").slice(-3000)}`);
  const expected = await runDevnet({ seed: SEED, blocks: BLOCKS, actionsPerBlock: ACTIONS });
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dir, "clickhouse") });
  t.teardown(() => store.close());
  t.true(expected.txs.length >= MIN_TRANSACTIONS, `only ${expected.txs.length} transactions`);
  t.is(await countFacts(store, "transactions", {}), BigInt(expected.txs.length));
  const check = await factsMatchTruth(store, expected.truth);
  t.deepEqual(check.problems.slice(0, 20), []);
  const rollups = await rollupsMatchFacts(store);
  t.deepEqual(rollups.problems.slice(0, 20), []);
  t.true(rollups.checked > 0);
  // all-time DEX figures: executed legs and their distinct makers, counted here over the facts
  const [all] = await store.query(
    `SELECT countIf(ok) AS trades, uniqExactIf(maker, ok) AS wallets FROM (
       SELECT ifNull(amount_out, toUInt256(0)) > 0 AS ok, coalesce(maker, route_sender, sender, '') AS maker
       FROM swaps FINAL WHERE ifNull(pool, '') != '')`,
    z.object({ trades: z.coerce.number(), wallets: z.coerce.number() }),
  );
  t.deepEqual([stats.trades, stats.unique_wallets], [all!.trades, all!.wallets]);
  t.log(
    `${expected.txs.length} transactions, ${check.checked} operations, ${rollups.checked} rollup buckets, ` +
      `${stats.trades} trades; resumed after ${resumedAfter.join(", ")}`,
  );
});
