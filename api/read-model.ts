/**
 * `DexReadModel`: the typed queries the REST API asks of the facts store. The ClickHouse adapter
 * implements it over the facts tables; `./read-model-memory.ts` implements it over plain objects for tests.
 *
 * Domain types, not wire types: amounts, lt and query ids are bigint; addresses are canonical raw strings
 * (`wc:HEX`, uppercase hex, as the store keeps them); hashes lowercase hex; times unix seconds. Display
 * values the store only approximates (USD prices, APYs) stay decimal strings. Mapping to the STON.fi wire
 * format (friendly addresses, decimal strings) happens in api/mappers only.
 */
import type { CurveState, PoolState } from "../dex/amm/index.ts";
import type { QuoteTrades } from "../dex/pricing/index.ts";
import type { RawTransaction } from "../schemas/raw-transaction.ts";

/** Canonical raw address `wc:HEX` (uppercase hex). */
export type RawAddress = string;

export type RouterType = "ConstantProduct" | "StableSwap" | "WeightedConstProduct" | "WeightedStableSwap";

/**
 * A router as the store knows it. Its DEX generation is always known (from the operations it handles);
 * the rest comes from its get-methods and from TON operations, and is null until then (no chain access).
 */
export type RouterRecord = {
  address: RawAddress;
  /** 1.0 (v1), 2.1 or 2.2. */
  majorVersion: number;
  minorVersion: number | null;
  routerType: RouterType | null;
  poolCreationEnabled: boolean | null;
  ptonMaster: RawAddress | null;
  /** pTON version as the SDK names it: "v1" or "v2_1". */
  ptonVersion: string | null;
  /** The router's own pTON wallet (where TON offers are sent). */
  ptonWallet: RawAddress | null;
};

export type AssetKind = "Ton" | "Wton" | "Jetton" | "NotAnAsset";

export type AssetRecord = {
  /** Jetton master; native TON is the zero address `0:000…0`. */
  address: RawAddress;
  kind: AssetKind;
  /** Metadata the service does not know is null, never invented (no chain access, unreadable content). */
  symbol: string | null;
  displayName?: string;
  imageUrl?: string;
  decimals: number | null;
  priority: number;
  pairPriority?: number;
  deprecated: boolean;
  community: boolean;
  blacklisted: boolean;
  defaultSymbol: boolean;
  taxable: boolean;
  tags: readonly string[];
  /** Approximate USD prices (decimal strings). */
  dexPriceUsd?: string;
  thirdPartyPriceUsd?: string;
  popularityIndex?: number;
  customPayloadApiUri?: string;
  extensions?: readonly string[];
  scale?: string;
  /** Raw total supply (jetton_data); null or absent: not known. */
  totalSupply?: bigint | null;
};

/** Approximate pool figures for display; all optional, decimal strings. */
export type PoolStats = {
  lpTotalSupplyUsd?: string;
  lpPriceUsd?: string;
  apy1d?: string;
  apy7d?: string;
  apy30d?: string;
  volume24hUsd?: string;
  popularityIndex?: number;
};

/**
 * A pool as the store knows it: every pool an operation names, with null for what is not known (a pool
 * already active before the first transaction indexed, without chain access to read it, has no state).
 */
export type PoolRecord = {
  address: RawAddress;
  router: RawAddress | null;
  /** DEX generation: always known (the operations on the pool say it). */
  dex: "v1" | "v2";
  /** Asset addresses in the pool's stored order (TON for a pTON side); null while not known. */
  token0: RawAddress | null;
  token1: RawAddress | null;
  /** The router's jetton wallets for token0/token1: what a swap names as offer/ask wallet. */
  token0Wallet: RawAddress | null;
  token1Wallet: RawAddress | null;
  /** Latest known state (reserves, fees, LP supply, type parameters): what dex/amm computes on; null: unknown. */
  state: PoolState | null;
  /** Logical time of the pool transaction that produced `state`; null with it. */
  stateLt: bigint | null;
  /** null: not known (the tracked pool states do not carry it; a chain read does; addr_none is the zero address). */
  protocolFeeAddress: RawAddress | null;
  deprecated: boolean;
  stats?: PoolStats;
};

/** A pool whose router, tokens and state are all known: what simulations compute on. */
export type KnownPoolRecord = PoolRecord & {
  router: RawAddress;
  token0: RawAddress;
  token1: RawAddress;
  token0Wallet: RawAddress;
  token1Wallet: RawAddress;
  state: PoolState;
  stateLt: bigint;
};

/**
 * An asset's decimals among `assets`, undefined when unknown: a list searched rather than indexed (a
 * simulation reads one or two assets and makes no map); the last of an address counts, as it would in a
 * map built from the list.
 */
export function decimalsOf(assets: readonly AssetRecord[], address: RawAddress): number | undefined {
  return assets.findLast((a) => a.address === address)?.decimals ?? undefined;
}

export function isKnownPool(p: PoolRecord): p is KnownPoolRecord {
  return (
    p.router !== null &&
    p.token0 !== null &&
    p.token1 !== null &&
    p.token0Wallet !== null &&
    p.token1Wallet !== null &&
    p.state !== null &&
    p.stateLt !== null
  );
}

export type OperationType =
  | "Swap"
  | "SendLiquidity"
  | "RefundLiquidity"
  | "AddLiquidity"
  | "WithdrawLiquidity"
  | "SetFees"
  | "CollectFees"
  | "ResetGas";

/** One DEX operation seen from the pool (api.md §4.6), with the wallet transaction that started it. */
export type OperationRecord = {
  type: OperationType;
  poolTxHash: string;
  poolTxLt: bigint;
  poolTxTime: number;
  pool: RawAddress;
  router: RawAddress;
  dexVersion: 1 | 2;
  destinationWallet: RawAddress;
  success: boolean;
  /** Exit code name, e.g. `swap_ok`, `swap_refund_slippage`. */
  exitCode: string;
  asset0: RawAddress;
  asset1: RawAddress;
  amount0: bigint;
  amount1: bigint;
  /** Signed change of the pool reserves; null: not known (no pool state and not determined by the operation). */
  delta0: bigint | null;
  delta1: bigint | null;
  /** Reserves and LP supply after the operation; null: the pool's state at that time is not known. */
  reserve0: bigint | null;
  reserve1: bigint | null;
  lpTokenDelta: bigint | null;
  lpTokenSupply: bigint | null;
  feeAsset: RawAddress | null;
  /** null: not known (the state before the swap is unknown, or no message states the fee). */
  lpFee: bigint | null;
  protocolFee: bigint | null;
  referralFee: bigint;
  referral: RawAddress | null;
  wallet: RawAddress;
  /** The wallet's transaction that started the operation (the top of its trace); null: not stored. */
  walletTxHash: string | null;
  walletTxLt: bigint | null;
  walletTxTime: number | null;
};

export type OperationFilter = {
  /** Inclusive unix-second bounds on the pool transaction time. */
  since: number;
  until: number;
  /** Empty or absent: every type. */
  types?: readonly OperationType[];
  /** false: DEX v1 operations only. */
  dexV2: boolean;
};

/** A wallet's LP position in one pool, as the store knows it. */
export type LpPositionRecord = {
  pool: RawAddress;
  lpWallet: RawAddress | null;
  lpBalance: bigint;
  lpAccount: RawAddress | null;
  /** Deposits waiting in the LpAccount. */
  lpAccountAmount0: bigint;
  lpAccountAmount1: bigint;
};

/** A v2 referral-fee vault (api.md §8 fee_vaults). */
export type FeeVaultRecord = { vault: RawAddress; router: RawAddress; asset: RawAddress; balance: bigint };

export type TxRef = { hash: string; lt: bigint; account: RawAddress };

/** Last transactions of a wallet, newest first, and the wallet's seqno when the store knows it. */
export type WalletTransactions = { seqno: number | null; txs: TxRef[] };

/** `/v1/transactions/query`: by the wallet and the query id of a message it sent, or by external message hash. */
export type TxLookup = { since: number } & ({ wallet: RawAddress; queryId: bigint } | { extMsgHash: string });
export type TxLookupResult = TxRef & { walletSeqno: number | null };

/** The outcome of one swap for `/v1/swap/status` (api.md §6.4). */
export type SwapStatusRecord = {
  wallet: RawAddress;
  queryId: bigint;
  exitCode: string;
  /** What the wallet received: the ask amount, or the refunded offer amount. */
  coins: bigint;
  /** Logical time and hash of the pool transaction. */
  lt: bigint;
  txHash: string;
  /** Signed balance change of the wallet per asset. */
  balanceDeltas: ReadonlyMap<RawAddress, bigint>;
};

/** A masterchain block of the export feeds: its seqno and time (unix seconds). */
export type FeedBlock = { mcSeqno: number; utime: number };

/**
 * One pool event of the export feeds (api/README "Export feeds"): an executed swap, a mint (join) or a
 * burn (exit) at a pool, in the masterchain block that committed the pool transaction. Amounts are raw, in
 * the pool's token order; a swap's `swapIn` names the side it sold (`amount{swapIn}` in, the other out).
 */
export type FeedEventRecord = {
  block: FeedBlock;
  /** The pool transaction holding the event. */
  txHash: string;
  lt: bigint;
  /** The operation id: orders several events of one transaction. */
  id: string;
  pool: RawAddress;
  asset0: RawAddress;
  asset1: RawAddress;
  kind: "swap" | "join" | "exit";
  swapIn: 0 | 1 | null;
  amount0: bigint;
  amount1: bigint;
  /** Pool reserves after the pool transaction; null: that state is not stored. */
  reserve0: bigint | null;
  reserve1: bigint | null;
  /** The user's wallet that started the operation. */
  maker: RawAddress;
  /**
   * Decimals of asset0/asset1, read with the event: null when the feed cannot serve the event (the pool's
   * tokens are not known, or an asset's name, symbol or decimals are not).
   */
  decimals0: number | null;
  decimals1: number | null;
};

/**
 * Reference data a caller already holds (api/read-model-cached.ts's lists), which the feed uses only where
 * it answers for good: a pool whose tokens and router wallets are all known (a pool's tokens never change),
 * an asset the feed can describe. Anything else is read from the store with the events.
 */
export type FeedReference = {
  pool(address: RawAddress): PoolRecord | undefined;
  asset(address: RawAddress): AssetRecord | undefined;
};

/**
 * An executed swap leg at a pool (a trade of the aggregator feeds: api/README "Export feeds"), amounts raw
 * in the pool's token order; `swapIn` names the side sold (`amount{swapIn}` in, the other out).
 */
export type TradeRecord = {
  id: string;
  txHash: string;
  lt: bigint;
  mcSeqno: number;
  /** The pool transaction's time, unix seconds. */
  utime: number;
  pool: RawAddress;
  swapIn: 0 | 1;
  amount0: bigint;
  amount1: bigint;
};

export type TradeFilter = {
  /** null: every pool. */
  pool: RawAddress | null;
  /** Inclusive bounds on the pool transaction's time, unix seconds. */
  since: number;
  until: number;
  /** Only trades that sold this side. */
  swapIn?: 0 | 1;
  /** The newest `limit` (newest first). */
  limit: number;
};

/** A pool's executed trades over a window: counts and raw volumes in token order, and three of its trades. */
export type PoolMarketRecord = {
  pool: RawAddress;
  trades: number;
  volume0: bigint;
  volume1: bigint;
  /** (amount0, amount1) of the last trade in chain order, and of the trades at the highest and lowest price of token0 in token1. */
  last: readonly [bigint, bigint];
  high: readonly [bigint, bigint];
  low: readonly [bigint, bigint];
};

export type SwapKey = { router: RawAddress; owner: RawAddress; queryId: bigint };

/** A pool's USD volume and LP fees (sums of the swaps' USD columns) over windows ending at `until`. */
export type PoolUsdWindow = { volume1d: number; lpFee1d: number; lpFee7d: number; lpFee30d: number };

/** Boundaries `first`, `first + step`, … ≤ `until` (unix seconds); `pools`: only these (absent: every pool). */
export type PoolStateTimelineQuery = {
  readonly first: number;
  readonly until: number;
  readonly step: number;
  readonly pools?: readonly RawAddress[];
  /**
   * A read of every pool (no `pools`) for a caller that values only these pools: a pool quiet for the whole
   * look-back is then searched among them alone, without listing the pools with older states first. The
   * states of the other pools may be left out.
   */
  readonly listed?: readonly RawAddress[];
};

/**
 * The trades behind the VWAP clamp of analytics.md §7.4 at the boundaries `first`, `first + step`, … ≤
 * `last` (unix seconds): for each boundary `at`, the executed swap legs with utime in (at − windowSeconds,
 * at], a positive token amount and a positive `volume_usd`, whose one side is in `quotes` and the other not
 * (dex/pricing `quoteCandidates`), summed per (token, quote). `tokens`: only trades of these tokens (absent:
 * every token).
 */
export type QuoteTradesQuery = {
  readonly first: number;
  readonly last: number;
  readonly step: number;
  readonly windowSeconds: number;
  readonly quotes: readonly RawAddress[];
  readonly tokens?: readonly RawAddress[];
};
/** One boundary's sums of one token's trades against one quote. */
export type QuoteTradesAt = QuoteTrades & { readonly at: number };

/**
 * A pool's state at a time boundary (TVL history, api/queries/tvl.ts): the state after the pool's last
 * transaction at or before `at` (unix seconds), as valuation reads it (its curve: dex/amm `CurveState`).
 */
export type PoolStatePoint = { pool: RawAddress; at: number; state: CurveState };

/** USD activity per pool over the last 1, 7 and 30 days of indexed data (api/pricing.ts). */
export type PoolUsdWindows = {
  /** The newest indexed transaction's time: the windows are (until − N days, until]. */
  until: number;
  /** The oldest indexed transaction's time: a window reaching before it is not fully known. */
  firstIndexed: number;
  /** Pools with executed swaps in the last 30 days; a pool absent here traded nothing. */
  pools: ReadonlyMap<RawAddress, PoolUsdWindow>;
};

/**
 * What `getRouter`, `getAssets`, `getPool` and `getPoolsByAssets` would answer now, answered at once by a
 * read model that holds those records in memory (api/read-model-cached.ts), for simulations: the same
 * records except for the USD figures a listing adds (api/read-model-priced.ts). A wrapper that changes
 * any other field of those answers (api/asset-list.ts: listed metadata) changes these lookups the same
 * way. Lists are not to be changed.
 */
export type ReferenceNow = {
  getRouter(address: RawAddress): RouterRecord | null;
  getAssets(addresses: readonly RawAddress[]): AssetRecord[];
  getPool(address: RawAddress): PoolRecord | null;
  getPoolsByAssets(a: RawAddress, b: RawAddress): readonly PoolRecord[];
};

export interface DexReadModel {
  /** The reference lookups answered at once, or undefined when they have to be read (or are not kept). */
  referenceNow?(): ReferenceNow | undefined;
  listRouters(): Promise<RouterRecord[]>;
  getRouter(address: RawAddress): Promise<RouterRecord | null>;
  listAssets(): Promise<AssetRecord[]>;
  /** The known ones among `addresses`, any order. */
  getAssets(addresses: readonly RawAddress[]): Promise<AssetRecord[]>;
  listPools(): Promise<PoolRecord[]>;
  getPool(address: RawAddress): Promise<PoolRecord | null>;
  /** Every pool (any router, any version) trading the two assets, in either order. */
  getPoolsByAssets(a: RawAddress, b: RawAddress): Promise<PoolRecord[]>;
  getWalletOperations(wallet: RawAddress, filter: OperationFilter): Promise<OperationRecord[]>;
  getWalletLpPositions(wallet: RawAddress): Promise<LpPositionRecord[]>;
  getFeeVaults(owner: RawAddress): Promise<FeeVaultRecord[]>;
  getWalletTransactions(
    wallet: RawAddress,
    opts: { limit: number; since?: number },
  ): Promise<WalletTransactions>;
  findTransaction(lookup: TxLookup): Promise<TxLookupResult | null>;
  /**
   * The time of the newest indexed transaction (time windows are measured from it), or null before the
   * first. (The newest block of the export feed is `getFeedHead`.)
   */
  getIndexedHead(): Promise<{ utime: number } | null>;
  /** A stored transaction with its messages (hashes are the edges of the trace graph). */
  getTransaction(hash: string): Promise<RawTransaction | null>;
  /** The transactions whose inbound message is one of `msgHashes` (the next hop of a trace). */
  getTransactionsByInMsg(msgHashes: readonly string[]): Promise<RawTransaction[]>;
  findSwap(key: SwapKey): Promise<SwapStatusRecord | null>;
  /** The newest masterchain block whose feed events are all stored (never ahead of `getFeedEvents`). */
  getFeedHead(): Promise<FeedBlock | null>;
  /** Feed events of the blocks `from..to` (inclusive), in chain order: block, lt, id. */
  getFeedEvents(from: number, to: number, reference?: FeedReference): Promise<FeedEventRecord[]>;
  /** Executed trades in a time window, newest first (api/README "Export feeds"). */
  getTrades(filter: TradeFilter): Promise<TradeRecord[]>;
  /** Per pool with a trade in the inclusive window `since..until` (unix seconds): see PoolMarketRecord. */
  getPoolMarkets(since: number, until: number): Promise<PoolMarketRecord[]>;
  /** USD volume and LP fees per pool over the recent windows; null before anything is indexed; absent: not kept. */
  getPoolUsdWindows?(): Promise<PoolUsdWindows | null>;
  /**
   * Pool states for the boundaries `first`, `first + step`, … ≤ `until`: each pool's state at `first`
   * (`at = first`), then its state at each later boundary where it changed; a pool without a state at a
   * boundary is absent there. `pools`: only those pools' states. Absent: no state history is kept.
   */
  getPoolStateTimeline?(q: PoolStateTimelineQuery): Promise<PoolStatePoint[]>;
  /** The trades of the VWAP clamp at each boundary (QuoteTradesQuery). Absent: no swap history is kept. */
  getQuoteTrades?(q: QuoteTradesQuery): Promise<QuoteTradesAt[]>;
}

/**
 * Thrown by a read model when its backing service (ClickHouse, Redis, a chain API) is down or timed out.
 * The API checks brands, not classes: this one carries both `retryable: true` and infra's
 * `tondexError: "retryable"` (infra/errors.ts), so infra's `RetryableError` is answered the same way (503).
 */
export class ReadModelUnavailableError extends Error {
  override readonly name = "ReadModelUnavailableError";
  readonly retryable = true;
  readonly tondexError = "retryable" as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
