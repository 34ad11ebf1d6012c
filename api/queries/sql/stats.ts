/**
 * Statistics over the rollups (schemas/clickhouse/009_rollups.sql, infra/store/rollups.ts).
 *
 * A window [since, until] (inclusive seconds) is cut by `windowPieces`: the partial minutes at its ends are
 * read from the seconds rows (migration 026: the legs' aggregates per pool and second, written by the rollup
 * writer with the very expressions of the minute rows), the rest from minute, hour and day rows (FINAL on
 * their sorting key; for every pool, the hour and day rows of the copies sorted by bucket: migrations 015
 * and 023). The pool statistics take the whole partial hours from the seconds rows (`partialHours`), which
 * costs less than the minute rows of every pool (sorted by pool, they lie in pieces over two days' parts).
 * No statement reads the facts: every part is a plain range of rollup rows. All parts have the same
 * columns, so one UNION ALL merges them: sums add, `groupBitmapMerge` counts the distinct makers (their
 * dense ids) of the union exactly, and a pool's last trade is the plain `last_trade` of its latest row with
 * trades (no argMax state merged per row). Every value is a bound parameter.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import {
  type LegAggregate,
  POOL_SUM_COLUMNS,
  POOL_SUMS,
  partialHours,
  piecesParams,
  piecesWhere,
  REFERRAL_AGGREGATES_SQL,
  REFERRAL_MERGE_SQL,
  referralEventsSql,
  wholeHours,
  windowPieces,
} from "../../../infra/store/rollups.ts";
import type { RawAddress } from "../../read-model.ts";
import { big, nstr, str } from "./common.ts";
import { float, int, intOrNull, rowReader, text, textOrNull, unsigned, unsignedPair } from "./fast-row.ts";
import { rollupDone } from "./rollup-status.ts";

/**
 * The rollup columns the pool statistics read (candle columns aside), but for the last trade. Not the
 * pool's router and router wallets: they are the pool's, whatever the window, and the API has them in its
 * pool records (three strings per row were a quarter of every pool's statistics: 30 days on whole days,
 * bulk store, ~38 → ~29 ms); a pool whose record lacks them has them read apart (`selectPoolSides`).
 */
const POOL_AGGREGATES: readonly LegAggregate[] = [...POOL_SUM_COLUMNS, "wallet_bitmap"];
const POOL_VALUES = `${POOL_AGGREGATES.join(", ")}, last_trade`;

/** Every pool, or only {pools} (one pool's reads: on the sorting key of the tables sorted by pool). */
const POOL_FILTER = "({allPools:UInt8} = 1 OR pool IN {pools:Array(String)})";
const poolParams = (pools: readonly string[] | null) => ({
  allPools: pools === null ? 1 : 0,
  pools: pools ?? [],
});

/**
 * A part's rows with `at`: when its last trade happened, as far as ordering the parts goes (a row's bucket;
 * 0 without trades). The parts are disjoint in time, so the window's last trade of a pool is the
 * last_trade of its row with the greatest `at` (a pool's trades are in chain order in time, as the candles'
 * last close also reads them: ./ohlcv.ts). `e`: the partial hours, from the seconds rows.
 */
const rollupPart = (table: string, level: "e" | "h" | "d") =>
  `SELECT pool, ${POOL_VALUES}, if(trades > 0, bucket, toDateTime(0, 'UTC')) AS at
   FROM ${table} FINAL WHERE ${POOL_FILTER} AND ${piecesWhere("bucket", level)}`;

/** The rows of each second with a leg (migration 026), sorted by (bucket, pool). */
const SECONDS = "pool_rollup_1s";

/** The hour and day rows a read of one pool (by key) or of every pool (the copies sorted by bucket) takes. */
type PoolTables = { readonly hour: string; readonly day: string };
const ONE_POOL: PoolTables = { hour: "pool_rollup_1h", day: "pool_rollup_1d" };
const EVERY_POOL: PoolTables = { hour: "pool_rollup_1h_by_bucket", day: "pool_rollup_1d_by_bucket" };

/**
 * Every part of the window, one row per (part row, pool): the partial hours' seconds rows, then hour and
 * day rows. The hour and day rows of every pool are read from the copies sorted by bucket (one contiguous
 * range each: the day rows of a 30-day window of every pool, bulk store, SQL alone at odd seconds, 77 → 66
 * ms, with the makers 180 → 135 ms; on whole days 74 → 54 and 150 → 86 ms), one pool's from the tables
 * sorted by pool. Only the parts the window has are in the statement (a window of whole hours or days has
 * no partial hours). The partial hours were aggregated from the legs at read time before the seconds rows:
 * on the embedded engine, analysing the legs' expressions and their aggregates cost ~10 ms a statement,
 * with reading swaps FINAL and looking up the makers' ids on top (bulk store, 30 days of every pool at odd
 * seconds, the statement without the makers: ~41 → ~31 ms).
 */
const poolParts = (tables: PoolTables, has: Present) =>
  unionOf([
    has.edges && rollupPart(SECONDS, "e"),
    has.hour && rollupPart(tables.hour, "h"),
    has.day && rollupPart(tables.day, "d"),
  ]);

/** The type each running sum's difference is read as: that of the same column of the other parts. */
const SUM_TYPES: Partial<Record<LegAggregate, string>> = {
  trades: "toUInt64",
  not_executed: "toUInt64",
  protocol_fee_unknown: "toUInt64",
  volume_usd_unknown: "toUInt64",
  volume_usd: "toFloat64",
  untracked_volume_usd: "toFloat64",
  lp_fee_usd: "toFloat64",
};
/** A running sum's difference between the boundaries (raw amounts: UInt256). */
const sumDiff = (c: LegAggregate) =>
  `${SUM_TYPES[c] ?? "toUInt256"}(sumIf(${c}, late) - sumIf(${c}, NOT late)) AS ${c}`;
const USD_SUMS = ["volume_usd", "untracked_volume_usd", "lp_fee_usd"] as const;
/**
 * Whether a USD difference may be off by more than 1e-9 of it plus 1e-6 USD. The writer makes each running
 * sum from the one before it, one float addition per hour row (the boundary's `hours` counts them), so the
 * sums at s2 are those at s1 plus the window's hour rows, each addition off by at most 2^-53 of its result
 * (at most the sum at s2: the values are not negative); with the subtraction's own rounding, the difference
 * is off by at most (additions between the boundaries + 1) · 2^-53 · the sum at s2. A pool whose earlier
 * sums dwarf the window (a leg of absurd USD value before it, months of millions before a few cents) fails
 * the test and is read from its rows.
 */
const usdInexact = (c: (typeof USD_SUMS)[number]) =>
  `(sumIf(hours, late) - sumIf(hours, NOT late) + 1) * anyIf(sum_${c}, late) * ${2 ** -53} > 1e-9 * ${c} + 1e-6`;

/**
 * The whole hours [s1, s2) of every pool: its running sums at s2 less those at s1 (migration 025: the sums of
 * its legs before each boundary), for the pools with a leg in between; no makers (an empty bitmap); the last
 * trade is the one before s2 when there is a trade in between, ordered by its hour's start. `inexact`: a
 * pool whose USD differences may not be exact enough (`selectPoolStats` reads it from its rows instead).
 */
const SUMS_PART = `SELECT pool,
    ${POOL_AGGREGATES.map((c) => (c === "wallet_bitmap" ? "groupBitmapStateIf(toUInt32(0), false) AS wallet_bitmap" : sumDiff(c))).join(",\n    ")},
    anyIf(last_trade, late) AS last_trade,
    if(trades > 0, anyIf(last_trade_hour, late), toDateTime(0, 'UTC')) AS at,
    toUInt8(${USD_SUMS.map(usdInexact).join(" OR ")}) AS inexact
  FROM (
    SELECT *, at = toDateTime({s2:UInt32}, 'UTC') AS late,
      ${USD_SUMS.map((c) => `${c} AS sum_${c}`).join(", ")}
    FROM pool_sums_at_hour FINAL
    WHERE at IN (toDateTime({s1:UInt32}, 'UTC'), toDateTime({s2:UInt32}, 'UTC'))
  )
  GROUP BY pool
  HAVING trades > 0 OR not_executed > 0`;

/**
 * Which parts a window has (infra/store/rollups.ts `windowPieces`, `partialHours`): a statement
 * reads only those. `edges` are the partial hours the pool statistics read from the seconds rows; `raw`
 * and `minute` the partial minutes and hours the DEX totals read from the seconds and the minute rows.
 */
type Present = { edges: boolean; raw: boolean; minute: boolean; hour: boolean; day: boolean };

const nonEmpty = (ranges: readonly (readonly [number, number])[]) => ranges.some(([a, b]) => a < b);

function presentIn(w: Window): Present {
  const pieces = windowPieces(w.since, w.until);
  return {
    edges: nonEmpty(partialHours(w.since, w.until)),
    raw: nonEmpty(pieces.raw),
    minute: nonEmpty(pieces.minute),
    hour: nonEmpty(pieces.hour),
    day: nonEmpty([pieces.day]),
  };
}

/** The parts given joined by UNION ALL; a window always has one (since ≤ until: at least one second). */
function unionOf(parts: readonly (string | false)[]): string {
  const present = parts.filter((p): p is string => p !== false);
  if (present.length === 0) throw new Error("a window of at least one second has a part");
  return present.join("\n  UNION ALL ");
}

/** Each statement built once per combination of parts (at most 2^4 of each). */
function memoByParts(build: (has: Present) => string): (has: Present) => string {
  const built = new Map<string, string>();
  return (has) => {
    const key = `${+has.edges}${+has.raw}${+has.minute}${+has.hour}${+has.day}`;
    let sql = built.get(key);
    if (sql === undefined) {
      sql = build(has);
      built.set(key, sql);
    }
    return sql;
  };
}

/**
 * Each pool's sums, and its distinct makers when `wallets` (else NULL): merging a wallet bitmap per pool and
 * part is most of the cost of every pool's statistics (30 days on the bulk store: ~55 of ~90 ms), and the
 * engine then reads no bitmap at all.
 */
const poolTotals = (wallets: boolean) => `
    sum(trades) AS trades, sum(not_executed) AS not_executed,
    sum(volume_a) AS volume_a, sum(volume_b) AS volume_b,
    sum(protocol_fee_a) AS protocol_fee_a, sum(protocol_fee_b) AS protocol_fee_b,
    sum(protocol_fee_unknown) AS protocol_fee_unknown,
    sum(referral_fee_a) AS referral_fee_a, sum(referral_fee_b) AS referral_fee_b,
    ${wallets ? "groupBitmapMerge(wallet_bitmap)" : "NULL"} AS unique_wallets,
    sum(volume_usd) AS volume_usd, sum(untracked_volume_usd) AS untracked_volume_usd,
    sum(lp_fee_usd) AS lp_fee_usd, sum(volume_usd_unknown) AS volume_usd_unknown`;

const poolStatsSql = (parts: string, wallets: boolean) => `SELECT pool, ${poolTotals(wallets)},
    argMax(last_trade, at) AS last
  FROM (${parts})
  GROUP BY pool
  ORDER BY pool`;
const onePoolStatsSql = memoByParts((has) => poolStatsSql(poolParts(ONE_POOL, has), true));
const allPoolStatsWithWalletsSql = memoByParts((has) => poolStatsSql(poolParts(EVERY_POOL, has), true));
const allPoolStatsWithoutWalletsSql = memoByParts((has) => poolStatsSql(poolParts(EVERY_POOL, has), false));
const allPoolStatsSql = (wallets: boolean) =>
  wallets ? allPoolStatsWithWalletsSql : allPoolStatsWithoutWalletsSql;
/**
 * Every pool without the makers, the whole hours from the running sums: the partial hours and SUMS_PART,
 * with each pool's `inexact`.
 */
const allPoolStatsFromSumsSql = memoByParts(
  (has) => `SELECT pool, ${poolTotals(false)}, argMax(last_trade, at) AS last, max(inexact) AS inexact
  FROM (${unionOf([has.edges && `SELECT *, toUInt8(0) AS inexact FROM (${rollupPart(SECONDS, "e")})`, SUMS_PART])})
  GROUP BY pool
  ORDER BY pool`,
);
/** A few pools without the makers, from their hour and day rows by key (the pools `inexact` above). */
const somePoolStatsSql = memoByParts((has) => poolStatsSql(poolParts(ONE_POOL, has), false));

const WIDE_AGGREGATES: readonly LegAggregate[] = [
  "trades",
  "not_executed",
  "wallet_bitmap",
  "volume_usd",
  "untracked_volume_usd",
  "lp_fee_usd",
  "volume_usd_unknown",
];
const WIDE_VALUES = WIDE_AGGREGATES.join(", ");
const WIDE_TOTALS = `sum(trades) AS trades, sum(not_executed) AS not_executed, groupBitmapMerge(wallet_bitmap) AS unique_wallets,
    sum(volume_usd) AS volume_usd, sum(untracked_volume_usd) AS untracked_volume_usd,
    sum(lp_fee_usd) AS lp_fee_usd, sum(volume_usd_unknown) AS volume_usd_unknown`;
/** DEX-wide rows of a level, or (`r`) every pool's seconds rows of the partial minutes. */
const widePart = (table: string, level: "r" | "m" | "h" | "d", values = WIDE_VALUES) =>
  `SELECT ${values} FROM ${table} FINAL WHERE ${piecesWhere("bucket", level)}`;

/**
 * The DEX-wide parts of a window, with `values` of each: every pool's seconds rows for the partial minutes,
 * then the DEX-wide minute, hour and day rows (keyed by bucket alone).
 */
const dexParts = (has: Present, values = WIDE_VALUES) =>
  unionOf([
    has.raw && widePart(SECONDS, "r", values),
    has.minute && widePart("dex_rollup_1m", "m", values),
    has.hour && widePart("dex_rollup_1h", "h", values),
    has.day && widePart("dex_rollup_1d", "d", values),
  ]);

/** One pool's totals from its rows; every pool's from the DEX-wide parts. */
const poolTotalsSql = memoByParts((has) => `SELECT ${WIDE_TOTALS} FROM (${poolParts(ONE_POOL, has)})`);
const dexTotalsSql = memoByParts((has) => `SELECT ${WIDE_TOTALS} FROM (${dexParts(has)})`);
/**
 * The distinct makers of every pool alone (their bitmaps, no sum): all that every pool's list answers
 * beside its rows.
 */
const dexWalletsSql = memoByParts(
  (has) =>
    `SELECT groupBitmapMerge(wallet_bitmap) AS unique_wallets FROM (${dexParts(has, "wallet_bitmap")})`,
);

const counts = z.coerce.number().int().nonnegative();

export type PoolStatsRow = {
  pool: string;
  trades: number;
  not_executed: number;
  volume_a: bigint;
  volume_b: bigint;
  protocol_fee_a: bigint;
  protocol_fee_b: bigint;
  protocol_fee_unknown: number;
  referral_fee_a: bigint;
  referral_fee_b: bigint;
  /** Null when not counted (every pool's statistics without `wallets`). */
  unique_wallets: number | null;
  volume_usd: number;
  untracked_volume_usd: number;
  lp_fee_usd: number;
  volume_usd_unknown: number;
  /** (amount_a, amount_b) of the last executed trade; (0, 0) when the window has none. */
  last: [bigint, bigint];
};
/** Read by hand (./fast-row.ts): the statistics of every pool are 1,200 rows of 19 fields on the bulk store. */
const poolStatsRow = rowReader(
  (r): PoolStatsRow => ({
    pool: text(r, "pool"),
    trades: int(r, "trades"),
    not_executed: int(r, "not_executed"),
    volume_a: unsigned(r, "volume_a"),
    volume_b: unsigned(r, "volume_b"),
    protocol_fee_a: unsigned(r, "protocol_fee_a"),
    protocol_fee_b: unsigned(r, "protocol_fee_b"),
    protocol_fee_unknown: int(r, "protocol_fee_unknown"),
    referral_fee_a: unsigned(r, "referral_fee_a"),
    referral_fee_b: unsigned(r, "referral_fee_b"),
    unique_wallets: intOrNull(r, "unique_wallets"),
    volume_usd: float(r, "volume_usd"),
    untracked_volume_usd: float(r, "untracked_volume_usd"),
    lp_fee_usd: float(r, "lp_fee_usd"),
    volume_usd_unknown: int(r, "volume_usd_unknown"),
    last: [...unsignedPair(r, "last")],
  }),
);
/** A pool's statistics from the running sums, and whether its USD differences may be off (SUMS_PART). */
const flaggedPoolStatsRow = rowReader((r) => ({
  row: poolStatsRow.readRow(r),
  inexact: int(r, "inexact") === 1,
}));
export type DexTotalsRow = z.infer<typeof dexTotalsRow>;
const dexTotalsRow = z.object({
  trades: counts,
  not_executed: counts,
  unique_wallets: counts,
  volume_usd: z.number(),
  untracked_volume_usd: z.number(),
  lp_fee_usd: z.number(),
  volume_usd_unknown: counts,
});

export type Window = { readonly since: number; readonly until: number };

const windowParams = (w: Window) =>
  piecesParams(windowPieces(w.since, w.until), partialHours(w.since, w.until));

/**
 * Per pool (every pool with a swap leg in the window, or only `pool`), by pool address. Each pool's
 * distinct makers are counted for one pool, and for every pool when `wallets` (else `unique_wallets` null).
 * Every pool's statistics without the makers take the window's whole hours from the running sums (two
 * boundaries' rows: 2,400 on the bulk store, against ~36,000 day and hour rows) when both boundaries are
 * written (`sumsMaxAgeMs`: how old a read of the last one written may be, ./rollup-status.ts; 0: read now).
 */
export async function selectPoolStats(
  store: Store,
  w: Window,
  pool: RawAddress | null,
  wallets: boolean,
  options: { sumsMaxAgeMs?: number } = {},
): Promise<PoolStatsRow[]> {
  const params = windowParams(w);
  const has = presentIn(w);
  const whole = wholeHours(w.since, w.until);
  if (pool !== null)
    return store.query(onePoolStatsSql(has), poolStatsRow, { ...params, ...poolParams([pool]) });
  if (wallets || whole === null || whole[1] > (await rollupDone(store, POOL_SUMS, options.sumsMaxAgeMs)))
    return store.query(allPoolStatsSql(wallets)(has), poolStatsRow, { ...params, ...poolParams(null) });
  const rows = await store.query(allPoolStatsFromSumsSql(has), flaggedPoolStatsRow, {
    ...params,
    ...poolParams(null),
    s1: whole[0],
    s2: whole[1],
  });
  const inexact = rows.filter((r) => r.inexact).map((r) => r.row.pool);
  if (inexact.length === 0) return rows.map((r) => r.row);
  // The pools whose USD differences may be off: from their hour and day rows, by key.
  const exact = new Map(
    (await store.query(somePoolStatsSql(has), poolStatsRow, { ...params, ...poolParams(inexact) })).map(
      (r) => [r.pool, r],
    ),
  );
  return rows.map((r) => exact.get(r.row.pool) ?? r.row);
}

/**
 * What the rollups say of each pool's sides: its router and its two router wallets as the legs name them
 * (token_a < token_b as strings: `swapLegsSql`; '' when no leg names one), from its day rows by key.
 */
export type PoolSidesRow = { pool: string; router: string | null; token_a: string; token_b: string };
const POOL_SIDES_SQL = `SELECT pool, any(router) AS router, anyIf(token_a, token_a != '') AS token_a,
  anyIf(token_b, token_b != '') AS token_b
FROM pool_rollup_1d
WHERE pool IN {pools:Array(String)}
GROUP BY pool`;
const poolSidesRow = rowReader(
  (r): PoolSidesRow => ({
    pool: text(r, "pool"),
    router: textOrNull(r, "router"),
    token_a: text(r, "token_a"),
    token_b: text(r, "token_b"),
  }),
);

export function selectPoolSides(store: Store, pools: readonly RawAddress[]): Promise<PoolSidesRow[]> {
  return store.query(POOL_SIDES_SQL, poolSidesRow, { pools });
}

/** DEX-wide (or one pool's) totals; distinct makers over the union of every pool. */
export async function selectDexTotals(
  store: Store,
  w: Window,
  pool: RawAddress | null,
): Promise<DexTotalsRow> {
  const sql = (pool === null ? dexTotalsSql : poolTotalsSql)(presentIn(w));
  const [row] = await store.query(sql, dexTotalsRow, {
    ...windowParams(w),
    ...poolParams(pool === null ? null : [pool]),
  });
  if (row === undefined) throw new Error("an aggregate without GROUP BY returns one row");
  return row;
}

const dexWalletsRow = z.object({ unique_wallets: counts });

/** The distinct makers of every pool in the window (their union: `dexTotals`' unique_wallets). */
export async function selectDexWallets(store: Store, w: Window): Promise<number> {
  const [row] = await store.query(dexWalletsSql(presentIn(w)), dexWalletsRow, windowParams(w));
  if (row === undefined) throw new Error("an aggregate without GROUP BY returns one row");
  return row.unique_wallets;
}

const REFERRAL_VALUES =
  "dex, asset_kind, asset_master, accrued, accruals, withdrawn, withdrawals, accrued_usd, accrued_usd_unknown, " +
  "withdrawn_usd, withdrawn_usd_unknown";
const referralPart = (table: string, level: "m" | "h" | "d") =>
  `SELECT referrer, asset_router_wallet, ${REFERRAL_VALUES} FROM ${table} FINAL
   WHERE referrer = {referrer:String} AND ${piecesWhere("bucket", level)}`;

const REFERRER_SQL = `SELECT asset_router_wallet, ${REFERRAL_MERGE_SQL}
  FROM (
    SELECT referrer, asset_router_wallet, ${REFERRAL_AGGREGATES_SQL}
    FROM (${referralEventsSql(`referrer = {referrer:String} AND ${piecesWhere("utime", "r")}`)})
    GROUP BY referrer, asset_router_wallet
    UNION ALL ${referralPart("referral_rollup_1m", "m")}
    UNION ALL ${referralPart("referral_rollup_1h", "h")}
    UNION ALL ${referralPart("referral_rollup_1d", "d")}
  )
  GROUP BY asset_router_wallet
  ORDER BY asset_router_wallet`;

const referrerRow = z.object({
  asset_router_wallet: str,
  dex: z.enum(["v1", "v2"]),
  asset_kind: z.enum(["jetton", "ton"]),
  asset_master: nstr,
  accrued: big,
  accruals: counts,
  withdrawn: big,
  withdrawals: counts,
  accrued_usd: z.coerce.number(),
  accrued_usd_unknown: counts,
  withdrawn_usd: z.coerce.number(),
  withdrawn_usd_unknown: counts,
});
export type ReferrerAssetRow = z.infer<typeof referrerRow>;

/** A referrer's accrued and withdrawn referral fees in the window, per fee asset (router wallet). */
export function selectReferrerAssets(
  store: Store,
  w: Window,
  referrer: RawAddress,
): Promise<ReferrerAssetRow[]> {
  return store.query(REFERRER_SQL, referrerRow, { ...windowParams(w), referrer });
}

const WITHDRAWALS_SQL = `SELECT id, tx_hash, lt, utime, dex, router, vault, owner, asset_kind, asset_master,
    asset_router_wallet, amount, success, payout_to
  FROM vault_withdrawals FINAL
  WHERE owner = {referrer:String} AND utime BETWEEN {since:UInt32} AND {until:UInt32}
  ORDER BY lt, id`;

const withdrawalRow = z.object({
  id: str,
  tx_hash: str,
  lt: big,
  utime: z.coerce.number().int(),
  dex: z.enum(["v1", "v2"]),
  router: nstr,
  vault: str,
  owner: nstr,
  asset_kind: z.enum(["jetton", "ton"]),
  asset_master: nstr,
  asset_router_wallet: nstr,
  amount: big,
  success: z.boolean().nullable(),
  payout_to: nstr,
});
export type WithdrawalRow = z.infer<typeof withdrawalRow>;

/** A referrer's v2 vault withdrawals in the window (the vault_withdrawals facts, oldest first). */
export function selectWithdrawals(store: Store, w: Window, referrer: RawAddress): Promise<WithdrawalRow[]> {
  return store.query(WITHDRAWALS_SQL, withdrawalRow, { since: w.since, until: w.until, referrer });
}
