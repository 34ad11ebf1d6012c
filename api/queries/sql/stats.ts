/**
 * Statistics over the rollups (schemas/clickhouse/009_rollups.sql, infra/store/rollups.ts).
 *
 * A window [since, until] (inclusive seconds) is cut by `windowPieces`: the partial minutes at its ends are
 * aggregated from the deduplicated facts with the very expressions the rollups are built with
 * (swapLegsSql / LEG_AGGREGATES_SQL, referralEventsSql / REFERRAL_AGGREGATES_SQL), the rest is read from
 * minute, hour and day rows (FINAL on their sorting key; for every pool, the hour and day rows of the copies
 * sorted by bucket: migrations 015 and 023). The pool statistics take the whole partial hours from the
 * facts (`partialHours`: the raw edges and the minutes together), which costs less than the minute rows of
 * every pool (sorted by pool, they lie in pieces over two days' parts). All parts have the same columns, so
 * one UNION ALL merges them: sums add, `groupBitmapMerge` counts the distinct makers (their dense ids) of the
 * union exactly, and a pool's last trade is the plain `last_trade` of its latest row with trades (no argMax
 * state merged per row). Every value is a bound parameter.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import {
  type LegAggregate,
  legAggregatesSql,
  partialHours,
  piecesParams,
  piecesWhere,
  REFERRAL_AGGREGATES_SQL,
  REFERRAL_MERGE_SQL,
  referralEventsSql,
  swapLegsSql,
  windowPieces,
} from "../../../infra/store/rollups.ts";
import type { RawAddress } from "../../read-model.ts";
import { big, nstr, str } from "./common.ts";
import { float, int, intOrNull, rowReader, text, textOrNull, unsigned, unsignedPair } from "./fast-row.ts";

/**
 * The rollup columns the pool statistics read (candle columns aside), but for the last trade. Not the
 * pool's router and router wallets: they are the pool's, whatever the window, and the API has them in its
 * pool records (three strings per row were a quarter of every pool's statistics: 30 days on whole days,
 * bulk store, ~38 → ~29 ms); a pool whose record lacks them has them read apart (`selectPoolSides`).
 */
const POOL_AGGREGATES: readonly LegAggregate[] = [
  "trades",
  "not_executed",
  "volume_a",
  "volume_b",
  "protocol_fee_a",
  "protocol_fee_b",
  "protocol_fee_unknown",
  "referral_fee_a",
  "referral_fee_b",
  "wallet_bitmap",
  "volume_usd",
  "untracked_volume_usd",
  "lp_fee_usd",
  "volume_usd_unknown",
];
const POOL_VALUES = `${POOL_AGGREGATES.join(", ")}, last_trade`;

const POOL_FILTER = "({pool:String} = '' OR pool = {pool:String})";

/**
 * A part's rows with `at`: when its last trade happened, as far as ordering the parts goes (a row's bucket,
 * the raw edges' last executed leg; 0 without trades). The parts are disjoint in time, so the window's last
 * trade of a pool is the last_trade of its row with the greatest `at` (a pool's trades are in chain order
 * in time, as the candles' last close also reads them: ./ohlcv.ts).
 */
const rollupPart = (table: string, level: "m" | "h" | "d") =>
  `SELECT pool, ${POOL_VALUES}, if(trades > 0, bucket, toDateTime(0, 'UTC')) AS at
   FROM ${table} FINAL WHERE ${POOL_FILTER} AND ${piecesWhere("bucket", level)}`;

/** The hour and day rows a read of one pool (by key) or of every pool (the copies sorted by bucket) takes. */
type PoolTables = { readonly hour: string; readonly day: string };
const ONE_POOL: PoolTables = { hour: "pool_rollup_1h", day: "pool_rollup_1d" };
const EVERY_POOL: PoolTables = { hour: "pool_rollup_1h_by_bucket", day: "pool_rollup_1d_by_bucket" };

/**
 * Every part of the window, one row per (part, pool): the partial hours from the facts, then hour and day
 * rows. The hour and day rows of every pool are read from the copies sorted by bucket (one contiguous
 * range each: the day rows of a 30-day window of every pool, bulk store, SQL alone at odd seconds, 77 → 66
 * ms, with `wallets` 180 → 135 ms; on whole days 74 → 54 and 150 → 86 ms), one pool's from the tables
 * sorted by pool. Only the parts the window has are in the statement: planning the legs' expressions alone
 * costs ~7 ms (~14 ms with their aggregates) on the embedded engine, even for an empty range, and a window
 * of whole hours or days has no partial hours. The partial hours aggregate only the columns read, and look
 * up no wallet ids unless the makers are counted (`wallets`): on the bulk store's two partial hours of every
 * pool, ~47 ms with every aggregate and the lookup, ~24 ms without.
 */
const poolParts = (tables: PoolTables, has: Present, wallets: boolean) =>
  unionOf([
    has.edges &&
      `SELECT pool, ${legAggregatesSql(POOL_AGGREGATES, { wallets })}, argMaxIf((amount_a, amount_b), ord, ok) AS last_trade,
      maxIf(utime, ok) AS at
    FROM (${swapLegsSql(`${POOL_FILTER} AND ${piecesWhere("utime", "e")}`, { walletIds: wallets })})
    GROUP BY pool`,
    has.hour && rollupPart(tables.hour, "h"),
    has.day && rollupPart(tables.day, "d"),
  ]);

/**
 * Which parts a window has (infra/store/rollups.ts `windowPieces`, `partialHours`): a statement
 * reads only those. `edges` are the partial hours the pool statistics read from the facts; `raw` and
 * `minute` what the DEX totals read from the facts and the minute rows.
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
const onePoolStatsSql = memoByParts((has) => poolStatsSql(poolParts(ONE_POOL, has, true), true));
const allPoolStatsSql = (wallets: boolean) =>
  memoByParts((has) => poolStatsSql(poolParts(EVERY_POOL, has, wallets), wallets));
const allPoolStatsWithWalletsSql = allPoolStatsSql(true);
const allPoolStatsWithoutWalletsSql = allPoolStatsSql(false);

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
const widePart = (table: string, level: "m" | "h" | "d") =>
  `SELECT ${WIDE_VALUES} FROM ${table} FINAL WHERE ${piecesWhere("bucket", level)}`;

/** One pool's totals from its rows; every pool's from the DEX-wide rollups (keyed by bucket alone). */
const poolTotalsSql = memoByParts((has) => `SELECT ${WIDE_TOTALS} FROM (${poolParts(ONE_POOL, has, true)})`);
const dexTotalsSql = memoByParts(
  (has) => `SELECT ${WIDE_TOTALS} FROM (
    ${unionOf([
      has.raw &&
        `SELECT ${legAggregatesSql(WIDE_AGGREGATES)}
    FROM (${swapLegsSql(piecesWhere("utime", "r"))})`,
      has.minute && widePart("dex_rollup_1m", "m"),
      has.hour && widePart("dex_rollup_1h", "h"),
      has.day && widePart("dex_rollup_1d", "d"),
    ])}
  )`,
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
 */
export function selectPoolStats(
  store: Store,
  w: Window,
  pool: RawAddress | null,
  wallets: boolean,
): Promise<PoolStatsRow[]> {
  const all = wallets ? allPoolStatsWithWalletsSql : allPoolStatsWithoutWalletsSql;
  const sql = (pool === null ? all : onePoolStatsSql)(presentIn(w));
  return store.query(sql, poolStatsRow, { ...windowParams(w), pool: pool ?? "" });
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
  const [row] = await store.query(sql, dexTotalsRow, { ...windowParams(w), pool: pool ?? "" });
  if (row === undefined) throw new Error("an aggregate without GROUP BY returns one row");
  return row;
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
