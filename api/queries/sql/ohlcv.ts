/**
 * Candles of one pool from its rollups (infra/store/rollups.ts): the level matching the timeframe, buckets
 * grouped `aggregate` at a time (epoch-aligned), high/low the extremes of the traded prices. Open/close are
 * the first/last trade by chain order (mc_seqno, lt, id): each row's `first_trade`/`last_trade` (its open and
 * close as plain pairs, migrations 015 and 018) of the group's earliest/latest row with trades, since a
 * pool's trades are in chain order in time (as the statistics' last trade: ./stats.ts) — no argMin/argMax
 * state, whose key holds the leg id, is merged. Intervals without an executed trade have no row. FINAL on
 * the (pool, bucket) sorting key; every value bound. Rows read by hand (./fast-row.ts): a month of hours is
 * 720 rows.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { RawAddress } from "../../read-model.ts";
import { big, str } from "./common.ts";
import { float, floatOrNull, int, rowReader, text, unsigned, unsignedPair } from "./fast-row.ts";

export const LEVEL_TABLES = {
  minute: "pool_rollup_1m",
  hour: "pool_rollup_1h",
  day: "pool_rollup_1d",
} as const;
export type Timeframe = keyof typeof LEVEL_TABLES;

const candlesSql = (table: string) => `SELECT
    toUInt32(intDiv(toUInt32(bucket), {step:UInt32}) * {step:UInt32}) AS t,
    anyIf(token_a, token_a != '') AS wallet_a, anyIf(token_b, token_b != '') AS wallet_b,
    argMinIf(first_trade, bucket, trades > 0) AS first, argMaxIf(last_trade, bucket, trades > 0) AS last,
    max(high) AS hi, min(low) AS lo,
    sum(volume_a) AS va, sum(volume_b) AS vb, sum(trades) AS n,
    sum(volume_usd) AS usd, sum(volume_usd_unknown) AS usd_unknown
  FROM ${table} FINAL
  WHERE pool = {pool:String}
    AND bucket >= toDateTime({from:UInt32}, 'UTC') AND bucket < toDateTime({before:UInt32}, 'UTC')
  GROUP BY t
  HAVING n > 0
  ORDER BY t DESC
  LIMIT {limit:UInt32}`;

const lastCloseSql = (table: string) => `SELECT
    anyIf(token_a, token_a != '') AS wallet_a, anyIf(token_b, token_b != '') AS wallet_b,
    any(last_trade) AS last
  FROM (
    SELECT token_a, token_b, last_trade FROM ${table} FINAL
    WHERE pool = {pool:String} AND bucket < toDateTime({before:UInt32}, 'UTC') AND trades > 0
    ORDER BY bucket DESC LIMIT 1
  )`;

const pair = z.tuple([big, big]);
export type CandleRow = {
  t: number;
  wallet_a: string;
  wallet_b: string;
  first: [bigint, bigint];
  last: [bigint, bigint];
  hi: number | null;
  lo: number | null;
  va: bigint;
  vb: bigint;
  n: number;
  usd: number;
  usd_unknown: number;
};
const candleRow = rowReader(
  (r): CandleRow => ({
    t: int(r, "t"),
    wallet_a: text(r, "wallet_a"),
    wallet_b: text(r, "wallet_b"),
    first: [...unsignedPair(r, "first")],
    last: [...unsignedPair(r, "last")],
    hi: floatOrNull(r, "hi"),
    lo: floatOrNull(r, "lo"),
    va: unsigned(r, "va"),
    vb: unsigned(r, "vb"),
    n: int(r, "n"),
    usd: float(r, "usd"),
    usd_unknown: int(r, "usd_unknown"),
  }),
);

const lastCloseRow = z.object({ wallet_a: str, wallet_b: str, last: pair });
export type LastCloseRow = z.infer<typeof lastCloseRow>;

/** Up to `limit` intervals with trades in [from, before), newest first. */
export function selectCandles(
  store: Store,
  q: { pool: RawAddress; timeframe: Timeframe; step: number; from: number; before: number; limit: number },
): Promise<CandleRow[]> {
  return store.query(candlesSql(LEVEL_TABLES[q.timeframe]), candleRow, {
    pool: q.pool,
    step: q.step,
    from: q.from,
    before: q.before,
    limit: q.limit,
  });
}

/** The last trade before `before` (to open a series that starts with empty intervals); null: none. */
export async function selectLastClose(
  store: Store,
  q: { pool: RawAddress; timeframe: Timeframe; before: number },
): Promise<LastCloseRow | null> {
  const [row] = await store.query(lastCloseSql(LEVEL_TABLES[q.timeframe]), lastCloseRow, {
    pool: q.pool,
    before: q.before,
  });
  return row === undefined || row.wallet_a === "" ? null : row;
}
