/**
 * `StatsReadModel`: what the statistics routes (`/v1/stats/*`) ask of the store, and its ClickHouse
 * implementation over the rollups (./queries/sql/stats.ts) and the operation facts. Separate from
 * `DexReadModel` because only the ClickHouse store keeps rollups: without one the routes answer 503.
 *
 * Windows are inclusive unix-second bounds on the time of the anchoring (pool or vault) transaction.
 */
import type { Store } from "../infra/store/client.ts";
import { norm } from "./queries/sql/common.ts";
import {
  type CandleRow,
  type LastCloseRow,
  selectCandles,
  selectLastClose,
  type Timeframe,
} from "./queries/sql/ohlcv.ts";
import { toOperationRecords } from "./queries/sql/operation-records.ts";
import {
  type OperationRow,
  selectReferralOperationRows,
  selectWindowOperationRows,
} from "./queries/sql/operations.ts";
import {
  type DexTotalsRow,
  type PoolSidesRow,
  type PoolStatsRow,
  type ReferrerAssetRow,
  selectDexTotals,
  selectDexWallets,
  selectPoolSides,
  selectPoolStats,
  selectReferrerAssets,
  selectWithdrawals,
  type Window,
  type WithdrawalRow,
} from "./queries/sql/stats.ts";
import {
  insertKeptDexTvl,
  type KeptDexTvl,
  type KeptDexTvlPoint,
  selectKeptDexTvl,
} from "./queries/sql/tvl-kept.ts";
import type { OperationRecord, RawAddress } from "./read-model.ts";

export type {
  CandleRow,
  DexTotalsRow,
  KeptDexTvl,
  KeptDexTvlPoint,
  LastCloseRow,
  PoolSidesRow,
  PoolStatsRow,
  ReferrerAssetRow,
  Timeframe,
  Window,
  WithdrawalRow,
};

export type CandleQuery = {
  pool: RawAddress;
  timeframe: Timeframe;
  /** Interval length in seconds (the timeframe's unit × aggregate). */
  step: number;
  /** Intervals starting in [from, before). */
  from: number;
  before: number;
  limit: number;
};

export interface StatsReadModel {
  /** Totals over every pool, or one pool. */
  dexTotals(w: Window, pool: RawAddress | null): Promise<DexTotalsRow>;
  /** The distinct makers of every pool: `dexTotals(w, null).unique_wallets`, read alone. */
  dexWallets(w: Window): Promise<number>;
  /**
   * One row per pool with a swap leg in the window (or only `pool`). Each row's distinct makers are
   * counted for one pool, and for every pool only when `wallets` (else null).
   */
  poolStats(w: Window, pool: RawAddress | null, wallets: boolean): Promise<PoolStatsRow[]>;
  /** The router and router wallets the pools' legs name, for pools whose records lack them. */
  poolSides(pools: readonly RawAddress[]): Promise<PoolSidesRow[]>;
  /** Every operation in the window (or of one pool), oldest first. */
  operations(w: Window, pool: RawAddress | null): Promise<OperationRecord[]>;
  /** Swaps that paid `referrer` a referral fee in the window, oldest first. */
  referralAccruals(w: Window, referrer: RawAddress): Promise<OperationRecord[]>;
  /** The referrer's accrued and withdrawn fees per fee asset. */
  referrerAssets(w: Window, referrer: RawAddress): Promise<ReferrerAssetRow[]>;
  /** The referrer's v2 vault withdrawals, oldest first. */
  withdrawals(w: Window, referrer: RawAddress): Promise<WithdrawalRow[]>;
  /** Up to `limit` intervals with trades, newest first. */
  candles(q: CandleQuery): Promise<CandleRow[]>;
  /** The last trade of the pool before `before`; null: none. */
  lastClose(q: { pool: RawAddress; timeframe: Timeframe; before: number }): Promise<LastCloseRow | null>;
  /** The DEX TVL points kept at the boundaries `first`, `first + step`, … ≤ `last` (hours), and what tells
   * which still hold (./queries/sql/tvl-kept.ts); absent: none are kept, every point is computed. */
  keptDexTvl?(q: { pricing: string; first: number; last: number; step: number }): Promise<KeptDexTvl>;
  keepDexTvl?(pricing: string, points: readonly KeptDexTvlPoint[]): Promise<void>;
}

export class ClickHouseStatsReadModel implements StatsReadModel {
  constructor(private readonly store: Store) {}

  dexTotals(w: Window, pool: RawAddress | null): Promise<DexTotalsRow> {
    return selectDexTotals(this.store, w, pool === null ? null : norm(pool));
  }

  dexWallets(w: Window): Promise<number> {
    return selectDexWallets(this.store, w);
  }

  poolStats(w: Window, pool: RawAddress | null, wallets: boolean): Promise<PoolStatsRow[]> {
    return selectPoolStats(this.store, w, pool === null ? null : norm(pool), wallets);
  }

  poolSides(pools: readonly RawAddress[]): Promise<PoolSidesRow[]> {
    return selectPoolSides(this.store, pools.map(norm));
  }

  async operations(w: Window, pool: RawAddress | null): Promise<OperationRecord[]> {
    const filter = { ...w, dexV2: true };
    const rows = await selectWindowOperationRows(this.store, pool === null ? null : norm(pool), filter);
    return this.records(rows);
  }

  async referralAccruals(w: Window, referrer: RawAddress): Promise<OperationRecord[]> {
    const rows = await selectReferralOperationRows(this.store, norm(referrer), { ...w, dexV2: true });
    return this.records(rows);
  }

  referrerAssets(w: Window, referrer: RawAddress): Promise<ReferrerAssetRow[]> {
    return selectReferrerAssets(this.store, w, norm(referrer));
  }

  withdrawals(w: Window, referrer: RawAddress): Promise<WithdrawalRow[]> {
    return selectWithdrawals(this.store, w, norm(referrer));
  }

  candles(q: CandleQuery): Promise<CandleRow[]> {
    return selectCandles(this.store, { ...q, pool: norm(q.pool) });
  }

  lastClose(q: { pool: RawAddress; timeframe: Timeframe; before: number }): Promise<LastCloseRow | null> {
    return selectLastClose(this.store, { ...q, pool: norm(q.pool) });
  }

  keptDexTvl(q: { pricing: string; first: number; last: number; step: number }): Promise<KeptDexTvl> {
    return selectKeptDexTvl(this.store, q);
  }

  keepDexTvl(pricing: string, points: readonly KeptDexTvlPoint[]): Promise<void> {
    return insertKeptDexTvl(this.store, pricing, points);
  }

  /** Operation rows → records, each seen from its own user (the wallet that started it). */
  private records(rows: readonly OperationRow[]): Promise<OperationRecord[]> {
    return toOperationRecords(this.store, rows, (o) => o.op_wallet);
  }
}
