/**
 * Rollups (schemas/clickhouse/009_rollups.sql) kept exact by recomputing dirty buckets.
 *
 * A rollup row is a pure function of the deduplicated facts of its bucket: the minute rows are rebuilt
 * from `swaps FINAL` / `referral_fees FINAL` / `vault_withdrawals FINAL`, the hour rows from the minute
 * rows, the day rows from the hour rows, and ReplacingMergeTree(version) keeps the newest rewrite. So no
 * insert history (a re-delivered batch, an operation re-emitted with other contents in another batch) can
 * count a fact twice; the only duty is to rewrite every bucket whose facts changed, which `writeBatch`
 * does after a batch's facts and before its cursor, and `prepareRollups` does at start for facts written
 * after the stored cursor (a crash between the facts and the cursor). Proof in infra/README.md "Rollups".
 * The hour, day and state rows are copied, as they are inserted, into tables sorted by time for reads of
 * every pool (pool_rollup_{1h,1d}_by_bucket, pool_state_rollup_{1h,1d}_by_at: views of migrations 015, 023
 * and 016), so every rewrite here reaches them too. From the hour rows, every pool's state at each hour
 * boundary (migration 024) and its running sums before it (migration 025) are kept dense (`advanceHours`).
 */
import { z } from "zod";
import { type FactRows, poolStates } from "../../schemas/facts.ts";
import type { Store } from "./client.ts";

export const MINUTE = 60;
export const HOUR = 3600;
export const DAY = 86_400;

/** Minute starts (unix seconds) a batch's rows touch, per rollup family. */
export type DirtyBuckets = {
  readonly pool: readonly number[];
  readonly referral: readonly number[];
  /** The pools whose swaps the batch holds (their rows alone change in those minutes); "all": not known. */
  readonly pools?: readonly string[] | "all";
  /** Minutes of the batch's pool states (the pool-state rollups); absent: none. */
  readonly state?: readonly number[];
  /** The pools of those states; "all": not known. */
  readonly statePools?: readonly string[] | "all";
  /** The time of the batch's earliest state (the first snapshot boundary it changes); absent: its minute. */
  readonly stateFrom?: number;
};

/** Whether a batch touches no rollup at all. */
export const isClean = (d: DirtyBuckets): boolean =>
  d.pool.length === 0 && d.referral.length === 0 && (d.state?.length ?? 0) === 0;

const floorTo = (t: number, step: number) => t - (((t % step) + step) % step);
const ceilTo = (t: number, step: number) => floorTo(t + step - 1, step);

function minutesOf(rows: readonly { utime: number }[] | undefined, into: Set<number>): void {
  for (const r of rows ?? []) into.add(floorTo(r.utime, MINUTE));
}

/** The buckets a batch's facts touch: swaps for the pool rollups, fees and withdrawals for the referral ones. */
export function dirtyBuckets(rows: FactRows): DirtyBuckets {
  const pool = new Set<number>();
  const referral = new Set<number>();
  minutesOf(rows.swaps, pool);
  minutesOf(rows.referral_fees, referral);
  minutesOf(rows.vault_withdrawals, referral);
  const pools = new Set<string>();
  for (const r of rows.swaps ?? []) if (r.pool !== null) pools.add(r.pool);
  const out = {
    pool: [...pool].sort((a, b) => a - b),
    referral: [...referral].sort((a, b) => a - b),
    pools: [...pools].sort(),
  };
  if ((rows.pool_states?.length ?? 0) === 0) return out;
  const state = new Set<number>();
  minutesOf(rows.pool_states, state);
  const statePools = [...new Set((rows.pool_states ?? []).map((r) => r.pool))].sort();
  const stateFrom = (rows.pool_states ?? []).reduce((t, r) => Math.min(t, r.utime), Number.POSITIVE_INFINITY);
  return { ...out, state: [...state].sort((a, b) => a - b), statePools, stateFrom };
}

/** The maker of a swap leg: the user wallet behind it (maker, else the route's sender, else the sender). */
const WALLET_SQL = "coalesce(maker, route_sender, sender, '')";

/**
 * The makers of the swap legs matching `where` (the same filter as swapLegsSql's, on the same aliases), read
 * without FINAL: a superset of the deduplicated legs' makers, which is all an id lookup or assignment needs.
 */
const walletsOfSql = (where: string) => `
  SELECT ${WALLET_SQL} AS wallet FROM (SELECT maker, route_sender, sender, ifNull(pool, '') AS pool, utime FROM swaps
  WHERE pool != '' AND (${where}))`;

/**
 * One executed-or-not swap leg per row, of the swaps matching `where` (applied inside, on the sorting key
 * `utime`, so FINAL reads only those granules) (no alias may hide a filtered column: ClickHouse resolves WHERE
 * names to SELECT aliases first, so the filters are written on the aliases), oriented on the pool's two router
 * wallets sorted as strings (token_a < token_b), so a bucket needs no join. What every pool rollup row
 * (second and minute, and through them hour and day) is aggregated from. `wallet_id` is the maker's dense id
 * (wallet_ids, looked up by key in its copy wallet_id_lookup: migration 018, `assignWalletIds`; a LEFT JOIN on
 * that table's primary key is a key lookup per maker); 0 only for a wallet not assigned yet (the rollup
 * rebuild assigns before it aggregates).
 */
export const swapLegsSql = (where: string) => `SELECT legs.*, ifNull(ids.id, 0) AS wallet_id FROM (
  SELECT ifNull(pool, '') AS pool, utime, dex, router,
    ifNull(offer_router_wallet, '') AS ow, ifNull(ask_router_wallet, '') AS aw,
    least(ow, aw) AS token_a, greatest(ow, aw) AS token_b,
    ${OK_SQL} AS ok,
    if(ow = token_a, amount_in, ifNull(amount_out, toUInt256(0))) AS amount_a,
    if(ow = token_a, ifNull(amount_out, toUInt256(0)), amount_in) AS amount_b,
    if(aw = token_a, ifNull(protocol_fee, toUInt256(0)), toUInt256(0)) AS protocol_fee_a,
    if(aw = token_a, toUInt256(0), ifNull(protocol_fee, toUInt256(0))) AS protocol_fee_b,
    protocol_fee IS NULL AS protocol_fee_null,
    if(aw = token_a, ifNull(referral_fee, toUInt256(0)), toUInt256(0)) AS referral_fee_a,
    if(aw = token_a, toUInt256(0), ifNull(referral_fee, toUInt256(0))) AS referral_fee_b,
    ${WALLET_SQL} AS wallet,
    (mc_seqno, lt, id) AS ord,
    if(amount_a > 0 AND amount_b > 0, toFloat64(amount_b) / toFloat64(amount_a), NULL) AS price,
    ${USD_LEG_SQL}
  FROM swaps FINAL
  WHERE pool != '' AND (${where})) AS legs
  LEFT JOIN wallet_id_lookup AS ids ON legs.wallet = ids.wallet`;

/** Whether a leg executed: the pool paid an output. */
const OK_SQL = "ifNull(amount_out > 0, false)";
/** A leg's USD columns: its values (0 when unknown) and whether its tracked volume is unknown. */
const USD_LEG_SQL = `ifNull(volume_usd, 0) AS leg_volume_usd, volume_usd IS NULL AS leg_volume_usd_null,
    ifNull(untracked_volume_usd, 0) AS leg_untracked_volume_usd, ifNull(lp_fee_usd, 0) AS leg_lp_fee_usd`;

/**
 * The legs matching `where` with only what the DEX-wide rows take (executed or not, the maker's id, the USD
 * columns), defined as in swapLegsSql: the pools' sides and amounts are not computed.
 */
const dexLegsSql = (where: string) => `SELECT legs.*, ifNull(ids.id, 0) AS wallet_id FROM (
    SELECT utime, ${OK_SQL} AS ok, ${WALLET_SQL} AS wallet, ${USD_LEG_SQL}
    FROM swaps FINAL WHERE pool != '' AND (${where})) AS legs
  LEFT JOIN wallet_id_lookup AS ids ON legs.wallet = ids.wallet`;

/** Each pool rollup column aggregated from legs (swapLegsSql), in the table's column order. */
const LEG_AGGREGATES = {
  dex: "any(dex)",
  router: "any(router)",
  token_a: "anyIf(token_a, token_a != '')",
  token_b: "anyIf(token_b, token_b != '')",
  trades: "countIf(ok)",
  not_executed: "countIf(NOT ok)",
  volume_a: "sumIf(amount_a, ok)",
  volume_b: "sumIf(amount_b, ok)",
  protocol_fee_a: "sumIf(protocol_fee_a, ok)",
  protocol_fee_b: "sumIf(protocol_fee_b, ok)",
  protocol_fee_unknown: "countIf(ok AND protocol_fee_null)",
  referral_fee_a: "sumIf(referral_fee_a, ok)",
  referral_fee_b: "sumIf(referral_fee_b, ok)",
  wallet_bitmap: "groupBitmapStateIf(wallet_id, ok)",
  open: "argMinStateIf((amount_a, amount_b), ord, ok)",
  close: "argMaxStateIf((amount_a, amount_b), ord, ok)",
  high: "max(if(ok, price, NULL))",
  low: "min(if(ok, price, NULL))",
  volume_usd: "sumIf(leg_volume_usd, ok)",
  untracked_volume_usd: "sumIf(leg_untracked_volume_usd, ok)",
  lp_fee_usd: "sumIf(leg_lp_fee_usd, ok)",
  volume_usd_unknown: "countIf(ok AND leg_volume_usd_null)",
} as const;

export type LegAggregate = keyof typeof LEG_AGGREGATES;

/** The aggregates of `columns` only, each `AS` its column. */
const legAggregatesSql = (columns: readonly LegAggregate[]) =>
  columns.map((c) => `${LEG_AGGREGATES[c]} AS ${c}`).join(", ");

/** Aggregates of legs (swapLegsSql) into one rollup row's columns, in the table's column order. */
export const LEG_AGGREGATES_SQL = legAggregatesSql(Object.keys(LEG_AGGREGATES) as LegAggregate[]);

/**
 * The last executed leg of legs (swapLegsSql) as plain (amount_a, amount_b), (0, 0) without one: the `close`
 * aggregate finalized, which is what the minute, hour and day rows' `last_trade` is (migration 015).
 */
const LAST_TRADE_SQL = "argMaxIf((amount_a, amount_b), ord, ok)";

/** Rollup rows of a finer level merged into the same columns (hour from minutes, day from hours). */
export const POOL_MERGE_SQL = `
    any(dex) AS dex, any(router) AS router, anyIf(token_a, token_a != '') AS token_a,
    anyIf(token_b, token_b != '') AS token_b,
    sum(trades) AS trades, sum(not_executed) AS not_executed,
    sum(volume_a) AS volume_a, sum(volume_b) AS volume_b,
    sum(protocol_fee_a) AS protocol_fee_a, sum(protocol_fee_b) AS protocol_fee_b,
    sum(protocol_fee_unknown) AS protocol_fee_unknown,
    sum(referral_fee_a) AS referral_fee_a, sum(referral_fee_b) AS referral_fee_b,
    groupBitmapMergeState(wallet_bitmap) AS wallet_bitmap,
    argMinMergeState(open) AS open, argMaxMergeState(close) AS close,
    max(high) AS high, min(low) AS low,
    sum(volume_usd) AS volume_usd, sum(untracked_volume_usd) AS untracked_volume_usd,
    sum(lp_fee_usd) AS lp_fee_usd, sum(volume_usd_unknown) AS volume_usd_unknown`;

/** Accruals (referral_fees) and withdrawals (vault_withdrawals) that happened, one row each. */
export const referralEventsSql = (where: string) => `
  SELECT ifNull(referrer, '') AS referrer, utime, ifNull(asset_router_wallet, '') AS asset_router_wallet,
    dex, asset_kind, asset_master, amount AS accrued_amount, toUInt256(0) AS withdrawn_amount,
    true AS is_accrual, amount_usd
  FROM referral_fees FINAL WHERE referrer != '' AND success = true AND (${where})
  UNION ALL
  SELECT ifNull(owner, '') AS referrer, utime, ifNull(asset_router_wallet, '') AS asset_router_wallet,
    dex, asset_kind, asset_master, toUInt256(0) AS accrued_amount, amount AS withdrawn_amount,
    false AS is_accrual, amount_usd
  FROM vault_withdrawals FINAL WHERE referrer != '' AND success = true AND (${where})`;

/** Per referrer and asset: exact raw sums, and USD sums with the number of events that have no USD value. */
export const REFERRAL_AGGREGATES_SQL = `
    any(dex) AS dex, any(asset_kind) AS asset_kind, any(asset_master) AS asset_master,
    sum(accrued_amount) AS accrued, countIf(is_accrual) AS accruals,
    sum(withdrawn_amount) AS withdrawn, countIf(NOT is_accrual) AS withdrawals,
    sumIf(ifNull(amount_usd, 0), is_accrual) AS accrued_usd,
    countIf(is_accrual AND amount_usd IS NULL) AS accrued_usd_unknown,
    sumIf(ifNull(amount_usd, 0), NOT is_accrual) AS withdrawn_usd,
    countIf(NOT is_accrual AND amount_usd IS NULL) AS withdrawn_usd_unknown`;

export const REFERRAL_MERGE_SQL = `
    any(dex) AS dex, any(asset_kind) AS asset_kind, any(asset_master) AS asset_master,
    sum(accrued) AS accrued, sum(accruals) AS accruals, sum(withdrawn) AS withdrawn, sum(withdrawals) AS withdrawals,
    sum(accrued_usd) AS accrued_usd, sum(accrued_usd_unknown) AS accrued_usd_unknown,
    sum(withdrawn_usd) AS withdrawn_usd, sum(withdrawn_usd_unknown) AS withdrawn_usd_unknown`;

/** Newest rewrite wins: microseconds of the engine's clock (rewrites of one bucket are sequential). */
const VERSION = "toUInt64(toUnixTimestamp64Micro(now64(6)))";

/** `bucket` column filter: inside [lo, hi) and, unless `all`, one of `buckets` (unix seconds). */
const inBuckets = (expr: string) =>
  `${expr} >= toDateTime({lo:UInt32}, 'UTC') AND ${expr} < toDateTime({hi:UInt32}, 'UTC')
   AND ({all:UInt8} = 1 OR has({buckets:Array(UInt32)}, toUInt32(STEP(${expr}))))`;

/** Pool rows to rewrite: those of the batch's pools (a pool's rows depend on its own facts alone). */
const POOL_KEYS = "({allPools:UInt8} = 1 OR pool IN {pools:Array(String)})";

type Family = {
  readonly prefix: "pool_rollup" | "referral_rollup" | "dex_rollup";
  readonly key: string;
  /** Extra filter of the coarser rebuilds (the pool family: only the dirty pools). */
  readonly keyFilter?: string;
  /** The minute rebuild from facts. */
  readonly fromFacts: string;
  readonly merge: string;
};

const POOL: Family = {
  prefix: "pool_rollup",
  key: "pool",
  fromFacts: `SELECT pool, toStartOfMinute(utime) AS bucket, ${LEG_AGGREGATES_SQL}, ${VERSION} AS version
    FROM (${swapLegsSql(`${inBuckets("utime").replace("STEP", "toStartOfMinute")} AND ${POOL_KEYS}`)})
    GROUP BY pool, bucket`,
  keyFilter: POOL_KEYS,
  merge: POOL_MERGE_SQL,
};

const REFERRAL: Family = {
  prefix: "referral_rollup",
  key: "referrer, asset_router_wallet",
  fromFacts: `SELECT referrer, toStartOfMinute(utime) AS bucket, asset_router_wallet, ${REFERRAL_AGGREGATES_SQL},
      ${VERSION} AS version
    FROM (${referralEventsSql(inBuckets("utime").replace("STEP", "toStartOfMinute"))})
    GROUP BY referrer, bucket, asset_router_wallet`,
  merge: REFERRAL_MERGE_SQL,
};

/** Every pool together, per bucket (DEX-wide figures without reading every pool's rows). */
const DEX: Family = {
  prefix: "dex_rollup",
  key: "",
  fromFacts: `SELECT toStartOfMinute(utime) AS bucket, countIf(ok) AS trades, countIf(NOT ok) AS not_executed,
      groupBitmapStateIf(wallet_id, ok) AS wallet_bitmap, sumIf(leg_volume_usd, ok) AS volume_usd,
      sumIf(leg_untracked_volume_usd, ok) AS untracked_volume_usd, sumIf(leg_lp_fee_usd, ok) AS lp_fee_usd,
      countIf(ok AND leg_volume_usd_null) AS volume_usd_unknown, ${VERSION} AS version
    FROM (${dexLegsSql(inBuckets("utime").replace("STEP", "toStartOfMinute"))})
    GROUP BY bucket`,
  merge: `sum(trades) AS trades, sum(not_executed) AS not_executed, groupBitmapMergeState(wallet_bitmap) AS wallet_bitmap,
    sum(volume_usd) AS volume_usd, sum(untracked_volume_usd) AS untracked_volume_usd,
    sum(lp_fee_usd) AS lp_fee_usd, sum(volume_usd_unknown) AS volume_usd_unknown`,
};

/** Columns of the rollup tables in insert order, per family (the SELECTs above produce them in this order). */
const COLUMNS: Record<Family["prefix"], string> = {
  pool_rollup:
    "pool, bucket, dex, router, token_a, token_b, trades, not_executed, volume_a, volume_b, protocol_fee_a, " +
    "protocol_fee_b, protocol_fee_unknown, referral_fee_a, referral_fee_b, wallet_bitmap, open, close, high, low, " +
    "volume_usd, untracked_volume_usd, lp_fee_usd, volume_usd_unknown, version",
  referral_rollup:
    "referrer, bucket, asset_router_wallet, dex, asset_kind, asset_master, accrued, accruals, withdrawn, withdrawals, " +
    "accrued_usd, accrued_usd_unknown, withdrawn_usd, withdrawn_usd_unknown, version",
  dex_rollup:
    "bucket, trades, not_executed, wallet_bitmap, volume_usd, untracked_volume_usd, lp_fee_usd, volume_usd_unknown, version",
};

function coarser(f: Family, from: "1m" | "1h", to: "1h" | "1d", step: string): string {
  const cols = COLUMNS[f.prefix];
  const select =
    f.prefix === "pool_rollup"
      ? `pool, ${step}(bucket) AS b, ${f.merge}`
      : f.prefix === "referral_rollup"
        ? `referrer, ${step}(bucket) AS b, asset_router_wallet, ${f.merge}`
        : `${step}(bucket) AS b, ${f.merge}`;
  return `INSERT INTO ${f.prefix}_${to} (${cols})
    SELECT ${select}, ${VERSION} AS version FROM ${f.prefix}_${from} FINAL
    WHERE ${inBuckets("bucket").replace("STEP", step)}${f.keyFilter === undefined ? "" : ` AND ${f.keyFilter}`}
    GROUP BY ${f.key === "" ? "b" : `${f.key}, b`}`;
}

/**
 * Gives every maker of the swaps in `minutes` (of `pools`) that has no id yet the next dense ids (from 1, in
 * address order within the call). Wallets that have one keep it, so running it again (a re-delivered batch,
 * the start-up catch-up, a backfill) assigns nothing twice. Correct with one writer at a time, which the
 * processor is (processors/README.md: one partition, one runtime reading it).
 * Then copies the ids of those makers into wallet_id_lookup (what swapLegsSql reads; a key that is there is
 * replaced with the same id): the ones just assigned, and any a crash left out between the two inserts (the
 * start-up catch-up rewrites the minutes after the cursor, so it copies them). The lookup only ever gets ids
 * from wallet_ids.
 */
async function assignWalletIds(store: Store, minutes: BucketSet, pools: Pools): Promise<void> {
  const where = `${inBuckets("utime").replace("STEP", "toStartOfMinute")} AND ${POOL_KEYS}`;
  await store.command(
    `INSERT INTO wallet_ids (wallet, id)
     SELECT wallet, toUInt32((SELECT max(id) FROM wallet_ids) + row_number() OVER (ORDER BY wallet)) AS id
     FROM (SELECT DISTINCT wallet FROM (${walletsOfSql(where)}))
     WHERE wallet NOT IN (SELECT wallet FROM wallet_ids WHERE wallet IN (${walletsOfSql(where)}))`,
    params(minutes, pools),
  );
  await store.command(
    `INSERT INTO wallet_id_lookup (wallet, id)
     SELECT wallet, id FROM wallet_ids WHERE wallet IN (${walletsOfSql(where)})`,
    params(minutes, pools),
  );
}

/** The state columns of a pool_states row (the rest place it: pool, lt, transaction, time). */
export const POOL_STATE_COLUMNS = Object.keys(poolStates.columns)
  .filter((c) => !["pool", "lt", "tx_hash", "mc_seqno", "utime"].includes(c))
  .join(", ");

/** The boundary a time belongs to as a state: the first multiple of `step` at or after it. */
const ceilSql = (expr: string, step: number) =>
  `toDateTime(intDiv(toUInt32(${expr}) + ${step - 1}, ${step}) * ${step}, 'UTC')`;

/**
 * Rewrites the pool-state rollups of the states in `minutes` (of `pools`): per pool and hour boundary `at`
 * the last state (greatest lt) with utime in (at − 1 h, at], then per day boundary the last of its hours.
 * A rebuild from part of a bucket writes a row with a smaller lt than a full one, and ReplacingMergeTree(lt)
 * keeps the greatest: every state is read by some rebuild, so the bucket's last state is always the one kept.
 * No FINAL: the greatest lt is picked anyway, and copies of a (pool, lt) state row are the same state (the
 * state after a pool transaction is a function of the pool's transactions: processors/README.md); FINAL
 * over pool_states costs about a second even on a few pools' keys (10M-state bulk store).
 */
async function rebuildStates(
  store: Store,
  minutes: BucketSet,
  pools: Pools,
  earliest: number = minutes.lo,
  snapshots = true,
): Promise<void> {
  const filter = `${inBuckets("utime").replace("STEP", "toStartOfMinute")} AND ${POOL_KEYS}`;
  await store.command(
    `INSERT INTO pool_state_rollup_1h (pool, at, lt, utime, ${POOL_STATE_COLUMNS})
     SELECT pool, ${ceilSql("utime", HOUR)} AS at, lt, utime, ${POOL_STATE_COLUMNS}
     FROM pool_states WHERE ${filter}
     ORDER BY pool, at, lt DESC LIMIT 1 BY pool, at`,
    params(minutes, pools),
  );
  // The days of those states (a state at t belongs to day ceil(t), through hour ceil(t)); their hours lie in
  // (ceil(lo) − 1 day, ceil(hi − 1)]; `days` names them unless every bucket is dirty.
  const days =
    minutes.buckets === "all"
      ? []
      : [...new Set(minutes.buckets.flatMap((m) => [ceilTo(m, DAY), ceilTo(m + MINUTE - 1, DAY)]))];
  await store.command(
    `INSERT INTO pool_state_rollup_1d (pool, at, lt, utime, ${POOL_STATE_COLUMNS})
     SELECT pool, ${ceilSql("at", DAY)} AS d, lt, utime, ${POOL_STATE_COLUMNS}
     FROM pool_state_rollup_1h
     WHERE at > toDateTime({lo:UInt32}, 'UTC') AND at <= toDateTime({hi:UInt32}, 'UTC') AND ${POOL_KEYS}
       AND ({all:UInt8} = 1 OR has({days:Array(UInt32)}, toUInt32(d)))
     ORDER BY pool, d, lt DESC LIMIT 1 BY pool, d`,
    {
      ...params(minutes, pools),
      lo: ceilTo(minutes.lo, DAY) - DAY,
      hi: ceilTo(minutes.hi - 1, DAY),
      days,
    },
  );
  // The snapshots from the first boundary these states are part of (that of the earliest state, or of
  // the first minute's first second), up to the last boundary at or before their last minute (unless the
  // caller advances them itself: `refreshRange`).
  if (snapshots)
    await advanceStateSnapshots(store, ceilTo(earliest, HOUR), floorTo(minutes.hi - MINUTE, HOUR));
}

/** Hours of a dense table written by one statement (a catch-up over months goes in steps, each recorded). */
const DENSE_HOURS_PER_STEP = 7 * 24;

/**
 * A table with a row per pool and hour boundary, each boundary's rows made from the boundary before and the
 * hour rows ending at it (`advanceHours`): the dense state snapshots (024) and the running sums (025).
 */
type DenseHours = {
  /** The rollup_status row holding the last boundary written in full; it only grows (readers take its max). */
  readonly status: string;
  /** The first boundary that can have rows (unix seconds; none: no row at all yet). */
  readonly firstSql: string;
  /** The time of the newest fact the rows are made of: no boundary after the last one at or before it. */
  readonly newestSql: string;
  /** INSERT of the boundaries {lo}..{hi} (hour multiples), given those of {before} = lo − 1 h; {after} = hi + 1 h. */
  readonly sql: string;
  /** What the progress lines name. */
  readonly what: string;
};

/**
 * Writes the boundaries of a dense table from the first one a write changed (`from`: null, none) or the
 * first not written yet, up to `to` (the last boundary at or before the batch's newest fact; null: no
 * bound but the newest fact stored, as always: never past the last boundary at or before it), or to the
 * last one written when that is later (a late fact rewrites up to it).
 * Exact given the rows of the boundary before, which by induction are (the first boundary has none before
 * it); a fact written later than its boundary is a dirty minute of its batch, so `from` reaches back to
 * it. Each step is recorded only once written, so a process killed inside one writes it again at the next
 * start (`prepareRollups`: the minutes after the cursor).
 */
async function advanceHours(
  store: Store,
  dense: DenseHours,
  from: number | null,
  to: number | null,
  log?: RollupLog,
): Promise<void> {
  const [status] = await store.query(
    `SELECT (SELECT max(value) FROM rollup_status WHERE name = {name:String}) AS done,
       ifNull((${dense.firstSql}), 0) AS first, ifNull((${dense.newestSql}), 0) AS newest`,
    denseStatusRow,
    { name: dense.status },
  );
  if (status === undefined || status.first === 0) return; // no fact yet
  const done = status.done > 0 ? status.done : null;
  // Never past the newest fact: a boundary after it is written when a fact reaches it.
  let end = Math.min(to ?? Number.POSITIVE_INFINITY, floorTo(status.newest, HOUR));
  if (done !== null) end = Math.max(end, done);
  let start = done === null ? status.first : done + HOUR;
  if (from !== null) start = Math.min(start, from);
  start = Math.max(start, status.first); // no boundary before the first one has rows
  const record = async (through: number) => {
    if (done !== null && through <= done) return;
    await store.insert("rollup_status", [
      { name: dense.status, value: through, written_at: Math.floor(Date.now() / 1000) },
    ]);
  };
  for (let lo = start; lo <= end; lo += DENSE_HOURS_PER_STEP * HOUR) {
    const hi = Math.min(lo + (DENSE_HOURS_PER_STEP - 1) * HOUR, end);
    await store.command(dense.sql, { lo, hi, before: lo - HOUR, after: hi + HOUR });
    await record(hi);
    log?.(
      { done: (hi - start) / HOUR + 1, hours: (end - start) / HOUR + 1 },
      `${dense.what}: ${(hi - start) / HOUR + 1}/${(end - start) / HOUR + 1} hours`,
    );
  }
  // Boundaries before the first fact's have no rows, and are written all the same.
  if (start > end) await record(end);
}

const denseStatusRow = z.object({
  done: z.coerce.number().int(),
  first: z.coerce.number().int(),
  newest: z.coerce.number().int(),
});

/** rollup_status: the last hour boundary whose dense state snapshot (migration 024) is written in full. */
export const STATE_SNAPSHOTS = "state_snapshots";

/**
 * The dense state snapshots (migration 024, pool_state_at_hour): per hour boundary, every pool's last state
 * at or before it. The rows of a boundary are those of the boundary before it, each pool's replaced by its
 * hour row at this boundary when it has one (the last state in (at − 1 h, at]): so every pool with a state at
 * or before the boundary has a row, its last state. The statement takes each pool's rows (its snapshot at
 * lo − 1 h, its hour rows in [lo, hi], the greatest lt of each boundary) in time order, each row repeated at
 * every boundary from its own to the one before the pool's next row (or hi).
 */
const STATE_SNAPSHOT_HOURS: DenseHours = {
  status: STATE_SNAPSHOTS,
  firstSql: "SELECT toUInt32(at) FROM pool_state_rollup_1h_by_at ORDER BY at LIMIT 1",
  newestSql: "SELECT toUInt32(utime) FROM pool_states_by_utime ORDER BY utime DESC LIMIT 1",
  what: "state snapshots",
  sql: `INSERT INTO pool_state_at_hour (pool, at, lt, utime, ${POOL_STATE_COLUMNS})
  SELECT pool, toDateTime(b, 'UTC') AS at, lt, utime, ${POOL_STATE_COLUMNS}
  FROM (
    SELECT *, leadInFrame(toUInt32(row_at), 1, {after:UInt32})
      OVER (PARTITION BY pool ORDER BY row_at ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_at
    FROM (
      SELECT pool, at AS row_at, lt, utime, ${POOL_STATE_COLUMNS} FROM pool_state_at_hour
      WHERE at = toDateTime({before:UInt32}, 'UTC')
      ORDER BY pool, lt DESC LIMIT 1 BY pool
      UNION ALL
      SELECT pool, at AS row_at, lt, utime, ${POOL_STATE_COLUMNS} FROM pool_state_rollup_1h_by_at
      WHERE at >= toDateTime({lo:UInt32}, 'UTC') AND at <= toDateTime({hi:UInt32}, 'UTC')
      ORDER BY pool, row_at, lt DESC LIMIT 1 BY pool, row_at
    )
  )
  ARRAY JOIN range(greatest(toUInt32(row_at), {lo:UInt32}), toUInt32(next_at), ${HOUR}) AS b`,
};

/** rollup_status: the last hour boundary whose running sums (migration 025) are written in full. */
export const POOL_SUMS = "pool_sums";

/**
 * The running sums' columns added boundary after boundary (migration 025), as the hour rows name them: every
 * sum of the pool statistics (api/queries/sql/stats.ts reads these and the makers' bitmap).
 */
export const POOL_SUM_COLUMNS = [
  "trades",
  "not_executed",
  "volume_a",
  "volume_b",
  "protocol_fee_a",
  "protocol_fee_b",
  "protocol_fee_unknown",
  "referral_fee_a",
  "referral_fee_b",
  "volume_usd",
  "untracked_volume_usd",
  "lp_fee_usd",
  "volume_usd_unknown",
] as const satisfies readonly LegAggregate[];

/**
 * The running sums (migration 025, pool_sums_at_hour): per hour boundary and pool, the sums of the pool's
 * legs before it. The row of a boundary is the pool's row at the boundary before plus its hour row ending
 * at this boundary (bucket = boundary − 1 h), so every pool with a leg before the boundary has a row. The
 * statement takes each pool's rows (its sums at lo − 1 h, its hour rows ending in [lo, hi]) in time order,
 * sums them up to each row (and keeps the last executed leg of the latest row with trades), and repeats
 * each row at every boundary from its own to the one before the pool's next row (or hi).
 */
const POOL_SUM_HOURS: DenseHours = {
  status: POOL_SUMS,
  firstSql: `SELECT toUInt32(bucket) + ${HOUR} FROM pool_rollup_1h_by_bucket ORDER BY bucket LIMIT 1`,
  newestSql: "SELECT toUInt32(utime) FROM swaps ORDER BY utime DESC LIMIT 1",
  what: "pool sums",
  sql: `INSERT INTO pool_sums_at_hour (at, pool, ${POOL_SUM_COLUMNS.join(", ")}, last_trade, last_trade_hour, hours, version)
  SELECT toDateTime(b, 'UTC') AS at, pool, ${POOL_SUM_COLUMNS.join(", ")},
    last.1 AS last_trade, toDateTime(last.2, 'UTC') AS last_trade_hour, hours, ${VERSION} AS version
  FROM (
    SELECT pool, row_at, ${POOL_SUM_COLUMNS.map((c) => `sum(add_${c}) OVER upto AS ${c}`).join(", ")},
      argMaxIf((add_last_trade, add_last_hour), row_at, add_trades > 0) OVER upto AS last,
      toUInt32(sum(add_hours) OVER upto) AS hours,
      leadInFrame(row_at, 1, {after:UInt32})
        OVER (PARTITION BY pool ORDER BY row_at ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_at
    FROM (
      SELECT pool, toUInt32(at) AS row_at, ${POOL_SUM_COLUMNS.map((c) => `${c} AS add_${c}`).join(", ")},
        last_trade AS add_last_trade, toUInt32(last_trade_hour) AS add_last_hour, hours AS add_hours
      FROM pool_sums_at_hour FINAL WHERE at = toDateTime({before:UInt32}, 'UTC')
      UNION ALL
      SELECT pool, toUInt32(toUInt32(bucket) + ${HOUR}) AS row_at,
        ${POOL_SUM_COLUMNS.map((c) => `${c} AS add_${c}`).join(", ")},
        last_trade AS add_last_trade, toUInt32(bucket) AS add_last_hour, toUInt32(1) AS add_hours
      FROM pool_rollup_1h_by_bucket FINAL
      WHERE bucket >= toDateTime({before:UInt32}, 'UTC') AND bucket < toDateTime({hi:UInt32}, 'UTC')
    )
    WINDOW upto AS (PARTITION BY pool ORDER BY row_at ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  )
  ARRAY JOIN range(greatest(row_at, {lo:UInt32}), next_at, ${HOUR}) AS b`,
};

/** The dense state snapshots (024) of every boundary from `from` (see `advanceHours`). */
const advanceStateSnapshots = (store: Store, from: number | null, to: number | null, log?: RollupLog) =>
  advanceHours(store, STATE_SNAPSHOT_HOURS, from, to, log);

/** The running sums (025) of every boundary from `from` (see `advanceHours`). */
const advancePoolSums = (store: Store, from: number | null, to: number | null, log?: RollupLog) =>
  advanceHours(store, POOL_SUM_HOURS, from, to, log);

/**
 * The swap legs a VWAP can be made of (analytics.md §7.4): executed, both amounts positive, a positive
 * `volume_usd` (the quote side at its price when one side is a quote), both masters known. Filters `swaps`
 * on its own column names; the priced pairs sum them, the API reads them raw at other instants
 * (api/queries/sql/pricing.ts).
 */
export const PRICED_LEG_SQL = `volume_usd > 0 AND amount_in > 0 AND amount_out > 0
  AND offer_master IS NOT NULL AND ask_master IS NOT NULL`;

/**
 * Rewrites the priced pairs (migration 021) of every hour boundary holding a minute of `minutes`: per
 * boundary `at` and (offer, ask) master pair, the legs of PRICED_LEG_SQL with utime in (at − 1 h, at],
 * summed from `swaps FINAL`. A pair stored at such a boundary that has no leg
 * there any more is rewritten with zeros (a retried batch that unpriced or moved its legs), so no old row
 * stays. A minute m holds the boundaries of its seconds: ceil(m) and ceil(m + 59 s).
 */
async function rebuildPricedPairs(store: Store, minutes: BucketSet): Promise<void> {
  const lo = ceilTo(minutes.lo, HOUR);
  const hi = ceilTo(minutes.hi - 1, HOUR);
  const ats =
    minutes.buckets === "all"
      ? []
      : [...new Set(minutes.buckets.flatMap((m) => [ceilTo(m, HOUR), ceilTo(m + MINUTE - 1, HOUR)]))];
  const inAts = (at: string) =>
    `${at} >= toDateTime({lo:UInt32}, 'UTC') AND ${at} <= toDateTime({hi:UInt32}, 'UTC')
     AND ({all:UInt8} = 1 OR has({ats:Array(UInt32)}, toUInt32(${at})))`;
  await store.command(
    `INSERT INTO priced_pairs_1h (at, offer_master, ask_master, amount_in, amount_out, volume_usd, trades, version)
     SELECT at, offer, ask, sum(a_in), sum(a_out), sum(usd), sum(n), ${VERSION}
     FROM (
       SELECT ${ceilSql("utime", HOUR)} AS at, assumeNotNull(offer_master) AS offer,
         assumeNotNull(ask_master) AS ask, amount_in AS a_in, assumeNotNull(amount_out) AS a_out,
         assumeNotNull(volume_usd) AS usd, toUInt64(1) AS n
       FROM swaps FINAL
       WHERE utime > toDateTime({from:UInt32}, 'UTC') AND utime <= toDateTime({hi:UInt32}, 'UTC') AND ${inAts("at")}
         AND ${PRICED_LEG_SQL}
       UNION ALL
       SELECT at, offer_master, ask_master, toUInt256(0), toUInt256(0), toFloat64(0), toUInt64(0)
       FROM priced_pairs_1h WHERE ${inAts("at")}
     )
     GROUP BY at, offer, ask`,
    { lo, hi, from: lo - HOUR, all: minutes.buckets === "all" ? 1 : 0, ats },
  );
}

export type BucketSet = {
  readonly lo: number;
  readonly hi: number;
  readonly buckets: readonly number[] | "all";
};

type Pools = readonly string[] | "all";

const params = (s: BucketSet, pools: Pools) => ({
  lo: s.lo,
  hi: s.hi,
  all: s.buckets === "all" ? 1 : 0,
  buckets: s.buckets === "all" ? [] : s.buckets,
  allPools: pools === "all" ? 1 : 0,
  pools: pools === "all" ? [] : pools,
});

/** Rewrites the minutes of `minutes` (then their hours and days) of one family from the facts. */
async function rebuild(store: Store, f: Family, minutes: BucketSet, pools: Pools = "all"): Promise<void> {
  const sql = `INSERT INTO ${f.prefix}_1m (${COLUMNS[f.prefix]}) ${f.fromFacts}`;
  await store.command(sql, params(minutes, pools));
  const hours = widen(minutes, HOUR);
  await store.command(coarser(f, "1m", "1h", "toStartOfHour"), params(hours, pools));
  await store.command(coarser(f, "1h", "1d", "toStartOfDay"), params(widen(hours, DAY), pools));
}

/**
 * The columns of the seconds rows (migration 026) aggregated from legs: every sum of the pool statistics and
 * the makers' bitmap (then `last_trade`).
 */
const SECOND_AGGREGATES: readonly LegAggregate[] = [...POOL_SUM_COLUMNS, "wallet_bitmap"];

/**
 * Rewrites the seconds rows (026) of the swaps in `minutes` (of `pools`): per pool and second, the aggregates
 * the minute rows have of the same legs. Whole minutes are rewritten, so every second of a dirty minute is.
 * After `assignWalletIds` (the bitmaps hold the makers' ids).
 */
async function rebuildSeconds(store: Store, minutes: BucketSet, pools: Pools): Promise<void> {
  await store.command(
    `INSERT INTO pool_rollup_1s (pool, bucket, ${SECOND_AGGREGATES.join(", ")}, last_trade, version)
     SELECT pool, utime AS bucket, ${legAggregatesSql(SECOND_AGGREGATES)}, ${LAST_TRADE_SQL} AS last_trade,
       ${VERSION} AS version
     FROM (${swapLegsSql(`${inBuckets("utime").replace("STEP", "toStartOfMinute")} AND ${POOL_KEYS}`)})
     GROUP BY pool, bucket`,
    params(minutes, pools),
  );
}

/** The coarser buckets holding `s`'s buckets. */
function widen(s: BucketSet, step: number): BucketSet {
  const lo = floorTo(s.lo, step);
  const hi = floorTo(s.hi - 1, step) + step;
  if (s.buckets === "all") return { lo, hi, buckets: "all" };
  return { lo, hi, buckets: [...new Set(s.buckets.map((b) => floorTo(b, step)))] };
}

function setOf(minutes: readonly number[]): BucketSet | null {
  if (minutes.length === 0) return null;
  const lo = minutes.reduce((a, b) => Math.min(a, b));
  const hi = minutes.reduce((a, b) => Math.max(a, b)) + MINUTE;
  return { lo, hi, buckets: minutes };
}

/** Rewrites every bucket in `dirty` (pool and DEX-wide from the swaps' minutes, referral from theirs). Idempotent: run it as often as wanted. */
export async function refreshRollups(store: Store, dirty: DirtyBuckets): Promise<void> {
  const pool = setOf(dirty.pool);
  if (pool !== null) {
    await assignWalletIds(store, pool, dirty.pools ?? "all");
    await rebuildSeconds(store, pool, dirty.pools ?? "all");
    await rebuild(store, POOL, pool, dirty.pools ?? "all");
    await rebuild(store, DEX, pool);
    await rebuildPricedPairs(store, pool);
    // The running sums from the first boundary after the first minute's hour, up to the last boundary at or
    // before the last minute.
    await advancePoolSums(store, floorTo(pool.lo, HOUR) + HOUR, floorTo(pool.hi - MINUTE, HOUR));
  }
  const referral = setOf(dirty.referral);
  if (referral !== null) await rebuild(store, REFERRAL, referral);
  const state = setOf(dirty.state ?? []);
  if (state !== null) await rebuildStates(store, state, dirty.statePools ?? "all", dirty.stateFrom);
}

/**
 * Rewrites every bucket in [lo, hi) (unix seconds) of every family, then (unless `dense` is false) the dense
 * tables from there: up to the last boundary written, when that is later (`advanceHours`).
 */
export async function refreshRange(
  store: Store,
  lo: number,
  hi: number,
  options: { dense?: boolean } = {},
): Promise<void> {
  const dense = options.dense !== false;
  const all: BucketSet = { lo: floorTo(lo, MINUTE), hi: floorTo(hi - 1, MINUTE) + MINUTE, buckets: "all" };
  await assignWalletIds(store, all, "all");
  await rebuildSeconds(store, all, "all");
  await rebuild(store, POOL, all);
  await rebuild(store, DEX, all);
  await rebuild(store, REFERRAL, all);
  await rebuildStates(store, all, "all", all.lo, dense);
  await rebuildPricedPairs(store, all);
  if (dense) await advancePoolSums(store, floorTo(all.lo, HOUR) + HOUR, floorTo(all.hi - MINUTE, HOUR));
}

const minuteRow = z.object({ m: z.coerce.number().int() });
const spanRow = z.object({ lo: z.coerce.number().int(), hi: z.coerce.number().int(), n: z.coerce.number() });
const statusRow = z.object({ value: z.coerce.number() });

/** Minutes of the facts written after masterchain block `after` (what a crash may have left unrolled). */
async function minutesAfter(store: Store, after: number): Promise<DirtyBuckets> {
  const q = (sql: string) => store.query(sql, minuteRow, { after });
  const m = (table: string) =>
    `SELECT DISTINCT toUInt32(toStartOfMinute(utime)) AS m FROM ${table} WHERE mc_seqno > {after:UInt32} ORDER BY m`;
  const pool = (await q(m("swaps"))).map((r) => r.m);
  const fees = await q(m("referral_fees"));
  const withdrawals = await q(m("vault_withdrawals"));
  const referral = [...new Set([...fees, ...withdrawals].map((r) => r.m))].sort((a, b) => a - b);
  const state = (await q(m("pool_states"))).map((r) => r.m);
  return { pool, referral, pools: "all", state, statePools: "all" };
}

/**
 * The rollup_status flag of a complete backfill, named after the rollup columns' generation: a migration
 * that adds rollup columns or tables bumps it (2: USD columns, migration 011; 3: layout and DEX-wide
 * rollups, migration 012; 4: wallet bitmaps and pool-state rollups, migration 014), so the next start
 * backfills again.
 */
export const BACKFILLED = "backfilled:4";
/**
 * The rollup_status flag of the priced pairs (migration 021) filled for the facts written before them: a data
 * dir backfilled under an earlier generation fills only this table (a full backfill, as of a fresh or older
 * data dir, fills it with the rest).
 */
export const PRICED_PAIRS_FILLED = "priced_pairs:1";
/** Likewise of the seconds rows (migration 026). */
export const POOL_SECONDS_FILLED = "pool_seconds:1";

export type RollupLog = (fields: Record<string, unknown>, message: string) => void;

/**
 * The pool states written after the stored cursor `after`, copied again into their copy sorted by time
 * (migration 022, filled by a view as each row is inserted). A process killed inside that insert can leave
 * the states stored and their copy not; a restart does not write those states again (its trackers resume
 * from the stored states: bin/pipeline.ts `buildCore`), so the copy would lack them for good. A copy of a
 * (pool, lt) row is the same state, so copying rows that are already there changes nothing.
 */
export async function recopyStatesAfter(store: Store, after: number): Promise<void> {
  await store.command(
    "INSERT INTO pool_states_by_utime SELECT * FROM pool_states WHERE mc_seqno > {after:UInt32}",
    { after },
  );
}

/**
 * At start, before the processor writes: a data dir whose facts predate the rollups is backfilled (day
 * by day, with a progress line, then recorded in rollup_status); one whose facts predate the priced pairs
 * (021) or the seconds rows (026) fills those alone, likewise; then the buckets of the facts
 * written after the stored cursor `after` are rewritten (a crash may have stored them without their
 * rollups; re-delivery would rewrite them too, but this does not depend on it). In every case the pool
 * states written after `after` are copied again (`recopyStatesAfter`).
 */
export async function prepareRollups(
  store: Store,
  options: { after: number | null; log: RollupLog; daysPerStep?: number },
): Promise<{ backfilled: boolean; minutes: number }> {
  await recopyStatesAfter(store, options.after ?? 0);
  const done = await store.query(
    "SELECT value FROM rollup_status FINAL WHERE name = {name:String}",
    statusRow,
    { name: BACKFILLED },
  );
  const flag = (name: string) => ({ name, value: 1, written_at: Math.floor(Date.now() / 1000) });
  if (done[0]?.value !== 1) {
    const step = (s: Store, lo: number, hi: number) => refreshRange(s, lo, hi, { dense: false });
    await backfill(store, options.log, options.daysPerStep ?? 7, ALL_FACTS_SPAN, step, "rollups");
    // The dense tables once, from their first boundary, after every step: each step's own advance would
    // rewrite every boundary from its week up to the last one written, which in a data dir written before
    // (a generation bumped, a store written without a start) is the newest: quadratic in the weeks.
    await advanceStateSnapshots(store, 0, null, options.log);
    await advancePoolSums(store, 0, null, options.log);
    await store.insert("rollup_status", [
      flag(BACKFILLED),
      flag(PRICED_PAIRS_FILLED),
      flag(POOL_SECONDS_FILLED),
    ]);
    return { backfilled: true, minutes: 0 };
  }
  // The tables added after a full backfill, each filled alone from the swaps once.
  for (const [name, what, rebuildAll] of [
    [PRICED_PAIRS_FILLED, "priced pairs", rebuildPricedPairs],
    [POOL_SECONDS_FILLED, "pool seconds", (s: Store, m: BucketSet) => rebuildSeconds(s, m, "all")],
  ] as const) {
    const filled = await store.query(
      "SELECT value FROM rollup_status FINAL WHERE name = {name:String}",
      statusRow,
      { name },
    );
    if (filled[0]?.value === 1) continue;
    const fill = (s: Store, lo: number, hi: number) =>
      rebuildAll(s, { lo: floorTo(lo, MINUTE), hi: floorTo(hi - 1, MINUTE) + MINUTE, buckets: "all" });
    await backfill(store, options.log, options.daysPerStep ?? 7, SWAPS_SPAN, fill, what);
    await store.insert("rollup_status", [flag(name)]);
  }
  const dirty = await minutesAfter(store, options.after ?? 0);
  await refreshRollups(store, dirty);
  // The state snapshots of a data dir from before them (migration 024), with a progress line: up to the
  // last boundary at or before the newest state (the writer advances them from there).
  await advanceStateSnapshots(store, null, null, options.log);
  // Likewise the running sums of a data dir from before them (migration 025).
  await advancePoolSums(store, null, null, options.log);
  return {
    backfilled: false,
    minutes: dirty.pool.length + dirty.referral.length + (dirty.state?.length ?? 0),
  };
}

/** The time span of every fact a rollup is made of; of the swaps alone (the priced pairs). */
const ALL_FACTS_SPAN = `SELECT toUInt32(min(t)) AS lo, toUInt32(max(t)) AS hi, count() AS n FROM (
  SELECT utime AS t FROM swaps UNION ALL SELECT utime FROM referral_fees
  UNION ALL SELECT utime FROM vault_withdrawals UNION ALL SELECT utime FROM pool_states)`;
const SWAPS_SPAN = "SELECT toUInt32(min(utime)) AS lo, toUInt32(max(utime)) AS hi, count() AS n FROM swaps";

/** Rewrites `fill` over the days of `spanSql`'s span, `daysPerStep` at a time, with a progress line each. */
async function backfill(
  store: Store,
  log: RollupLog,
  daysPerStep: number,
  spanSql: string,
  fill: (store: Store, lo: number, hi: number) => Promise<void>,
  what: string,
): Promise<void> {
  const [span] = await store.query(spanSql, spanRow);
  if (span === undefined || span.n === 0) {
    log({ days: 0 }, `${what}: nothing to backfill`);
    return;
  }
  const first = floorTo(span.lo, DAY);
  const end = floorTo(span.hi, DAY) + DAY;
  const days = (end - first) / DAY;
  const step = daysPerStep * DAY;
  const started = Date.now();
  for (let lo = first; lo < end; lo += step) {
    const hi = Math.min(lo + step, end);
    await fill(store, lo, hi);
    log(
      { done: (hi - first) / DAY, days, elapsedMs: Date.now() - started },
      `${what} backfill: ${(hi - first) / DAY}/${days} days`,
    );
  }
}

/** Half-open ranges [from, to) in unix seconds; an empty range has from = to. */
export type Range = readonly [number, number];

/**
 * A window [since, until] (inclusive seconds) cut into what each level serves: seconds rows (`raw`) for the
 * partial minutes at both ends, minute rows for the partial hours, hour rows for the partial days, day rows for the
 * rest. Every level gets two ranges (head and tail), days one; unused ranges are empty.
 */
export type WindowPieces = {
  readonly raw: readonly [Range, Range];
  readonly minute: readonly [Range, Range];
  readonly hour: readonly [Range, Range];
  readonly day: Range;
};

const EMPTY: Range = [0, 0];

export function windowPieces(since: number, until: number): WindowPieces {
  const end = until + 1;
  if (end <= since) return { raw: [EMPTY, EMPTY], minute: [EMPTY, EMPTY], hour: [EMPTY, EMPTY], day: EMPTY };
  const split = (lo: number, hi: number, step: number): { head: Range; inner: Range; tail: Range } | null => {
    const a = ceilTo(lo, step);
    const b = floorTo(hi, step);
    return a < b ? { head: [lo, a], inner: [a, b], tail: [b, hi] } : null;
  };
  const m = split(since, end, MINUTE);
  if (m === null)
    return { raw: [[since, end], EMPTY], minute: [EMPTY, EMPTY], hour: [EMPTY, EMPTY], day: EMPTY };
  const h = split(m.inner[0], m.inner[1], HOUR);
  if (h === null)
    return { raw: [m.head, m.tail], minute: [m.inner, EMPTY], hour: [EMPTY, EMPTY], day: EMPTY };
  const d = split(h.inner[0], h.inner[1], DAY);
  if (d === null)
    return { raw: [m.head, m.tail], minute: [h.head, h.tail], hour: [h.inner, EMPTY], day: EMPTY };
  return { raw: [m.head, m.tail], minute: [h.head, h.tail], hour: [d.head, d.tail], day: d.inner };
}

/**
 * The partial hours at both ends of [since, until] (inclusive seconds): what `windowPieces` gives the
 * seconds rows and the minute rows together, [since, first hour boundary) and [last hour boundary,
 * until + 1); the whole window (and an empty tail) when it holds no whole hour. The pool statistics take them
 * from the seconds rows at once: sorted by time, they are one or two hours of rows, while the minute rows of
 * every pool lie in pieces over the (pool, bucket) key (api/queries/sql/stats.ts).
 */
export function partialHours(since: number, until: number): readonly [Range, Range] {
  const end = until + 1;
  if (end <= since) return [EMPTY, EMPTY];
  const a = ceilTo(since, HOUR);
  const b = floorTo(end, HOUR);
  return a < b
    ? [
        [since, a],
        [b, end],
      ]
    : [[since, end], EMPTY];
}

/** The whole hours of [since, until] (inclusive seconds): [first hour boundary, last one), null when none. */
export function wholeHours(since: number, until: number): Range | null {
  const a = ceilTo(since, HOUR);
  const b = floorTo(until + 1, HOUR);
  return a < b ? [a, b] : null;
}

const putRanges = (out: Record<string, number>, prefix: string, ranges: readonly Range[]) =>
  ranges.forEach(([a, b], i) => {
    out[`${prefix}${2 * i}`] = a;
    out[`${prefix}${2 * i + 1}`] = b;
  });

/**
 * Bound parameters of `windowPieces` for `piecesWhere` (names r0..r3, m0..m3, h0..h3, d0, d1), and of
 * `partialHours` when given (e0..e3).
 */
export function piecesParams(w: WindowPieces, edges?: readonly [Range, Range]): Record<string, number> {
  const out: Record<string, number> = {};
  putRanges(out, "r", w.raw);
  putRanges(out, "m", w.minute);
  putRanges(out, "h", w.hour);
  putRanges(out, "d", [w.day]);
  if (edges !== undefined) putRanges(out, "e", edges);
  return out;
}

/** `column` inside the two ranges `prefix`0..3 (or the one range `prefix`0..1). */
export function piecesWhere(column: string, prefix: "r" | "m" | "h" | "d" | "e"): string {
  const range = (i: number) =>
    `(${column} >= toDateTime({${prefix}${i}:UInt32}, 'UTC') AND ${column} < toDateTime({${prefix}${i + 1}:UInt32}, 'UTC'))`;
  return prefix === "d" ? range(0) : `(${range(0)} OR ${range(2)})`;
}
