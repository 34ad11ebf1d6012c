/**
 * `DexReadModel` over the ClickHouse facts (schemas/clickhouse/*.sql), through infra's `Store` (embedded
 * chdb or a server): same semantics as ./read-model-memory.ts on the data the facts can hold, which
 * test/integration/read-model-clickhouse.test.ts checks method by method.
 *
 * The SQL lives in ./queries/sql/ (one module per concern, with its deduplication strategy in its
 * header): every value is a bound parameter (`{name:Type}`); every read deduplicates (FINAL on operation,
 * state and reference facts; `LIMIT 1 BY` the sorting key on immutable chain facts).
 *
 * Failures are the store's, already classified (infra/store/errors.ts): an unreachable or overloaded
 * ClickHouse is a `RetryableError` (`tondexError: "retryable"`), which the API answers with 503; anything
 * else (an SQL error, a row that does not match its schema) is a bug and answers 500.
 *
 * What the facts cannot say (curated catalogue fields, USD statistics, wallet seqnos, LP wallet
 * addresses, balances moved outside the DEX) is null, absent or neutral, as documented per module.
 *
 * Scaling note: every method reads by a sorting-key prefix or a bloom index, except `listPools` (and the
 * pair pre-filter of `getPoolsByAssets`), which takes the latest state of every pool from the whole
 * `pool_states` history. Milliseconds on thousands of rows (read-model-clickhouse-latency.test.ts); at
 * mainnet history sizes a current-state table (ReplacingMergeTree(lt) keyed by pool) should serve it.
 */
import type { Store } from "../infra/store/client.ts";
import type { RawTransaction } from "../schemas/raw-transaction.ts";
import { norm } from "./queries/sql/common.ts";
import { selectFeedEvents, selectFeedHead } from "./queries/sql/feed.ts";
import { selectPoolMarkets, selectTrades } from "./queries/sql/markets.ts";
import { toOperationRecords } from "./queries/sql/operation-records.ts";
import { selectOperationRows } from "./queries/sql/operations.ts";
import { selectPools } from "./queries/sql/pools.ts";
import { selectFeeVaults, selectLpPositions } from "./queries/sql/positions.ts";
import { selectPoolUsdWindows, selectQuoteTrades } from "./queries/sql/pricing.ts";
import { selectAssets, selectRouters } from "./queries/sql/reference.ts";
import { findSwapStatus } from "./queries/sql/swaps.ts";
import {
  lookupTransaction,
  selectIndexedHead,
  selectTransactions,
  selectTransactionsByInMsg,
  selectWalletTransactions,
} from "./queries/sql/transactions.ts";
import { selectPoolStateTimeline } from "./queries/sql/tvl.ts";
import type {
  AssetRecord,
  DexReadModel,
  FeedBlock,
  FeedEventRecord,
  FeedReference,
  FeeVaultRecord,
  LpPositionRecord,
  OperationFilter,
  OperationRecord,
  PoolMarketRecord,
  PoolRecord,
  PoolStatePoint,
  PoolStateTimelineQuery,
  PoolUsdWindows,
  QuoteTradesAt,
  QuoteTradesQuery,
  RawAddress,
  RouterRecord,
  SwapKey,
  SwapStatusRecord,
  TradeFilter,
  TradeRecord,
  TxLookup,
  TxLookupResult,
  WalletTransactions,
} from "./read-model.ts";

export class ClickHouseReadModel implements DexReadModel {
  constructor(private readonly store: Store) {}

  listRouters(): Promise<RouterRecord[]> {
    return selectRouters(this.store);
  }

  async getRouter(address: RawAddress): Promise<RouterRecord | null> {
    return (await selectRouters(this.store, [norm(address)]))[0] ?? null;
  }

  listAssets(): Promise<AssetRecord[]> {
    return selectAssets(this.store);
  }

  async getAssets(addresses: readonly RawAddress[]): Promise<AssetRecord[]> {
    if (addresses.length === 0) return [];
    return selectAssets(this.store, [...new Set(addresses.map(norm))]);
  }

  listPools(): Promise<PoolRecord[]> {
    return selectPools(this.store, null);
  }

  async getPool(address: RawAddress): Promise<PoolRecord | null> {
    return (await selectPools(this.store, { address: norm(address) }))[0] ?? null;
  }

  async getPoolsByAssets(a: RawAddress, b: RawAddress): Promise<PoolRecord[]> {
    if (norm(a) === norm(b)) return [];
    return selectPools(this.store, { a: norm(a), b: norm(b) });
  }

  /** Oldest first (by pool transaction lt), as the memory model. */
  async getWalletOperations(wallet: RawAddress, filter: OperationFilter): Promise<OperationRecord[]> {
    const owner = norm(wallet);
    const rows = await selectOperationRows(this.store, owner, filter);
    return toOperationRecords(this.store, rows, () => owner);
  }

  getWalletLpPositions(wallet: RawAddress): Promise<LpPositionRecord[]> {
    return selectLpPositions(this.store, norm(wallet));
  }

  getFeeVaults(owner: RawAddress): Promise<FeeVaultRecord[]> {
    return selectFeeVaults(this.store, norm(owner));
  }

  getWalletTransactions(
    wallet: RawAddress,
    opts: { limit: number; since?: number },
  ): Promise<WalletTransactions> {
    return selectWalletTransactions(this.store, norm(wallet), opts);
  }

  findTransaction(lookup: TxLookup): Promise<TxLookupResult | null> {
    return lookupTransaction(
      this.store,
      "extMsgHash" in lookup ? lookup : { ...lookup, wallet: norm(lookup.wallet) },
    );
  }

  getIndexedHead(): Promise<{ utime: number } | null> {
    return selectIndexedHead(this.store);
  }

  async getTransaction(hash: string): Promise<RawTransaction | null> {
    return (await selectTransactions(this.store, [hash]))[0] ?? null;
  }

  getTransactionsByInMsg(msgHashes: readonly string[]): Promise<RawTransaction[]> {
    return selectTransactionsByInMsg(this.store, msgHashes);
  }

  findSwap(key: SwapKey): Promise<SwapStatusRecord | null> {
    return findSwapStatus(this.store, { ...key, router: norm(key.router), owner: norm(key.owner) });
  }

  getFeedHead(): Promise<FeedBlock | null> {
    return selectFeedHead(this.store);
  }

  getFeedEvents(from: number, to: number, reference?: FeedReference): Promise<FeedEventRecord[]> {
    return selectFeedEvents(this.store, from, to, reference === undefined ? {} : { reference });
  }

  getTrades(filter: TradeFilter): Promise<TradeRecord[]> {
    return selectTrades(this.store, { ...filter, pool: filter.pool === null ? null : norm(filter.pool) });
  }

  getPoolMarkets(since: number, until: number): Promise<PoolMarketRecord[]> {
    return selectPoolMarkets(this.store, since, until);
  }

  getPoolUsdWindows(): Promise<PoolUsdWindows | null> {
    return selectPoolUsdWindows(this.store);
  }

  getPoolStateTimeline(q: PoolStateTimelineQuery): Promise<PoolStatePoint[]> {
    return selectPoolStateTimeline(this.store, q);
  }

  getQuoteTrades(q: QuoteTradesQuery): Promise<QuoteTradesAt[]> {
    return selectQuoteTrades(this.store, { ...q, quotes: q.quotes.map(norm), tokens: q.tokens?.map(norm) });
  }
}
