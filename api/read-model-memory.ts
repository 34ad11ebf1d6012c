/**
 * `DexReadModel` over plain objects in memory: used by the API tests, and by tests that fill it from devnet
 * ground truth. Same semantics as the ClickHouse adapter is expected to have; no indexes, just scans.
 */
import { Cell } from "@ton/core";
import type { PoolState } from "../dex/amm/index.ts";
import type { RawTransaction } from "../schemas/raw-transaction.ts";
import type {
  AssetRecord,
  DexReadModel,
  FeedBlock,
  FeedEventRecord,
  FeeVaultRecord,
  LpPositionRecord,
  OperationFilter,
  OperationRecord,
  PoolMarketRecord,
  PoolRecord,
  PoolStatePoint,
  PoolStateTimelineQuery,
  PoolUsdWindow,
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

export type MemoryData = {
  routers?: RouterRecord[];
  assets?: AssetRecord[];
  pools?: PoolRecord[];
  operations?: OperationRecord[];
  lpPositions?: (LpPositionRecord & { wallet: RawAddress })[];
  feeVaults?: (FeeVaultRecord & { owner: RawAddress })[];
  transactions?: RawTransaction[];
  walletSeqnos?: Record<RawAddress, number>;
  swaps?: (SwapStatusRecord & { router: RawAddress })[];
  /** Export feed: the newest fully stored block and the events (any order). */
  feedHead?: FeedBlock;
  feedEvents?: FeedEventRecord[];
  /**
   * Executed swap legs' USD columns (swaps.volume_usd, lp_fee_usd) by pool and time, for the USD windows;
   * with their assets and amounts, for the VWAP clamp's trades (`getQuoteTrades`).
   */
  swapUsd?: {
    pool: RawAddress;
    utime: number;
    volumeUsd: number;
    lpFeeUsd: number;
    offer?: RawAddress;
    ask?: RawAddress;
    amountIn?: bigint;
    amountOut?: bigint;
  }[];
  /** Pool state history (pool_states rows), for the TVL history. */
  poolStates?: { pool: RawAddress; utime: number; lt: bigint; state: PoolState }[];
};

/** Chain order of feed events: block, then logical time, then operation id. */
export function compareFeedEvents(x: FeedEventRecord, y: FeedEventRecord): number {
  if (x.block.mcSeqno !== y.block.mcSeqno) return x.block.mcSeqno - y.block.mcSeqno;
  if (x.lt !== y.lt) return x.lt < y.lt ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

/** Raw addresses compare in canonical form (uppercase hex). */
const norm = (raw: RawAddress): RawAddress => raw.toUpperCase();

/** The query id of a message body that carries one right after its op code (jetton transfer, pTON, DEX ops). */
function queryIdOf(bodyBoc: string): bigint | null {
  try {
    const s = Cell.fromBase64(bodyBoc).beginParse();
    if (s.remainingBits < 96) return null;
    s.skip(32);
    return s.loadUintBig(64);
  } catch {
    return null;
  }
}

export class MemoryReadModel implements DexReadModel {
  constructor(readonly data: MemoryData) {}

  private get txs(): RawTransaction[] {
    return this.data.transactions ?? [];
  }

  async listRouters(): Promise<RouterRecord[]> {
    return [...(this.data.routers ?? [])];
  }

  async getRouter(address: RawAddress): Promise<RouterRecord | null> {
    return this.data.routers?.find((r) => r.address === norm(address)) ?? null;
  }

  async listAssets(): Promise<AssetRecord[]> {
    return [...(this.data.assets ?? [])];
  }

  async getAssets(addresses: readonly RawAddress[]): Promise<AssetRecord[]> {
    const wanted = new Set(addresses.map(norm));
    return (this.data.assets ?? []).filter((a) => wanted.has(a.address));
  }

  async listPools(): Promise<PoolRecord[]> {
    return [...(this.data.pools ?? [])];
  }

  async getPool(address: RawAddress): Promise<PoolRecord | null> {
    return this.data.pools?.find((p) => p.address === norm(address)) ?? null;
  }

  async getPoolsByAssets(a: RawAddress, b: RawAddress): Promise<PoolRecord[]> {
    const pair = new Set([norm(a), norm(b)]);
    return (this.data.pools ?? []).filter(
      (p) =>
        pair.size === 2 && p.token0 !== null && p.token1 !== null && pair.has(p.token0) && pair.has(p.token1),
    );
  }

  async getWalletOperations(wallet: RawAddress, f: OperationFilter): Promise<OperationRecord[]> {
    return (this.data.operations ?? [])
      .filter(
        (o) =>
          o.wallet === norm(wallet) &&
          o.poolTxTime >= f.since &&
          o.poolTxTime <= f.until &&
          (f.types === undefined || f.types.length === 0 || f.types.includes(o.type)) &&
          (f.dexV2 || o.dexVersion === 1),
      )
      .sort((x, y) => (x.poolTxLt < y.poolTxLt ? -1 : x.poolTxLt > y.poolTxLt ? 1 : 0));
  }

  async getWalletLpPositions(wallet: RawAddress): Promise<LpPositionRecord[]> {
    return (this.data.lpPositions ?? [])
      .filter((p) => p.wallet === norm(wallet))
      .map(({ wallet: _, ...position }) => position);
  }

  async getFeeVaults(owner: RawAddress): Promise<FeeVaultRecord[]> {
    return (this.data.feeVaults ?? []).filter((v) => v.owner === norm(owner)).map(({ owner: _, ...v }) => v);
  }

  async getWalletTransactions(
    wallet: RawAddress,
    opts: { limit: number; since?: number },
  ): Promise<WalletTransactions> {
    const txs = this.txs
      .filter((t) => t.account === norm(wallet) && t.now >= (opts.since ?? 0))
      .sort((x, y) => (BigInt(y.lt) > BigInt(x.lt) ? 1 : -1))
      .slice(0, opts.limit)
      .map((t) => ({ hash: t.hash, lt: BigInt(t.lt), account: t.account }));
    return { seqno: this.data.walletSeqnos?.[norm(wallet)] ?? null, txs };
  }

  async findTransaction(lookup: TxLookup): Promise<TxLookupResult | null> {
    const tx = this.txs.find((t) => {
      if (t.now < lookup.since) return false;
      if ("extMsgHash" in lookup) return t.in_msg?.source === null && t.in_msg.hash === lookup.extMsgHash;
      return (
        t.account === norm(lookup.wallet) && t.out_msgs.some((m) => queryIdOf(m.body_boc) === lookup.queryId)
      );
    });
    if (tx === undefined) return null;
    return {
      hash: tx.hash,
      lt: BigInt(tx.lt),
      account: tx.account,
      walletSeqno: this.data.walletSeqnos?.[tx.account] ?? null,
    };
  }

  async getIndexedHead(): Promise<{ utime: number } | null> {
    if (this.txs.length === 0) return null;
    return { utime: Math.max(...this.txs.map((t) => t.now)) };
  }

  async getTransaction(hash: string): Promise<RawTransaction | null> {
    return this.txs.find((t) => t.hash === hash.toLowerCase()) ?? null;
  }

  async getTransactionsByInMsg(msgHashes: readonly string[]): Promise<RawTransaction[]> {
    const wanted = new Set(msgHashes);
    return this.txs.filter((t) => t.in_msg !== null && wanted.has(t.in_msg.hash));
  }

  async findSwap(key: SwapKey): Promise<SwapStatusRecord | null> {
    const found = (this.data.swaps ?? []).find(
      (s) => s.router === norm(key.router) && s.wallet === norm(key.owner) && s.queryId === key.queryId,
    );
    if (found === undefined) return null;
    const { router: _, ...status } = found;
    return status;
  }

  async getFeedHead(): Promise<FeedBlock | null> {
    return this.data.feedHead ?? null;
  }

  async getFeedEvents(from: number, to: number): Promise<FeedEventRecord[]> {
    return (this.data.feedEvents ?? [])
      .filter((e) => e.block.mcSeqno >= from && e.block.mcSeqno <= to)
      .sort(compareFeedEvents);
  }

  /** The feed's swap events as trades; their time is the block's (the records carry no other). */
  #trades(since: number, until: number): TradeRecord[] {
    return (this.data.feedEvents ?? [])
      .filter((e) => e.kind === "swap" && e.block.utime >= since && e.block.utime <= until)
      .sort(compareFeedEvents)
      .map((e) => ({
        id: e.id,
        txHash: e.txHash,
        lt: e.lt,
        mcSeqno: e.block.mcSeqno,
        utime: e.block.utime,
        pool: e.pool,
        swapIn: e.swapIn === 1 ? 1 : 0,
        amount0: e.amount0,
        amount1: e.amount1,
      }));
  }

  async getTrades(f: TradeFilter): Promise<TradeRecord[]> {
    return this.#trades(f.since, f.until)
      .filter(
        (t) => (f.pool === null || t.pool === f.pool) && (f.swapIn === undefined || t.swapIn === f.swapIn),
      )
      .reverse()
      .slice(0, f.limit);
  }

  async getPoolMarkets(since: number, until: number): Promise<PoolMarketRecord[]> {
    const byPool = new Map<string, PoolMarketRecord>();
    // Prices compare as exact ratios amount1/amount0 (cross-multiplied).
    const above = (x: readonly [bigint, bigint], y: readonly [bigint, bigint]) => x[1] * y[0] > y[1] * x[0];
    for (const t of this.#trades(since, until)) {
      const pair = [t.amount0, t.amount1] as const;
      const m = byPool.get(t.pool);
      if (m === undefined) {
        byPool.set(t.pool, {
          pool: t.pool,
          trades: 1,
          volume0: t.amount0,
          volume1: t.amount1,
          last: pair,
          high: pair,
          low: pair,
        });
        continue;
      }
      byPool.set(t.pool, {
        ...m,
        trades: m.trades + 1,
        volume0: m.volume0 + t.amount0,
        volume1: m.volume1 + t.amount1,
        last: pair,
        high: above(pair, m.high) ? pair : m.high,
        low: above(m.low, pair) ? pair : m.low,
      });
    }
    return [...byPool.values()].sort((x, y) => (x.pool < y.pool ? -1 : 1));
  }

  /** As the ClickHouse model, at one-second resolution: windows (until − N days, until] of the swaps' USD sums. */
  async getPoolUsdWindows(): Promise<PoolUsdWindows | null> {
    const head = await this.getIndexedHead();
    if (head === null) return null;
    const until = head.utime;
    const pools = new Map<RawAddress, PoolUsdWindow>();
    for (const s of this.data.swapUsd ?? []) {
      const age = until - s.utime;
      if (age < 0 || age >= 30 * 86_400) continue;
      const w = pools.get(s.pool) ?? { volume1d: 0, lpFee1d: 0, lpFee7d: 0, lpFee30d: 0 };
      if (age < 86_400) {
        w.volume1d += s.volumeUsd;
        w.lpFee1d += s.lpFeeUsd;
      }
      if (age < 7 * 86_400) w.lpFee7d += s.lpFeeUsd;
      w.lpFee30d += s.lpFeeUsd;
      pools.set(s.pool, w);
    }
    return { until, firstIndexed: Math.min(...this.txs.map((t) => t.now)), pools };
  }

  /** As the ClickHouse model: per boundary, the legs in (at − windowSeconds, at] summed per (token, quote). */
  async getQuoteTrades(q: QuoteTradesQuery): Promise<QuoteTradesAt[]> {
    const quotes = new Set(q.quotes);
    const tokens = q.tokens === undefined ? null : new Set(q.tokens);
    const out = new Map<string, QuoteTradesAt>();
    for (let at = q.first; at <= q.last; at += q.step) {
      for (const s of this.data.swapUsd ?? []) {
        if (s.utime <= at - q.windowSeconds || s.utime > at || !(s.volumeUsd > 0)) continue;
        if (
          s.offer === undefined ||
          s.ask === undefined ||
          s.amountIn === undefined ||
          s.amountOut === undefined
        )
          continue;
        const offerIsQuote = quotes.has(s.offer);
        if (offerIsQuote === quotes.has(s.ask) || s.amountIn <= 0n || s.amountOut <= 0n) continue;
        const [token, quote, units] = offerIsQuote
          ? [s.ask, s.offer, s.amountOut]
          : [s.offer, s.ask, s.amountIn];
        if (tokens !== null && !tokens.has(token)) continue;
        const key = `${at} ${token} ${quote}`;
        const e = out.get(key);
        out.set(key, {
          at,
          token,
          quote,
          units: (e?.units ?? 0) + Number(units),
          usd: (e?.usd ?? 0) + s.volumeUsd,
          trades: (e?.trades ?? 0) + 1,
        });
      }
    }
    return [...out.values()];
  }

  /** As the ClickHouse model: the last state at or before `first`, then the last of each later step. */
  async getPoolStateTimeline(q: PoolStateTimelineQuery): Promise<PoolStatePoint[]> {
    const last = new Map<string, { lt: bigint; point: PoolStatePoint }>();
    const only = q.pools === undefined ? null : new Set(q.pools);
    for (const s of this.data.poolStates ?? []) {
      if (s.utime > q.until || (only !== null && !only.has(s.pool))) continue;
      // The first boundary at or after it, counted from `first` (as the store's read: ./queries/sql/tvl.ts).
      const at = s.utime <= q.first ? q.first : q.first + Math.ceil((s.utime - q.first) / q.step) * q.step;
      const key = `${s.pool}@${at}`;
      const seen = last.get(key);
      if (seen === undefined || seen.lt < s.lt)
        last.set(key, { lt: s.lt, point: { pool: s.pool, at, state: s.state } });
    }
    return [...last.values()].map((v) => v.point);
  }
}
