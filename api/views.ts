/**
 * What the query functions (api/queries/) return beyond the read model's records, and the mappers
 * (api/mappers/) turn into DTOs. Declared here so the mappers import no query module (queries use the
 * mappers' formatting; the other direction would be a cycle).
 */
import type { Operation } from "../dex/classify/index.ts";
import type { RawTransaction } from "../schemas/raw-transaction.ts";
import type { AssetRecord, LpPositionRecord, OperationRecord, PoolRecord, RawAddress } from "./read-model.ts";
import type { CandleRow, Window } from "./read-model-stats.ts";

/** A wallet's balance of one asset: absent fields are unknown (no chain access, or the chain did not say). */
export type WalletBalance = { balance?: bigint; jettonWallet?: RawAddress };

export type OperationView = { op: OperationRecord; asset0: AssetRecord; asset1: AssetRecord };

export type ActionTree = {
  root: RawTransaction;
  txs: RawTransaction[];
  operations: Operation[];
  /** Every internal message sent inside the tree reached its destination transaction. */
  completed: boolean;
};

export type PoolView = { pool: PoolRecord; position?: LpPositionRecord };

// Statistics (api/queries/stats.ts → api/mappers/stats.ts).

/** USD figures are null when an executed leg of the window has no USD value (unknown is not zero). */
export type DexStatsView = Window & {
  trades: number;
  uniqueWallets: number;
  volumeUsd: number | null;
  /** DEX TVL at `until` (api/queries/tvl.ts `dexTvlAt`); null: not known. */
  tvlUsd: number | null;
};

/** One pool's window, oriented on the pool's token order: base = token0, quote = token1. */
export type PoolStatsView = {
  pool: RawAddress;
  record: PoolRecord | null;
  router: RawAddress | null;
  base: AssetRecord | null;
  quote: AssetRecord | null;
  baseAddress: RawAddress | null;
  quoteAddress: RawAddress | null;
  trades: number;
  /** Null when not counted (every pool's statistics, unless asked for). */
  uniqueWallets: number | null;
  baseVolume: bigint;
  quoteVolume: bigint;
  /** Null when a trade of the window has no known protocol fee (its pool's state was unknown). */
  protocolFeeBase: bigint | null;
  protocolFeeQuote: bigint | null;
  referralFeeBase: bigint;
  referralFeeQuote: bigint;
  volumeUsd: number | null;
  /** The last executed trade (base, quote amounts); null when the window has none. */
  last: { base: bigint; quote: bigint } | null;
};

export type PoolStatsListView = Window & { uniqueWallets: number; pools: PoolStatsView[] };

/** A fee asset's sums; a USD sum is null when an event in it has no USD value (unknown is not zero). */
export type FeeAssetView = {
  asset: RawAddress | null;
  accrued: bigint;
  withdrawn: bigint;
  accruedUsd: number | null;
  withdrawnUsd: number | null;
};

/** One candle interval: the rollup row, which side (a/b) is the described token, and whether it is a filled gap. */
export type CandleView = CandleRow & { described: "a" | "b"; empty: boolean };

export type OhlcvView = {
  pool: RawAddress;
  timeframe: "minute" | "hour" | "day";
  aggregate: number;
  currency: "token" | "usd";
  /** The token the candles price, and the token its price and volume are in. */
  described: AssetRecord | null;
  describedAddress: RawAddress | null;
  unit: AssetRecord | null;
  unitAddress: RawAddress | null;
  /** Oldest first. */
  candles: CandleView[];
};
