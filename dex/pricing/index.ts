/**
 * dex/pricing — USD prices, swap volume and pool TVL from pool states (shared/reference/analytics.md §7).
 * Pure: no I/O, no clock. Raw amounts stay bigint; USD figures are Float64 (approximate by nature).
 */
export {
  type Confidence,
  clampToVwap,
  type PoolView,
  PriceBook,
  type PriceBookOptions,
  type PriceSource,
  type PricingPool,
  pairKey,
  poolIndex,
  ratioToNumber,
  spotInOther,
  type TokenPrice,
  type VwapSample,
} from "./book.ts";
export {
  DEFAULT_THRESHOLDS,
  type Lsd,
  MAINNET_PRICING,
  MAINNET_USDT,
  type PricingConfig,
  TON_ADDRESS,
  TON_DECIMALS,
  type UsdAnchor,
} from "./config.ts";
export { type Weighted, weightedMedian } from "./median.ts";
export { type DexTvl, dexTvl, type PoolTvl, poolTvl, tvlDependencies } from "./tvl.ts";
export { lpFeeUsd, type SwapLeg, type SwapUsd, swapVolumeUsd } from "./volume.ts";
export { type QuoteTrades, quoteCandidates, VwapWindow, vwapSamples } from "./vwap.ts";
