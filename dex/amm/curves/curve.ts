/**
 * One curve per pool type. A curve answers three questions, each exactly as the pool contract computes
 * them; any of them may throw `TvmExit` (the pool turns it into a refund, or into "liquidity 0").
 */
import type { Direction, PoolState } from "../types.ts";

export type Curve = {
  /** Gross output `base_out` for `amountIn` offered (LP fee already taken on the input side). */
  baseOut(pool: PoolState, direction: Direction, amountIn: bigint): bigint;
  /**
   * Where the contract's last step floors a finer value into units: that value, the same evaluation
   * with `baseOut = floor(fineOut / fineUnit)`. Where one unit of output takes many units of input, the
   * exact-out search interpolates on it (the output alone is flat across its steps).
   */
  fine?: { out(pool: PoolState, direction: Direction, amountIn: bigint): bigint; unit: bigint };
  /** The invariant V(r0, r1) that later deposits compare (contracts.md §3.9.8). v1 has none. */
  invariant(pool: PoolState, r0: bigint, r1: bigint): bigint;
  /**
   * First deposit: the LP supply the pool stores, plus any parameter the first deposit sets
   * (weighted stableswap fixes its rate here).
   */
  initialSupply(pool: PoolState, amount0: bigint, amount1: bigint): { supply: bigint; rate?: bigint };
};
