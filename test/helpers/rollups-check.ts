/**
 * The rollup tables against a naive GROUP BY over the deduplicated facts, written here from the figures'
 * definitions (README "Statistics"), not from infra/store/rollups.ts: per pool and epoch-aligned bucket of
 * a second, a minute, an hour and a day, the executed legs (the pool paid an output), both raw volumes (the pool's two
 * router wallets ordered as strings), the distinct makers and the last executed leg's amounts by chain order
 * (the hour rows also through their copy sorted by bucket); per pool and hour or day boundary, the lt of
 * its last state in the step (the state rollups and their copies sorted by time, and the raw states' copy
 * sorted by time equal to them row for row), and per pool and every hour boundary its last state at or
 * before it (the dense snapshots); per referrer, fee asset
 * and day, accruals and withdrawals. Where the facts equal the ground truth (test/helpers/facts-truth.ts), rollups equal to
 * them equal it too.
 */
import { z } from "zod";
import type { Store } from "../../infra/store/client.ts";

const LEVELS = [
  ["1s", 1],
  ["1m", 60],
  ["1h", 3_600],
  ["1d", 86_400],
] as const;

const u = z.union([z.string(), z.number()]).transform((v) => BigInt(v));
const poolBucket = z.object({
  pool: z.string(),
  b: u,
  trades: u,
  va: u,
  vb: u,
  wallets: u,
  last: z.tuple([u, u]),
});
const stateBucket = z.object({ pool: z.string(), at: u, lt: u });
const referralBucket = z.object({
  referrer: z.string(),
  b: u,
  wallet: z.string(),
  accrued: u,
  withdrawn: u,
  accrued_usd: z.coerce.number(),
  accrued_usd_unknown: u,
  withdrawn_usd: z.coerce.number(),
  withdrawn_usd_unknown: u,
});
/** Float USD sums: equal up to the order of additions. */
const NEAR_KEYS = ["accrued_usd", "withdrawn_usd", "usd"];

/** One row per swap leg of a pool, oriented on its two router wallets ordered as strings. */
const NAIVE_LEGS = `
    SELECT ifNull(pool, '') AS pool, utime, ifNull(amount_out, toUInt256(0)) > 0 AS ok,
      ifNull(offer_router_wallet, '') AS ow, ifNull(ask_router_wallet, '') AS aw,
      if(ow < aw, amount_in, ifNull(amount_out, toUInt256(0))) AS a,
      if(ow < aw, ifNull(amount_out, toUInt256(0)), amount_in) AS bv,
      coalesce(maker, route_sender, sender, '') AS maker, ifNull(volume_usd, 0) AS usd, mc_seqno, lt, id
    FROM swaps FINAL`;

const NAIVE_POOL = `
  SELECT pool, intDiv(toUnixTimestamp(utime), {s:UInt32}) * {s:UInt32} AS b,
    countIf(ok) AS trades, sumIf(a, ok) AS va, sumIf(bv, ok) AS vb, uniqExactIf(maker, ok) AS wallets,
    argMaxIf((a, bv), (mc_seqno, lt, id), ok) AS last
  FROM (${NAIVE_LEGS})
  WHERE pool != ''
  GROUP BY pool, b
  HAVING trades > 0`;

const rollupPool = (table: string) => `
  SELECT pool, toUnixTimestamp(bucket) AS b, sum(trades) AS trades, sum(volume_a) AS va,
    sum(volume_b) AS vb, groupBitmapMerge(wallet_bitmap) AS wallets, any(last_trade) AS last
  FROM ${table} FINAL
  GROUP BY pool, b
  HAVING trades > 0`;

/** Per pool and boundary: the greatest lt of its states in (boundary − step, boundary]. */
const NAIVE_STATE = `
  SELECT pool, intDiv(toUInt32(utime) + {s:UInt32} - 1, {s:UInt32}) * {s:UInt32} AS at, max(lt) AS lt
  FROM pool_states FINAL GROUP BY pool, at`;

const rollupState = (table: string) => `SELECT pool, toUInt32(at) AS at, lt FROM ${table} FINAL`;

const NAIVE_REFERRAL = `
  SELECT referrer, b, wallet, sum(accrued) AS accrued, sum(withdrawn) AS withdrawn,
    sumIf(ifNull(usd, 0), accrual) AS accrued_usd, countIf(accrual AND usd IS NULL) AS accrued_usd_unknown,
    sumIf(ifNull(usd, 0), NOT accrual) AS withdrawn_usd,
    countIf(NOT accrual AND usd IS NULL) AS withdrawn_usd_unknown
  FROM (
    SELECT ifNull(referrer, '') AS referrer, intDiv(toUnixTimestamp(utime), 86400) * 86400 AS b,
      ifNull(asset_router_wallet, '') AS wallet, amount AS accrued, toUInt256(0) AS withdrawn,
      amount_usd AS usd, true AS accrual
    FROM referral_fees FINAL WHERE ifNull(success, false) AND referrer != ''
    UNION ALL
    SELECT ifNull(owner, '') AS referrer, intDiv(toUnixTimestamp(utime), 86400) * 86400 AS b,
      ifNull(asset_router_wallet, '') AS wallet, toUInt256(0) AS accrued, amount AS withdrawn,
      amount_usd AS usd, false AS accrual
    FROM vault_withdrawals FINAL WHERE ifNull(success, false) AND referrer != '')
  GROUP BY referrer, b, wallet
  HAVING accrued > 0 OR withdrawn > 0`;

const ROLLUP_REFERRAL = `
  SELECT referrer, toUnixTimestamp(bucket) AS b, asset_router_wallet AS wallet, sum(accrued) AS accrued,
    sum(withdrawn) AS withdrawn, sum(accrued_usd) AS accrued_usd, sum(accrued_usd_unknown) AS accrued_usd_unknown,
    sum(withdrawn_usd) AS withdrawn_usd, sum(withdrawn_usd_unknown) AS withdrawn_usd_unknown
  FROM referral_rollup_1d FINAL
  GROUP BY referrer, b, wallet
  HAVING accrued > 0 OR withdrawn > 0`;

export type RollupsCheck = { checked: number; problems: string[] };

function compare<T extends Record<string, unknown>>(
  what: string,
  key: (r: T) => string,
  naive: readonly T[],
  rolled: readonly T[],
  problems: string[],
): number {
  const want = new Map(naive.map((r) => [key(r), r]));
  const got = new Map(rolled.map((r) => [key(r), r]));
  const text = (r: T | undefined, exact = true) =>
    r === undefined
      ? "none"
      : JSON.stringify(r, (k, v) =>
          typeof v === "bigint" ? `${v}` : !exact && NEAR_KEYS.includes(k) ? "≈" : v,
        );
  const near = (a: unknown, b: unknown) =>
    typeof a === "number" && typeof b === "number" && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  for (const k of new Set([...want.keys(), ...got.keys()])) {
    const [a, b] = [want.get(k), got.get(k)];
    const same =
      text(a, false) === text(b, false) &&
      NEAR_KEYS.every((f) => a === undefined || !(f in a) || near(a[f], b?.[f]));
    if (!same) problems.push(`${what} ${k}: facts ${text(a)}, rollup ${text(b)}`);
  }
  return want.size;
}

const HOUR = 3_600;

/**
 * The dense state snapshots (024): written up to the last hour boundary at or before the newest state, and
 * at every boundary up to there each pool with a state at or before it has one row, the lt of its last
 * state (here the running maximum, boundary after boundary, of the greatest lt of each hour's states).
 */
async function snapshotsMatchStates(store: Store, problems: string[]): Promise<number> {
  const [span] = await store.query(
    `SELECT toUInt32(min(utime)) AS lo, toUInt32(max(utime)) AS hi, count() AS n,
       (SELECT max(value) FROM rollup_status WHERE name = 'state_snapshots') AS done
     FROM pool_states FINAL`,
    z.object({ lo: z.coerce.number(), hi: z.coerce.number(), n: z.coerce.number(), done: z.coerce.number() }),
  );
  if (span === undefined || span.n === 0) return 0;
  const frontier = Math.floor(span.hi / HOUR) * HOUR;
  if (frontier < span.lo) return 0; // no boundary has a state yet
  if (span.done !== frontier) problems.push(`pool_state_at_hour written up to ${span.done}, not ${frontier}`);
  const hours = await store.query(NAIVE_STATE, stateBucket, { s: HOUR });
  // Per pool, the greatest lt of each hour's states (one row per pool and boundary), from its first hour on.
  const byPool = new Map<string, Map<bigint, bigint>>();
  for (const r of hours) byPool.set(r.pool, (byPool.get(r.pool) ?? new Map()).set(r.at, r.lt));
  const naive: z.infer<typeof stateBucket>[] = [];
  for (const [pool, ltAt] of byPool) {
    let last = 0n;
    const first = [...ltAt.keys()].reduce((a, b) => (b < a ? b : a));
    for (let at = first; at <= BigInt(frontier); at += BigInt(HOUR)) {
      const lt = ltAt.get(at);
      if (lt !== undefined && lt > last) last = lt;
      naive.push({ pool, at, lt: last });
    }
  }
  const rolled = await store.query(
    "SELECT pool, toUInt32(at) AS at, lt FROM pool_state_at_hour FINAL WHERE at <= toDateTime({f:UInt32}, 'UTC')",
    stateBucket,
    { f: frontier },
  );
  return compare("pool_state_at_hour", (r) => `${r.pool}@${r.at}`, naive, rolled, problems);
}

const sumsBucket = z.object({
  pool: z.string(),
  b: u,
  trades: u,
  failed: u,
  va: u,
  vb: u,
  usd: z.coerce.number(),
  last: z.tuple([u, u]),
  last_hour: u,
});

/**
 * The running sums (025): written up to the last hour boundary at or before the newest swap, and at every
 * boundary up to there each pool with a leg before it has one row, the sums of its legs before the boundary
 * (here added up, boundary after boundary, from each hour's legs) and its last executed leg and that leg's hour.
 */
async function sumsMatchLegs(store: Store, problems: string[]): Promise<number> {
  const [span] = await store.query(
    `SELECT toUInt32(max(utime)) AS hi, count() AS n,
       (SELECT max(value) FROM rollup_status WHERE name = 'pool_sums') AS done
     FROM swaps FINAL`,
    z.object({ hi: z.coerce.number(), n: z.coerce.number(), done: z.coerce.number() }),
  );
  if (span === undefined || span.n === 0) return 0;
  const hours = await store.query(
    `SELECT pool, intDiv(toUnixTimestamp(utime), 3600) * 3600 AS b, countIf(ok) AS trades,
       countIf(NOT ok) AS failed, sumIf(a, ok) AS va, sumIf(bv, ok) AS vb, sumIf(usd, ok) AS usd,
       argMaxIf((a, bv), (mc_seqno, lt, id), ok) AS last, b AS last_hour
     FROM (${NAIVE_LEGS}) WHERE pool != '' GROUP BY pool, b ORDER BY pool, b`,
    sumsBucket,
  );
  if (hours.length === 0) return 0;
  const frontier = BigInt(Math.floor(span.hi / HOUR) * HOUR);
  if (BigInt(span.done) !== frontier)
    problems.push(`pool_sums_at_hour written up to ${span.done}, not ${frontier}`);
  const byPool = new Map<string, z.infer<typeof sumsBucket>[]>();
  for (const r of hours) byPool.set(r.pool, [...(byPool.get(r.pool) ?? []), r]);
  const naive: z.infer<typeof sumsBucket>[] = [];
  for (const [pool, rows] of byPool) {
    const run = {
      pool,
      b: 0n,
      trades: 0n,
      failed: 0n,
      va: 0n,
      vb: 0n,
      usd: 0,
      last: [0n, 0n] as [bigint, bigint],
      last_hour: 0n,
    };
    let i = 0;
    for (let b = (rows[0]?.b ?? 0n) + BigInt(HOUR); b <= frontier; b += BigInt(HOUR)) {
      for (; i < rows.length && (rows[i] as z.infer<typeof sumsBucket>).b < b; i++) {
        const h = rows[i] as z.infer<typeof sumsBucket>;
        run.trades += h.trades;
        run.failed += h.failed;
        run.va += h.va;
        run.vb += h.vb;
        run.usd += h.usd;
        if (h.trades > 0n) [run.last, run.last_hour] = [h.last, h.b];
      }
      naive.push({ ...run, b });
    }
  }
  const rolled = await store.query(
    `SELECT pool, toUInt32(at) AS b, trades, not_executed AS failed, volume_a AS va, volume_b AS vb,
       toFloat64(volume_usd) AS usd, last_trade AS last, toUInt32(last_trade_hour) AS last_hour
     FROM pool_sums_at_hour FINAL WHERE at <= toDateTime({f:UInt32}, 'UTC')`,
    sumsBucket,
    { f: Number(frontier) },
  );
  return compare("pool_sums_at_hour", (r) => `${r.pool}@${r.b}`, naive, rolled, problems);
}

export async function rollupsMatchFacts(store: Store): Promise<RollupsCheck> {
  const problems: string[] = [];
  let checked = 0;
  const poolKey = (r: z.infer<typeof poolBucket>) => `${r.pool}@${r.b}`;
  for (const [level, seconds] of LEVELS) {
    const naive = await store.query(NAIVE_POOL, poolBucket, { s: seconds });
    // With the copies sorted by bucket (migrations 015 and 023).
    const tables = [
      `pool_rollup_${level}`,
      ...(level === "1s" || level === "1m" ? [] : [`pool_rollup_${level}_by_bucket`]),
    ];
    for (const table of tables) {
      const rolled = await store.query(rollupPool(table), poolBucket);
      checked += compare(table, poolKey, naive, rolled, problems);
    }
  }
  const stateKey = (r: z.infer<typeof stateBucket>) => `${r.pool}@${r.at}`;
  for (const [level, seconds] of LEVELS.filter(([l]) => l === "1h" || l === "1d")) {
    const naive = await store.query(NAIVE_STATE, stateBucket, { s: seconds });
    for (const table of [`pool_state_rollup_${level}`, `pool_state_rollup_${level}_by_at`]) {
      const rolled = await store.query(rollupState(table), stateBucket);
      checked += compare(table, stateKey, naive, rolled, problems);
    }
  }
  checked += await snapshotsMatchStates(store, problems);
  checked += await sumsMatchLegs(store, problems);
  // The raw states' copy sorted by time (022) holds every state row, unchanged.
  const stateRows = (table: string) =>
    store.query(
      `SELECT pool, toString(lt) AS lt, toString(cityHash64(*)) AS h FROM ${table} FINAL`,
      z.object({ pool: z.string(), lt: z.string(), h: z.string() }),
    );
  const rowKey = (r: { pool: string; lt: string }) => `${r.pool}@${r.lt}`;
  checked += compare(
    "pool_states_by_utime",
    rowKey,
    await stateRows("pool_states"),
    await stateRows("pool_states_by_utime"),
    problems,
  );
  // The copy the leg reads take maker ids from holds every id of wallet_ids, unchanged (018).
  const ids = await store.query(
    `SELECT w.wallet AS wallet, toString(w.id) AS id, toString(l.id) AS looked_up
     FROM (SELECT wallet, id FROM wallet_ids FINAL) AS w LEFT JOIN wallet_id_lookup AS l ON w.wallet = l.wallet
     SETTINGS join_use_nulls = 1`,
    z.object({ wallet: z.string(), id: z.string(), looked_up: z.string().nullable() }),
  );
  for (const r of ids) {
    if (r.looked_up !== r.id)
      problems.push(`wallet_id_lookup ${r.wallet}: id ${r.id}, lookup ${r.looked_up}`);
  }
  checked += ids.length;
  const refKey = (r: z.infer<typeof referralBucket>) => `${r.referrer}@${r.b}/${r.wallet}`;
  const naive = await store.query(NAIVE_REFERRAL, referralBucket);
  const rolled = await store.query(ROLLUP_REFERRAL, referralBucket);
  checked += compare("referral_rollup_1d", refKey, naive, rolled, problems);
  return { checked, problems };
}
