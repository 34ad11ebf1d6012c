/**
 * dex/amm — exact integer AMM math for STON.fi DEX v1 and the five v2 pool types. Pure functions on
 * bigint, bit-for-bit with the contracts (contracts.md §2.9, §3.9, §4, §11).
 */
export type { Curve } from "./curves/index.ts";
export { CURVES } from "./curves/index.ts";
export { AmmInputError, isAmmInputError } from "./errors.ts";
export { BURN_EXIT, SWAP_EXIT } from "./exit-codes.ts";
export {
  type BurnResult,
  burn,
  type ProvideRequest,
  type ProvideResult,
  provide,
  V2_LOCKED_LP,
} from "./liquidity.ts";
export { FEE_DIVIDER, isTvmExit, MAX_COINS, TvmExit } from "./math.ts";
export { assertValidPool, MAX_POOL_FEE_BPS } from "./pool.ts";
export { feelessState, outputWithoutFees, priceImpact, spotPrice, swapRate } from "./price.ts";
export { type Ratio, type Rounding, ratio, toDecimalString } from "./ratio.ts";
export {
  bisectionMissesMinimum,
  minimalInput,
  OutputNotReachableError,
  type ReverseRequest,
  type ReverseResult,
  reverseSwap,
} from "./reverse.ts";
export { outputFees, type SwapRequest, type SwapResult, swap } from "./swap.ts";
export {
  type CurveState,
  type Direction,
  dexVersionOf,
  isPoolType,
  POOL_TYPES,
  type PoolState,
  type PoolType,
  poolState,
} from "./types.ts";
