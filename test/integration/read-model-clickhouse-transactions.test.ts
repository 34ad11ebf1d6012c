/**
 * RawTransaction → `transactions` + `messages` rows (processors/core/transaction-rows.ts) → ClickHouse →
 * RawTransaction (api/queries/sql/transactions.ts) is the identity, minus the optional whole-transaction
 * `boc`, on every recorded mainnet trace (no action phase, no shard, StateInits) and on a small devnet run
 * (action phases, shards, deploys). One chdb path for the file, removed after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import anyTest, { type TestFn } from "ava";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { selectFacts } from "../../infra/store/facts-reader.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { Devnet } from "../../ingest/devnet/devnet.ts";
import { blockRow, transactionRows, transactionsRows } from "../../processors/core/transaction-rows.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { rawTransactionSchema } from "../../schemas/raw-transaction.ts";
import { loadAllTraces } from "../helpers/traces.ts";

type Context = { dir: string; store: Store; model: ClickHouseReadModel; txs: RawTransaction[] };
const test = anyTest as TestFn<Context>;

const withoutBoc = ({ boc: _, ...tx }: RawTransaction): RawTransaction => tx;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-rm-tx-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  const traces = loadAllTraces().flatMap((trace) => trace.txs);
  const devnet = new Devnet({ seed: 3, actionsPerBlock: 6, traders: 8, lps: 2, referrers: 2 });
  const blocks = [];
  for (let i = 0; i < 6; i++) blocks.push(await devnet.nextBlock());
  const devnetTxs = blocks.flatMap((b) => b.transactions);
  // Traces and devnet share no hashes; a trace transaction may appear in two trace files (same record).
  const txs = [...new Map([...traces, ...devnetTxs].map((tx) => [tx.hash, tx])).values()];
  await writeBatch(
    store,
    { blocks: blocks.map(blockRow), ...transactionsRows(txs) },
    { consumer: "test", partition_id: 0, mc_seqno: 6, next_offset: 1n },
  );
  t.context = { dir, store, model: new ClickHouseReadModel(store), txs };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  if (t.context.dir) rmSync(t.context.dir, { recursive: true, force: true });
});

test("the sample covers the shapes a RawTransaction can take", (t) => {
  const { txs } = t.context;
  const messages = txs.flatMap((tx) => [tx.in_msg, ...tx.out_msgs]);
  t.true(txs.length > 300, `${txs.length} transactions`);
  t.true(txs.some((tx) => tx.action === null) && txs.some((tx) => tx.action !== null));
  t.true(txs.some((tx) => tx.shard === null) && txs.some((tx) => tx.shard !== null));
  t.true(
    txs.some((tx) => tx.in_msg === null || tx.in_msg.source === null),
    "external or no inbound",
  );
  t.true(
    messages.some((m) => m?.init_boc !== undefined),
    "StateInits",
  );
  t.true(
    messages.some((m) => m !== null && m.destination === null),
    "external-out messages",
  );
  t.true(txs.every((tx) => rawTransactionSchema.safeParse(tx).success));
});

test("getTransaction rebuilds every stored transaction exactly (minus the whole-transaction boc)", async (t) => {
  const { model, txs } = t.context;
  const got = await Promise.all(txs.map((tx) => model.getTransaction(tx.hash.toUpperCase())));
  const mismatches = txs.filter((tx, i) => !isDeepStrictEqual(got[i], withoutBoc(tx)));
  t.deepEqual(
    mismatches.map((tx) => tx.hash),
    [],
  );
  // ava's own comparison on a few (its diff is the readable one when something breaks).
  for (const i of [0, 1, txs.length - 1]) t.deepEqual(got[i], withoutBoc(txs[i]!));
});

test("getTransactionsByInMsg follows every message edge to the transactions it started", async (t) => {
  const { model, txs } = t.context;
  const byIn = new Map(txs.flatMap((tx) => (tx.in_msg ? [[tx.in_msg.hash, tx] as const] : [])));
  let edges = 0;
  for (const tx of txs.slice(0, 200)) {
    const outs = tx.out_msgs.map((m) => m.hash);
    const want = outs.flatMap((h) => byIn.get(h) ?? []).map(withoutBoc);
    const got = await model.getTransactionsByInMsg(outs);
    edges += want.length;
    t.deepEqual(
      [...got].sort((a, b) => (a.hash < b.hash ? -1 : 1)),
      want.sort((a, b) => (a.hash < b.hash ? -1 : 1)),
    );
  }
  t.true(edges > 100, `${edges} edges followed`);
  t.deepEqual(await model.getTransactionsByInMsg([]), []);
});

test("rows are exactly what transactionRows wrote; blocks name their shard blocks", async (t) => {
  const { store, txs } = t.context;
  const sample = txs.slice(0, 20);
  for (const tx of sample) {
    const { transaction, messages } = transactionRows(tx);
    t.deepEqual(await selectFacts(store, "transactions", { where: { hash: tx.hash } }), [transaction]);
    const stored = await selectFacts(store, "messages", { where: { tx_hash: tx.hash } });
    t.deepEqual(
      stored.sort((a, b) => a.direction.localeCompare(b.direction) || a.msg_index - b.msg_index),
      messages,
    );
  }
  const [block] = await selectFacts(store, "blocks", { where: { mc_seqno: 2 } });
  t.true((block?.shard_blocks.length ?? 0) > 0);
  t.regex(block?.shard_blocks[0] ?? "", /^0:8000000000000000:\d+$/);
});

test("a transaction whose messages are not visible yet is not returned half-built", async (t) => {
  const { store, model } = t.context;
  const tx = t.context.txs.find((x) => x.out_msgs.length > 0 && x.in_msg !== null)!;
  const orphan = { ...transactionRows(tx).transaction, hash: `${"0".repeat(63)}1` };
  await store.insert("transactions", [orphan]);
  t.is(await model.getTransaction(orphan.hash), null);
  t.false((await model.getTransactionsByInMsg([tx.in_msg!.hash])).some((x) => x.hash === orphan.hash));
});
