/**
 * Pool states at time boundaries for the TVL history (api/queries/tvl.ts): each pool's last state at or
 * before the first boundary, then its last state in each later step (the first boundary at or after the
 * transaction's time: `first + ceil((utime − first) / step) · step`). Carried forward by the caller.
 *
 * Read from the pool-state rollups (infra/store/rollups.ts `rebuildStates`: per pool and hour or day
 * boundary `at`, the last state with utime in (at − step, at]) instead of scanning pool_states: the state
 * at `first` is the latest of the day rows up to the last day boundary ≤ first, the hour rows after it up to
 * the last hour boundary ≤ first, and the raw states after that; for every pool, the dense snapshot at the
 * last hour boundary written (migration 024: every pool's last state at or before it) and the raw states
 * after it, when that boundary is at most a day before `first`. Later steps read the level their step and
 * first boundary are aligned to (days, hours, else the raw states).
 *
 * No FINAL: every read keeps the greatest lt per pool (and step), which is what FINAL would keep of the
 * rollups (ReplacingMergeTree(lt)), and of pool_states a copy of a (pool, lt) row is the same state (the
 * state after a pool's transaction is a function of the pool's transactions: processors/README.md,
 * batch-independence), so any copy will do. FINAL over pool_states without its key costs seconds on the
 * 10M-state bulk store (2.2 s for the states of one hour); a key-less range read costs milliseconds.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import { DAY, HOUR, STATE_SNAPSHOTS } from "../../../infra/store/rollups.ts";
import type { PoolStatePoint, PoolStateTimelineQuery } from "../../read-model.ts";
import { str } from "./common.ts";
import { int, rowReader, text } from "./fast-row.ts";
import { CURVE_COLUMNS, readCurveState } from "./pools.ts";
import { rollupDone } from "./rollup-status.ts";

/** Only the curve's columns: a state row's fees, supply and lock value nothing (~30% of the read). */
const COLUMNS = `pool, lt, ${CURVE_COLUMNS}`;
const ts = (name: string) => `toDateTime({${name}:UInt32}, 'UTC')`;
/** Every pool, or only {pools} (on the tables' sorting key: pool first). */
const POOLS = "({allPools:UInt8} = 1 OR pool IN {pools:Array(String)})";

/**
 * The state rollups a read takes: sorted by time first when it reads every pool (a time range is one
 * contiguous range there: migration 016), sorted by pool first when it reads a few pools (by key).
 */
type Tables = { readonly day: string; readonly hour: string; readonly raw: string };
const EVERY_POOL: Tables = {
  day: "pool_state_rollup_1d_by_at",
  hour: "pool_state_rollup_1h_by_at",
  raw: "pool_states_by_utime",
};
const SOME_POOLS: Tables = { day: "pool_state_rollup_1d", hour: "pool_state_rollup_1h", raw: "pool_states" };

const STATE_LIST = CURVE_COLUMNS.split(",").map((c) => c.trim());

/**
 * Each pool's row with the greatest lt among `rows` (rows of COLUMNS), as the state at `first`: argMax per
 * pool (a hash aggregation) rather than sorting every wide row by (pool, lt) to keep the first of each pool.
 * By pool, as every timeline read: the caller prices the pools in the order it meets them, and a sum of
 * floats in another order can differ in its last bits.
 */
const latestPerPool = (rows: string) => `SELECT pool, s.1 AS lt,
  ${STATE_LIST.map((c, i) => `s.${i + 2} AS ${c}`).join(", ")}, {first:UInt32} AS point
FROM (SELECT pool, argMax((lt, ${CURVE_COLUMNS}), lt) AS s FROM (${rows}) GROUP BY pool)
ORDER BY pool`;

/**
 * Latest state per pool at `first`: day rows in (d1, d0], hour rows in (d0, h0], raw states in (h0, first].
 * The pools without a state since d1 (quiet for the whole look-back) are read apart, by key (OLDER_SQL).
 */
const beforeSql = (t: Tables) =>
  latestPerPool(`
  SELECT ${COLUMNS} FROM ${t.day} WHERE ${POOLS} AND at > ${ts("d1")} AND at <= ${ts("d0")}
  UNION ALL
  SELECT ${COLUMNS} FROM ${t.hour} WHERE ${POOLS} AND at > ${ts("d0")} AND at <= ${ts("h0")}
  UNION ALL
  SELECT ${COLUMNS} FROM ${t.raw} WHERE ${POOLS} AND utime > ${ts("h0")} AND utime <= ${ts("first")}`);

/**
 * Latest state per pool at `first` from the dense snapshot at boundary `f` (migration 024: every pool's last
 * state at or before it) and the raw states in (f, first]: one boundary's rows instead of the look-back.
 */
const SNAPSHOT_SQL = latestPerPool(`
  SELECT ${COLUMNS} FROM pool_state_at_hour WHERE at = ${ts("f")}
  UNION ALL
  SELECT ${COLUMNS} FROM ${EVERY_POOL.raw} WHERE utime > ${ts("f")} AND utime <= ${ts("first")}`);

/** The raw states a snapshot read takes at most (after that, the look-back of the rollups reads less). */
const SNAPSHOT_REACH = DAY;

/** The last day row at or before d1 of each of `pools`. */
const OLDER_SQL = latestPerPool(
  `SELECT ${COLUMNS} FROM pool_state_rollup_1d WHERE pool IN {pools:Array(String)} AND at <= ${ts("d1")}`,
);

/** How far back the first read looks for each pool's state (most pools trade weekly; the rest by key). */
export const LOOKBACK_DAYS = 7;

/** The first boundary `first + k·step` at or after `column` (> first), whatever `first`'s alignment. */
const point = (column: string) =>
  `toUInt32({first:UInt32} + intDiv(toUInt32(${column}) - {first:UInt32} + {step:UInt32} - 1, {step:UInt32}) * {step:UInt32})`;

/** Last state per pool and step after `first`, from a level whose boundaries the steps are made of. */
const withinSql = (table: string) => `SELECT ${COLUMNS}, ${point("at")} AS point
FROM ${table}
WHERE ${POOLS} AND at > ${ts("first")} AND at <= ${ts("until")}
ORDER BY pool, point, lt DESC
LIMIT 1 BY pool, point`;

const withinRawSql = (table: string) => `SELECT ${COLUMNS}, ${point("utime")} AS point
FROM ${table}
WHERE ${POOLS} AND utime > ${ts("first")} AND utime <= ${ts("until")}
ORDER BY pool, point, lt DESC
LIMIT 1 BY pool, point`;

/**
 * Read by hand (./fast-row.ts, pools.ts `readState`): a 30-day daily history is 36,000 rows of 13 state
 * columns, which zod took about a second to parse (the query: about 100 ms).
 */
const pointRow = rowReader(
  (r): PoolStatePoint => ({ pool: text(r, "pool"), at: int(r, "point"), state: readCurveState(r) }),
);
const poolRow = z.object({ pool: str });

/** The level the steps after `first` can be read from: every boundary of theirs is one of its boundaries. */
function withinLevel(first: number, step: number, t: Tables): string {
  const aligned = (unit: number) => first % unit === 0 && step % unit === 0;
  if (aligned(DAY)) return withinSql(t.day);
  if (aligned(HOUR)) return withinSql(t.hour);
  return withinRawSql(t.raw);
}

export async function selectPoolStateTimeline(
  store: Store,
  q: PoolStateTimelineQuery & {
    lookbackDays?: number;
    /** How old a read of the last snapshot boundary written may be (ms); 0: read it now. */
    snapshotMaxAgeMs?: number;
  },
): Promise<PoolStatePoint[]> {
  const d0 = Math.floor(q.first / DAY) * DAY;
  const h0 = Math.floor(q.first / HOUR) * HOUR;
  const d1 = d0 - (q.lookbackDays ?? LOOKBACK_DAYS) * DAY;
  const pools = { allPools: q.pools === undefined ? 1 : 0, pools: q.pools ?? [] };
  const window = { first: q.first, until: q.until, step: q.step, ...pools };
  const tables = q.pools === undefined ? EVERY_POOL : SOME_POOLS;
  // The pools that may be quiet for the whole look-back: the listed ones when the caller names them (one
  // statement fewer), else every pool with a day row before it.
  const listed = q.pools === undefined ? q.listed : undefined;
  // Every pool: the snapshot at the last hour boundary at or before `first` that is written, when the raw
  // states since it are few (the newest boundaries are written as the states come).
  const [status, later] = await Promise.all([
    q.pools === undefined ? rollupDone(store, STATE_SNAPSHOTS, q.snapshotMaxAgeMs) : 0,
    q.until > q.first ? store.query(withinLevel(q.first, q.step, tables), pointRow, window) : [],
  ]);
  const f = Math.min(h0, status);
  if (f > 0 && q.first - f <= SNAPSHOT_REACH) {
    return [...(await store.query(SNAPSHOT_SQL, pointRow, { first: q.first, f })), ...later];
  }
  const [recent, all] = await Promise.all([
    store.query(beforeSql(tables), pointRow, { first: q.first, d0, h0, d1, ...pools }),
    listed !== undefined
      ? listed.map((pool) => ({ pool }))
      : store.query(
          `SELECT DISTINCT pool FROM pool_state_rollup_1d WHERE ${POOLS} AND at <= {d1:UInt32}`,
          poolRow,
          { d1, ...pools },
        ),
  ]);
  const found = new Set(recent.map((r) => r.pool));
  const quiet = all.map((r) => r.pool).filter((p) => !found.has(p));
  const older =
    quiet.length === 0 ? [] : await store.query(OLDER_SQL, pointRow, { first: q.first, d1, pools: quiet });
  return [...recent, ...older, ...later];
}
