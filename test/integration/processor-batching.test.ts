/**
 * The processor core's facts do not depend on where batches are cut: the same devnet transactions fed to
 * `ProcessorCore` in batches of 1,000, 337 and 5,000 records (and one record at a time on a shorter run)
 * give, after ReplacingMergeTree's deduplication, exactly the same rows in every fact table. This is what
 * makes N `tondex process` replicas (whose batches Kafka cuts by fetch size) store the embedded run's
 * facts. The devnet has finished before the core reads it, so its chain-state answers are the same for
 * every run.
 */
import test from "ava";
import { loadConfig } from "../../bin/config.ts";
import { pricingConfigOf } from "../../bin/pricing.ts";
import { ProcessorCore } from "../../processors/core/index.ts";
import { chainStateLookups } from "../../processors/lookups.ts";
import { FACT_TABLES, type FactRows, type FactTableName } from "../../schemas/facts.ts";
import { type DevnetRun, runDevnet } from "../helpers/devnet-run.ts";

const WINDOW_BLOCKS = 16;

type Tables = Record<FactTableName, string[]>;

const text = (row: unknown) => JSON.stringify(row, (_, v) => (typeof v === "bigint" ? `${v}n` : v));

/**
 * What the store holds after every batch's rows are inserted: one row per sorting key, the highest
 * `version` where the table has one, else the last inserted (ReplacingMergeTree), in key order.
 */
function deduplicated(batches: readonly FactRows[]): Tables {
  const out = {} as Tables;
  for (const name of Object.keys(FACT_TABLES) as FactTableName[]) {
    const { orderBy } = FACT_TABLES[name];
    const kept = new Map<string, Record<string, unknown>>();
    for (const rows of batches) {
      for (const row of (rows[name] ?? []) as readonly Record<string, unknown>[]) {
        const key = text(orderBy.map((c) => row[c]));
        const old = kept.get(key);
        if (old !== undefined && "version" in row && (old.version as bigint) > (row.version as bigint))
          continue;
        kept.set(key, row);
      }
    }
    out[name] = [...kept.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => text(r));
  }
  return out;
}

/** Milliseconds the core took per batch size (logged: the cost of stepping block by block). */
const took = new Map<number, number>();

async function processInBatches(run: DevnetRun, size: number): Promise<Tables> {
  const config = loadConfig({ SOURCE: "devnet" }, []);
  const core = new ProcessorCore({
    windowBlocks: WINDOW_BLOCKS,
    lookups: chainStateLookups(run.devnet.state),
    pricing: pricingConfigOf(config, run.devnet.world),
  });
  const batches: FactRows[] = [];
  const started = performance.now();
  for (let i = 0; i < run.txs.length; i += size) {
    batches.push((await core.process(run.txs.slice(i, i + size))).rows);
  }
  batches.push((await core.process([], true)).rows);
  took.set(size, Math.round(performance.now() - started));
  return deduplicated(batches);
}

function differences(a: Tables, b: Tables): string[] {
  const out: string[] = [];
  for (const name of Object.keys(FACT_TABLES) as FactTableName[]) {
    const [x, y] = [a[name], b[name]];
    const onlyA = x.filter((r) => !y.includes(r));
    const onlyB = y.filter((r) => !x.includes(r));
    if (onlyA.length + onlyB.length > 0) {
      out.push(
        `${name} (${x.length} vs ${y.length} rows): ${[...onlyA.slice(0, 2), "vs", ...onlyB.slice(0, 2)].join("\n")}`,
      );
    }
  }
  return out;
}

test("devnet transactions in batches of 1,000, 337 and 5,000 records: every fact table identical", async (t) => {
  const run = await runDevnet({
    seed: 5,
    blocks: Number(process.env.TONDEX_BATCHING_BLOCKS ?? 200),
    actionsPerBlock: 10,
  });
  const reference = await processInBatches(run, 1_000);
  t.true(reference.liquidity.length > 0 && reference.swaps.length > 0);
  for (const size of [337, 5_000]) {
    t.deepEqual(differences(await processInBatches(run, size), reference), [], `batches of ${size}`);
  }
  t.log(
    `${run.txs.length} transactions, ${reference.swaps.length} swaps, ${reference.liquidity.length} liquidity rows; core ms by batch size: ${[...took].map(([k, v]) => `${k}: ${v}`).join(", ")}`,
  );
});

test("one record per batch gives the rows of batches of 1,000", async (t) => {
  const run = await runDevnet({ seed: 7, blocks: 40, actionsPerBlock: 10 });
  const reference = await processInBatches(run, 1_000);
  t.deepEqual(differences(await processInBatches(run, 1), reference), []);
  t.log(`${run.txs.length} transactions`);
});
