/** Checks on the rollup tables shared by the rollup tests (one chdb path per process: one file each). */
import type { ExecutionContext } from "ava";
import { z } from "zod";
import type { Store } from "../../infra/store/client.ts";

/**
 * What FINAL reads of the hour and day rows is the same through the copies sorted by bucket
 * (pool_rollup_1h_by_bucket, pool_rollup_1d_by_bucket), and every pool rollup row's plain last_trade is its
 * close (the last executed leg) and its first_trade its open (the first).
 */
export async function copiesAgree(t: ExecutionContext, store: Store): Promise<void> {
  const rows = (table: string) =>
    store.query(
      `SELECT pool, toUInt32(bucket) AS bucket, version, trades, toString(volume_a) AS volume_a,
         bitmapToArray(groupBitmapMergeState(wallet_bitmap)) AS wallets,
         [toString(last_trade.1), toString(last_trade.2)] AS last_trade,
         [toString(finalizeAggregation(close).1), toString(finalizeAggregation(close).2)] AS close,
         [toString(first_trade.1), toString(first_trade.2)] AS first_trade,
         [toString(finalizeAggregation(open).1), toString(finalizeAggregation(open).2)] AS open
       FROM ${table} FINAL
       GROUP BY pool, bucket, version, trades, volume_a, last_trade, close, first_trade, open
       ORDER BY pool, bucket`,
      z.object({
        pool: z.string(),
        bucket: z.coerce.number(),
        version: z.string(),
        trades: z.coerce.number(),
        volume_a: z.string(),
        wallets: z.array(z.coerce.number()),
        last_trade: z.tuple([z.string(), z.string()]),
        close: z.tuple([z.string(), z.string()]),
        first_trade: z.tuple([z.string(), z.string()]),
        open: z.tuple([z.string(), z.string()]),
      }),
    );
  const hours = await rows("pool_rollup_1h");
  t.true(hours.length > 0);
  t.deepEqual(await rows("pool_rollup_1h_by_bucket"), hours);
  const days = await rows("pool_rollup_1d");
  t.true(days.length > 0);
  t.deepEqual(await rows("pool_rollup_1d_by_bucket"), days);
  for (const table of ["pool_rollup_1m", "pool_rollup_1h", "pool_rollup_1d"]) {
    for (const r of await rows(table)) {
      t.deepEqual(r.last_trade, r.close, `${table} ${r.pool} ${r.bucket}`);
      t.deepEqual(r.first_trade, r.open, `${table} ${r.pool} ${r.bucket}`);
    }
  }
}

/**
 * The pools' state rows per hour and day and the raw states, as FINAL reads them, equal through the copies
 * sorted by time; the number of hour and day rows.
 */
export async function stateCopiesAgree(t: ExecutionContext, store: Store): Promise<number> {
  const rows = (table: string) =>
    store.query(
      `SELECT pool, toUInt32(at) AS at, lt, toUInt32(utime) AS utime, toString(reserve0) AS reserve0,
         toString(reserve1) AS reserve1 FROM ${table} FINAL ORDER BY pool, at`,
      z.object({
        pool: z.string(),
        at: z.coerce.number(),
        lt: z.string(),
        utime: z.coerce.number(),
        reserve0: z.string(),
        reserve1: z.string(),
      }),
    );
  let n = 0;
  for (const level of ["1h", "1d"]) {
    const sorted = await rows(`pool_state_rollup_${level}`);
    t.deepEqual(await rows(`pool_state_rollup_${level}_by_at`), sorted, level);
    n += sorted.length;
  }
  const raw = (table: string) =>
    store.query(
      `SELECT pool, toString(lt) AS lt, toString(cityHash64(*)) AS h FROM ${table} FINAL ORDER BY pool, lt`,
      z.object({ pool: z.string(), lt: z.string(), h: z.string() }),
    );
  const states = await raw("pool_states");
  t.deepEqual(await raw("pool_states_by_utime"), states, "raw states");
  return n;
}

/** Every wallet id is in the in-memory lookup the leg reads use (wallet_id_lookup), with the same id. */
export async function lookupAgrees(t: ExecutionContext, store: Store): Promise<number> {
  const rows = await store.query(
    `SELECT w.wallet AS wallet, w.id AS id, l.id AS looked_up
     FROM (SELECT wallet, id FROM wallet_ids FINAL) AS w LEFT JOIN wallet_id_lookup AS l ON w.wallet = l.wallet
     ORDER BY id
     SETTINGS join_use_nulls = 1`,
    z.object({ wallet: z.string(), id: z.coerce.number(), looked_up: z.coerce.number().nullable() }),
  );
  for (const r of rows) t.is(r.looked_up, r.id, r.wallet);
  return rows.length;
}
