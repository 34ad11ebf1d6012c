import { FEE_DIVIDER, floorDiv } from "../math.ts";
import type { PoolState } from "../types.ts";

/** `floor(amount_in·(D − L)/D)`: the input after the LP fee, which stays in the pool (floor). */
export function lpFeeAdjusted(pool: PoolState, amountIn: bigint): bigint {
  return floorDiv(amountIn * (FEE_DIVIDER - pool.lpFeeBps), FEE_DIVIDER);
}
