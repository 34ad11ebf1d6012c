/**
 * Latency of every ClickHouse read-model method on a few thousand rows (written twice, unmerged: the worst
 * case for deduplicating reads), on the embedded engine. Logs median and p90 per method (`ava --verbose`
 * shows them); asserts only a generous ceiling, so a slow shared machine does not fail it. Also times the
 * alternatives considered for the latest pool state (FINAL + LIMIT 1 BY vs argMax without FINAL).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import type { DexReadModel } from "../../api/read-model.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { Devnet } from "../../ingest/devnet/devnet.ts";
import { transactionsRows } from "../../processors/core/transaction-rows.ts";
import type { FactRows } from "../../schemas/facts.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import * as X from "./_read-model-fixtures.ts";

type Context = { dir: string; store: Store; model: ClickHouseReadModel; txs: RawTransaction[] };
const test = anyTest as TestFn<Context>;

const POOLS = 200;
const STATES_PER_POOL = 25;
const SWAPS = 5000;
const LIQUIDITY = 2000;
const WALLETS = 100;
const wallet = (i: number) => X.raw(`latency wallet ${i % WALLETS}`);
const poolAddress = (i: number) => X.raw(`latency pool ${i % POOLS}`);

function bulk(): FactRows {
  const [swap, liq, pool, state] = [
    X.SWAPS[1]!,
    X.LIQUIDITY[1]!,
    X.FACTS.pools![2]!,
    X.FACTS.pool_states![2]!,
  ];
  const hash = (p: string, i: number) => `${p}${i.toString(16).padStart(63, "0")}`;
  return {
    pools: Array.from({ length: POOLS }, (_, i) => ({ ...pool, pool: poolAddress(i) })),
    pool_states: Array.from({ length: POOLS * STATES_PER_POOL }, (_, i) => ({
      ...state,
      pool: poolAddress(i),
      lt: X.lt(i),
      reserve0: state.reserve0 + BigInt(i),
    })),
    swaps: Array.from({ length: SWAPS }, (_, i) => ({
      ...swap,
      id: `${hash("1", i)}:swap`,
      tx_hash: hash("1", i),
      lt: X.lt(i) + 3n,
      utime: X.T0 + i,
      pool: poolAddress(i),
      sender: wallet(i),
      query_id: BigInt(i),
    })),
    liquidity: Array.from({ length: LIQUIDITY }, (_, i) => ({
      ...liq,
      id: `${hash("2", i)}:provide`,
      tx_hash: hash("2", i),
      lt: X.lt(i) + 7n,
      utime: X.T0 + i,
      pool: poolAddress(i),
      owner: wallet(i),
    })),
  };
}

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-rm-lat-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  const devnet = new Devnet({ seed: 5, actionsPerBlock: 8, traders: 16, lps: 2, referrers: 2 });
  const txs: RawTransaction[] = [];
  for (let i = 0; i < 10; i++) txs.push(...(await devnet.nextBlock()).transactions);
  const more = bulk();
  const rows: FactRows = {
    ...X.FACTS,
    ...more,
    pools: [...X.FACTS.pools!, ...more.pools!],
    pool_states: [...X.FACTS.pool_states!, ...more.pool_states!],
    swaps: [...X.FACTS.swaps!, ...more.swaps!],
    liquidity: [...X.FACTS.liquidity!, ...more.liquidity!],
    ...transactionsRows([...X.TXS, ...txs]),
  };
  const position = { consumer: "test", partition_id: 0, mc_seqno: 1, next_offset: 1n };
  for (let copy = 0; copy < 2; copy++) await writeBatch(store, rows, position);
  t.context = { dir, store, model: new ClickHouseReadModel(store), txs };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  if (t.context.dir) rmSync(t.context.dir, { recursive: true, force: true });
});

async function timed(run: () => Promise<unknown>, times = 15): Promise<{ median: number; p90: number }> {
  await run(); // warm-up: first use of a query compiles it
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(times / 2)]!, p90: ms[Math.floor(times * 0.9)]! };
}

test.serial("every method answers in milliseconds on a few thousand rows", async (t) => {
  const { model, txs, store } = t.context;
  const counts = z.object({ n: z.string() });
  for (const table of ["swaps", "liquidity", "pool_states", "transactions", "messages"]) {
    const [row] = await store.query(`SELECT toString(count()) AS n FROM ${table}`, counts);
    t.log(`${table}: ${row?.n} rows stored (each fact twice)`);
  }
  const tx = txs[Math.floor(txs.length / 2)]!;
  const w = wallet(7);
  const window = { since: 0, until: 2 ** 32 - 1, dexV2: true };
  const calls: Record<string, (m: DexReadModel) => Promise<unknown>> = {
    listRouters: (m) => m.listRouters(),
    listAssets: (m) => m.listAssets(),
    getAssets: (m) => m.getAssets([X.USDT, X.TON]),
    listPools: (m) => m.listPools(),
    getPool: (m) => m.getPool(poolAddress(42)),
    getPoolsByAssets: (m) => m.getPoolsByAssets(X.TON, X.USDT),
    getWalletOperations: (m) => m.getWalletOperations(w, window),
    getWalletLpPositions: (m) => m.getWalletLpPositions(w),
    getFeeVaults: (m) => m.getFeeVaults(X.WALLET),
    getWalletTransactions: (m) => m.getWalletTransactions(tx.account, { limit: 10 }),
    findTransaction: (m) => m.findTransaction({ wallet: X.WALLET, queryId: 42n, since: 0 }),
    getTransaction: (m) => m.getTransaction(tx.hash),
    getTransactionsByInMsg: (m) => m.getTransactionsByInMsg(tx.out_msgs.map((o) => o.hash)),
    findSwap: (m) => m.findSwap({ router: X.R_CPI.address, owner: w, queryId: 107n }),
  };
  for (const [name, call] of Object.entries(calls)) {
    const { median, p90 } = await timed(() => call(model));
    t.log(`${name}: median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms`);
    t.true(median < 2000, name);
  }
  t.is((await model.getWalletOperations(w, window)).length, SWAPS / WALLETS + LIQUIDITY / WALLETS);
  // Every pool with a row is listed, the fixture's two with unknown parts (no state, a token unknown) too.
  t.is((await model.listPools()).length, X.ALL_POOLS.length + 2 + POOLS);
});

test.serial("latest pool state: FINAL + LIMIT 1 BY against argMax without FINAL", async (t) => {
  const { store } = t.context;
  const row = z.object({ pool: z.string(), r: z.string() });
  const final =
    "SELECT pool, toString(reserve0) AS r FROM pool_states FINAL ORDER BY pool, lt DESC LIMIT 1 BY pool";
  const argMax =
    "SELECT pool, toString(argMax(reserve0, lt)) AS r FROM pool_states GROUP BY pool ORDER BY pool";
  const [a, b] = [await store.query(final, row), await store.query(argMax, row)];
  t.deepEqual(a, b);
  for (const [name, sql] of Object.entries({ final, argMax })) {
    const { median, p90 } = await timed(() => store.query(sql, row));
    t.log(`latest states (${name}): median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms`);
  }
});
