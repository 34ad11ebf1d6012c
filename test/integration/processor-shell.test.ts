/**
 * The embedded pipeline's shell end to end: in-process bus → processor shell → chdb store + hot cache.
 * A batch whose facts were written but whose acknowledgement failed is delivered again after a restart,
 * and the store still holds every fact once. One chdb path for the whole file (one engine per process).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { createMemoryBus } from "../../infra/bus/memory.ts";
import { rawTransactionsTopic } from "../../infra/bus/topics.ts";
import type { Batch } from "../../infra/bus/types.ts";
import { createMemoryCache } from "../../infra/cache/memory.ts";
import { cacheNamespace } from "../../infra/cache/types.ts";
import { NonRetryableError } from "../../infra/errors.ts";
import { stringifyJson } from "../../infra/json.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics, renderMetrics } from "../../infra/metrics.ts";
import { openStore } from "../../infra/store/client.ts";
import { countFacts, selectFacts } from "../../infra/store/facts-reader.ts";
import type { CursorPosition } from "../../infra/store/facts-writer.ts";
import { readCursor, writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { batchHandler, type ProcessorShell } from "../../processors/shell.ts";
import { type FactRows, type PoolStateRow, poolStates } from "../../schemas/facts.ts";
import {
  isRejected,
  RAW_TX_VERSION,
  type RawTransaction,
  type RejectedRecord,
} from "../../schemas/raw-transaction.ts";

const POOL = `0:${"A".repeat(64)}`;
const USER = `0:${"B".repeat(64)}`;

function rawTx(i: number): RawTransaction {
  return {
    version: RAW_TX_VERSION,
    mc_seqno: 100 + Math.floor(i / 4),
    shard: null,
    block_seqno: null,
    hash: i.toString(16).padStart(64, "0"),
    lt: String(1000 + i),
    now: 1_763_700_000 + i,
    account: i % 2 === 0 ? POOL : USER,
    aborted: false,
    compute: { success: true, exit_code: 0 },
    action: null,
    in_msg: null,
    out_msgs: [],
  };
}

/** Cursor of a batch: its highest mc_seqno (inclusive on restart; writes are idempotent) and next offset. */
function rawBatchPosition(
  consumer: string,
): (batch: Batch<RawTransaction | RejectedRecord>) => CursorPosition {
  return (batch) => ({
    consumer,
    partition_id: batch.partition,
    mc_seqno: batch.records.reduce((max, r) => Math.max(max, r.value.mc_seqno ?? 0), 0),
    next_offset: batch.nextOffset,
  });
}

/** A stand-in pure core: every tx becomes a transaction row; every pool tx a pool state. */
function core(batch: Batch<RawTransaction | RejectedRecord>): FactRows {
  const txs = batch.records.map((r) => r.value).filter((v): v is RawTransaction => !isRejected(v));
  return {
    transactions: txs.map((tx) => ({
      hash: tx.hash,
      lt: BigInt(tx.lt),
      account: tx.account,
      mc_seqno: tx.mc_seqno,
      shard: tx.shard,
      block_seqno: tx.block_seqno,
      utime: tx.now,
      aborted: tx.aborted,
      compute_success: tx.compute.success,
      compute_exit_code: tx.compute.exit_code,
      action_success: null,
      action_result_code: null,
      in_msg_hash: null,
      out_msg_hashes: [],
      orig_status: null,
      end_status: null,
      prev_trans_hash: null,
      prev_trans_lt: null,
    })),
    pool_states: txs
      .filter((tx) => tx.account === POOL)
      .map((tx) => ({
        pool: tx.account,
        lt: BigInt(tx.lt),
        tx_hash: tx.hash,
        mc_seqno: tx.mc_seqno,
        utime: tx.now,
        pool_type: "v1_constant_product",
        reserve0: BigInt(tx.lt) * 10n ** 30n,
        reserve1: 1n,
        lp_supply: 1n,
        lp_fee_bps: 20,
        protocol_fee_bps: 10,
        ref_fee_bps: 10,
        collected_protocol_fee0: 0n,
        collected_protocol_fee1: 0n,
        is_locked: false,
        amp: 0n,
        rate: 0n,
        w0: 0n,
      })),
  };
}

test("bus → shell → store: a written but unacknowledged batch is re-delivered and stored once", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-shell-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await migrate(store);

  const bus = createMemoryBus({ partitions: 2 });
  const cache = createMemoryCache({ maxEntries: 100 });
  const poolCache = cacheNamespace<PoolStateRow>(cache, {
    name: "pool_state",
    version: 1,
    ttlMs: 60_000,
    codec: { encode: stringifyJson, decode: (s) => poolStates.schema.parse(JSON.parse(s)) },
  });
  const metrics = createMetrics();
  const ctx = { logger: createLogger({ level: "silent" }), metrics };
  let writes = 0;
  let failAfterWrite = 2; // the 2nd write reaches the store, then the process "crashes" before the ack
  const shell: ProcessorShell<Batch<RawTransaction | RejectedRecord>> = {
    core,
    position: rawBatchPosition("tondex.processor"),
    size: (b) => b.records.length,
    write: async (rows, position) => {
      await writeBatch(store, rows, position);
      writes++;
      if (writes === failAfterWrite) throw new NonRetryableError("crash after write");
    },
    poolStates: poolCache,
    ctx,
  };
  const options = { maxBatch: 3, maxWaitMs: 0 };

  const txs = Array.from({ length: 16 }, (_, i) => rawTx(i));
  await bus.produce(
    rawTransactionsTopic,
    txs.map((tx) => ({ key: tx.account, value: tx })),
  );
  const first = bus.consume(rawTransactionsTopic, "tondex.processor", batchHandler(shell), options);
  await t.throwsAsync(first.done, { message: "crash after write" });

  failAfterWrite = -1;
  const second = bus.consume(rawTransactionsTopic, "tondex.processor", batchHandler(shell), options);
  const deadline = Date.now() + 10_000;
  while ((await countFacts(store, "transactions")) < 16n && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  await second.stop();
  await second.done;
  await bus.close();

  // 8 records per partition in batches of 3, 3, 2: six batches, one of them written twice.
  t.is(writes, 7);
  t.is(await countFacts(store, "transactions"), 16n);
  t.deepEqual(
    (await selectFacts(store, "transactions", { orderBy: ["lt"] })).map((r) => r.lt),
    txs.map((tx) => BigInt(tx.lt)),
  );
  t.is(await countFacts(store, "pool_states"), 8n);
  const cursor = await readCursor(store, "tondex.processor");
  t.deepEqual(
    cursor.partitions.map((p) => [p.mc_seqno, p.next_offset]),
    [
      [103, 8n],
      [103, 8n],
    ],
  );
  const latest = await poolCache.get(POOL);
  t.is(latest?.lt, 1014n, "the cache holds the pool's highest-lt state");
  t.is(latest?.reserve0, 1014n * 10n ** 30n);
  const body = (await renderMetrics(metrics)).body;
  t.regex(body, /^tondex_facts_written_total\{table="transactions"\} 16$/m, "a failed batch is not counted");
  t.regex(body, /^tondex_transactions_processed_total 16$/m);
  t.regex(body, /^tondex_processed_mc_seqno 103$/m);
});
