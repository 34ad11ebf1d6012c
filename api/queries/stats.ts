/**
 * Statistics (api.md §9; figures defined in README "Statistics"). Windows are inclusive on both ends and
 * validated here (since ≤ until, else 400 naming `until`); `/v1/stats/dex` without parameters spans from
 * STON.fi's launch to the newest indexed block (never the wall clock: replayed history stays reachable).
 * The rows come from `deps.stats` (the rollups); without it the routes answer 503.
 */
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, ServiceUnavailableError } from "../errors.ts";
import { TON_RAW } from "../mappers/common.ts";
import type { OperationRecord, PoolRecord, RawAddress } from "../read-model.ts";
import type { StatsReadModel, Window } from "../read-model-stats.ts";
import type {
  DexStatsView,
  FeeAssetView,
  OperationView,
  PoolStatsListView,
  PoolStatsView,
} from "../views.ts";
import { norm } from "./sql/common.ts";
import type { PoolSidesRow, PoolStatsRow } from "./sql/stats.ts";
import { dexTvlAt } from "./tvl.ts";
import { operationViews } from "./wallets.ts";

/** STON.fi DEX launch, 2022-11-18T00:00:00Z: the default start of `/v1/stats/dex` (analytics.md §6). */
export const STONFI_LAUNCH = 1_668_729_600;

function statsOf(deps: ApiDeps): StatsReadModel {
  if (deps.stats === undefined) {
    throw new ServiceUnavailableError("statistics need the ClickHouse store (its rollups)");
  }
  return deps.stats;
}

/** The tracked USD volume, or null when an executed leg has no USD value (rows before prices, not priced). */
const usdOf = (t: { volume_usd: number; volume_usd_unknown: number }): number | null =>
  t.volume_usd_unknown > 0 ? null : t.volume_usd;

export function checkWindow(since: number, until: number): Window {
  if (until < since) throw new BadRequestError("until", "must not be earlier than since");
  return { since, until };
}

export async function dexStats(deps: ApiDeps, q: { since?: number; until?: number }): Promise<DexStatsView> {
  const stats = statsOf(deps);
  // Without `until`, the head read here also tells dexTvlAt where the newest states are (one read, not two).
  const head = q.until === undefined ? await deps.data.getIndexedHead() : undefined;
  const until = q.until ?? head?.utime ?? Math.floor(deps.clock() / 1000);
  const w = checkWindow(q.since ?? STONFI_LAUNCH, until);
  // The totals (the rollups) and the TVL at `until` (the pools' states) are independent reads, made one
  // after the other: each already keeps both cores of the embedded engine busy, and side by side they
  // took longer than in turn (bulk store, 30 days, p50: 66 → 45 ms on whole days, 64 → 60 ms at odd
  // seconds; p90 95 → 69 ms).
  const t = await stats.dexTotals(w, null);
  const tvlUsd = await dexTvlAt(deps, w.until, head);
  return { ...w, trades: t.trades, uniqueWallets: t.unique_wallets, volumeUsd: usdOf(t), tvlUsd };
}

export async function poolStats(
  deps: ApiDeps,
  /** `wallets`: count every listed pool's distinct wallets too (one pool's always are). */
  q: { since: number; until: number; pool?: RawAddress; wallets?: boolean },
): Promise<PoolStatsListView> {
  const stats = statsOf(deps);
  const w = checkWindow(q.since, q.until);
  const pool = q.pool ?? null;
  // One pool: its row's distinct makers are the answer's (a second read of the same rollup rows spared).
  // Every pool's: the distinct makers of all of them, read alone (the list has no other DEX-wide figure).
  const [rows, wallets] = await Promise.all([
    stats.poolStats(w, pool, q.wallets === true),
    pool === null ? stats.dexWallets(w) : null,
  ]);
  const records = await poolRecords(
    deps,
    rows.map((r) => r.pool),
  );
  const sides = await poolSides(stats, rows, records);
  const addresses = records.flatMap((p) => [p?.token0, p?.token1].filter((a): a is string => !!a));
  const assets = new Map(
    (await deps.data.getAssets([...new Set(addresses)])).map((a) => [norm(a.address), a]),
  );
  const asset = (a: RawAddress | null | undefined) => (a ? (assets.get(norm(a)) ?? null) : null);
  const pools = rows.map((r, i): PoolStatsView => {
    const record = records[i] ?? null;
    const side = sides.get(r.pool);
    // Side a is the lesser of the pool's two router wallets as strings (swapLegsSql): the pool's token0
    // unless its wallet is the greater, which the rollups name side b when the record lacks token1's.
    const t0 = record?.token0Wallet ?? null;
    const t1 = record?.token1Wallet ?? null;
    const aIsBase =
      t0 === null || (t1 !== null ? norm(t0) < norm(t1) : norm(t0) !== norm(side?.token_b ?? ""));
    const pick = (a: bigint, b: bigint) => (aIsBase ? [a, b] : [b, a]) as [bigint, bigint];
    const [baseVolume, quoteVolume] = pick(r.volume_a, r.volume_b);
    // A trade whose protocol fee is unknown makes the window's sum unknown (never a partial sum).
    const [protocolFeeBase, protocolFeeQuote] =
      r.protocol_fee_unknown > 0 ? [null, null] : pick(r.protocol_fee_a, r.protocol_fee_b);
    const [referralFeeBase, referralFeeQuote] = pick(r.referral_fee_a, r.referral_fee_b);
    const [lastBase, lastQuote] = pick(r.last[0], r.last[1]);
    return {
      pool: r.pool,
      record,
      router: record?.router ?? side?.router ?? null,
      base: asset(record?.token0),
      quote: asset(record?.token1),
      baseAddress: record?.token0 ?? null,
      quoteAddress: record?.token1 ?? null,
      trades: r.trades,
      uniqueWallets: r.unique_wallets,
      baseVolume,
      quoteVolume,
      protocolFeeBase,
      protocolFeeQuote,
      referralFeeBase,
      referralFeeQuote,
      volumeUsd: usdOf(r),
      last: r.trades > 0 ? { base: lastBase, quote: lastQuote } : null,
    };
  });
  return { ...w, uniqueWallets: wallets ?? onePoolWallets(rows), pools };
}

/**
 * The router and wallets of the pools whose records lack their router or a wallet (token0's known, token1's
 * not), from the rollups; none read when every record has them (the usual case).
 */
async function poolSides(
  stats: StatsReadModel,
  rows: readonly PoolStatsRow[],
  records: readonly (PoolRecord | null)[],
): Promise<Map<RawAddress, PoolSidesRow>> {
  const lacking = rows
    .filter((_, i) => {
      const p = records[i];
      return p == null || p.router === null || (p.token0Wallet !== null && p.token1Wallet === null);
    })
    .map((r) => r.pool);
  if (lacking.length === 0) return new Map();
  return new Map((await stats.poolSides(lacking)).map((s) => [s.pool, s]));
}

/** One pool's distinct makers: its row's (always counted for one pool), 0 without trades in the window. */
function onePoolWallets(rows: readonly PoolStatsRow[]): number {
  const [row] = rows;
  if (row === undefined) return 0;
  if (row.unique_wallets === null) throw new Error("one pool's statistics count its wallets");
  return row.unique_wallets;
}

/** Few pools one by one; many from the pool list (cached by the server between batches). */
async function poolRecords(deps: ApiDeps, pools: readonly RawAddress[]): Promise<(PoolRecord | null)[]> {
  if (pools.length <= 8) return Promise.all(pools.map((p) => deps.data.getPool(p)));
  const all = new Map((await deps.data.listPools()).map((p) => [norm(p.address), p]));
  return pools.map((p) => all.get(norm(p)) ?? null);
}

export async function statsOperations(
  deps: ApiDeps,
  q: { since: number; until: number; pool?: RawAddress },
): Promise<OperationView[]> {
  const w = checkWindow(q.since, q.until);
  const ops = await statsOf(deps).operations(w, q.pool ?? null);
  return operationViews(deps, ops);
}

export async function feeAccruals(
  deps: ApiDeps,
  q: { since: number; until: number; referrer: RawAddress },
): Promise<OperationRecord[]> {
  return statsOf(deps).referralAccruals(checkWindow(q.since, q.until), q.referrer);
}

/** Per fee asset (jetton master; native TON for the pTON side), accrued and withdrawn in the window. */
export async function feeStats(
  deps: ApiDeps,
  q: { since: number; until: number; referrer: RawAddress },
): Promise<Window & { assets: FeeAssetView[] }> {
  const w = checkWindow(q.since, q.until);
  const rows = await statsOf(deps).referrerAssets(w, q.referrer);
  const byAsset = new Map<string, FeeAssetView>();
  for (const r of rows) {
    const asset = r.asset_kind === "ton" ? TON_RAW : r.asset_master;
    const key = asset ?? `wallet:${r.asset_router_wallet}`;
    const seen = byAsset.get(key) ?? { asset, accrued: 0n, withdrawn: 0n, accruedUsd: 0, withdrawnUsd: 0 };
    byAsset.set(key, {
      asset,
      accrued: seen.accrued + r.accrued,
      withdrawn: seen.withdrawn + r.withdrawn,
      accruedUsd: addUsd(seen.accruedUsd, r.accrued_usd, r.accrued_usd_unknown),
      withdrawnUsd: addUsd(seen.withdrawnUsd, r.withdrawn_usd, r.withdrawn_usd_unknown),
    });
  }
  return { ...w, assets: [...byAsset.values()] };
}

/** A USD sum plus a part of `unknown` events without a USD value: null once any is unknown. */
const addUsd = (sum: number | null, usd: number, unknown: number): number | null =>
  sum === null || unknown > 0 ? null : sum + usd;

export async function feeWithdrawals(
  deps: ApiDeps,
  q: { since: number; until: number; referrer: RawAddress },
) {
  return statsOf(deps).withdrawals(checkWindow(q.since, q.until), q.referrer);
}
