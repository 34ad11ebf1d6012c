/**
 * Swap exact-in, for every pool type, with the contracts' acceptance rules and refund codes
 * (v1: contracts.md §2.9; v2: §3.7, §3.9.1 and the check order of vectors/amm/FORMAT.md §3).
 */
import { CURVES } from "./curves/index.ts";
import { zeroAmount } from "./errors.ts";
import { SWAP_EXIT } from "./exit-codes.ts";
import { ceilDiv, FEE_DIVIDER, isTvmExit, MAX_COINS } from "./math.ts";
import { assertValidPool } from "./pool.ts";
import { type Direction, dexVersionOf, type PoolState } from "./types.ts";

export type SwapRequest = {
  direction: Direction;
  amountIn: bigint;
  /** Minimum output from the payload. v1 needs out > min_out; v2 needs out ≥ min_out. Default 0. */
  minOut?: bigint;
  /** Whether the payload names a referrer. */
  hasReferral?: boolean;
  /** v2 only: the per-swap referral fee in bps (0..100 accepted; > 100 is refunded). v1 uses the pool's. */
  refFeeBps?: bigint;
  /** v2 only: the payload's `tx_deadline` and the block time; the pool refunds when deadline ≤ now. */
  deadline?: bigint;
  now?: bigint;
};

export type SwapResult = {
  status: "ok" | "refund";
  /** `swap_ok` or the refund code the pool puts in `pay_to` (a CRC32 value, or a raw TVM/math error). */
  exitCode: number;
  /** What the receiver gets (0 on refund). */
  amountOut: bigint;
  protocolFeeOut: bigint;
  referralFeeOut: bigint;
  /** Gross output after the LP fee: amountOut + protocolFeeOut + referralFeeOut = drop of the ask reserve. */
  baseOut: bigint;
  /** v1: whenever a referrer is named (even for 0); v2: only when the referral amount is > 0. */
  referralMsgSent: boolean;
  /** The offered amount sent back (0 when ok). */
  refundAmount: bigint;
  /** The pool after the swap (unchanged on refund). */
  pool: PoolState;
};

type Gross = { baseOut: bigint; protocolFeeOut: bigint; referralFeeOut: bigint; amountOut: bigint };

/** Output fees on the ask side: each `ceil(base·bps/D)`, from the same base (contracts.md §3.9.1). */
export function outputFees(baseOut: bigint, protocolFeeBps: bigint, referralBps: bigint): Gross {
  const protocolFeeOut = protocolFeeBps > 0n ? ceilDiv(baseOut * protocolFeeBps, FEE_DIVIDER) : 0n;
  const referralFeeOut = referralBps > 0n ? ceilDiv(baseOut * referralBps, FEE_DIVIDER) : 0n;
  return { baseOut, protocolFeeOut, referralFeeOut, amountOut: baseOut - protocolFeeOut - referralFeeOut };
}

function refund(pool: PoolState, amountIn: bigint, exitCode: number): SwapResult {
  return {
    status: "refund",
    exitCode,
    amountOut: 0n,
    protocolFeeOut: 0n,
    referralFeeOut: 0n,
    baseOut: 0n,
    referralMsgSent: false,
    refundAmount: amountIn,
    pool,
  };
}

/** Pool state after a successful swap: the full input joins the reserve, `base_out` leaves. */
function applySwap(pool: PoolState, direction: Direction, amountIn: bigint, g: Gross): PoolState {
  if (direction === "0to1") {
    return {
      ...pool,
      reserve0: pool.reserve0 + amountIn,
      reserve1: pool.reserve1 - g.baseOut,
      collectedProtocolFee1: pool.collectedProtocolFee1 + g.protocolFeeOut,
    };
  }
  return {
    ...pool,
    reserve1: pool.reserve1 + amountIn,
    reserve0: pool.reserve0 - g.baseOut,
    collectedProtocolFee0: pool.collectedProtocolFee0 + g.protocolFeeOut,
  };
}

const reservesInRange = (p: PoolState) =>
  p.reserve0 > 0n && p.reserve1 > 0n && p.reserve0 <= MAX_COINS && p.reserve1 <= MAX_COINS;

function ok(pool: PoolState, g: Gross, referralMsgSent: boolean): SwapResult {
  return { status: "ok", exitCode: SWAP_EXIT.swap_ok, ...g, referralMsgSent, refundAmount: 0n, pool };
}

function swapV1(pool: PoolState, req: SwapRequest, known: bigint | undefined): SwapResult {
  const { direction, amountIn } = req;
  const hasRef = req.hasReferral === true;
  const base = known ?? CURVES[pool.type].baseOut(pool, direction, amountIn);
  const g = outputFees(base, pool.protocolFeeBps, hasRef ? pool.refFeeBps : 0n);
  // v1 uses one code for no supply, nothing out and slippage; it accepts only out > min_out.
  if (pool.lpSupply <= 0n || g.amountOut <= 0n || (req.minOut ?? 0n) >= g.amountOut) {
    return refund(pool, amountIn, SWAP_EXIT.swap_refund_no_liq);
  }
  const next = applySwap(pool, direction, amountIn, g);
  if (!reservesInRange(next)) return refund(pool, amountIn, SWAP_EXIT.swap_refund_reserve_err);
  return ok(next, g, hasRef);
}

function swapV2(pool: PoolState, req: SwapRequest, known: bigint | undefined): SwapResult {
  const { direction, amountIn } = req;
  const refFeeBps = req.refFeeBps ?? 0n;
  if (pool.isLocked) return refund(pool, amountIn, SWAP_EXIT.swap_pool_locked);
  if (refFeeBps > 100n) return refund(pool, amountIn, SWAP_EXIT.swap_fee_out_of_bounds);
  let g: Gross;
  try {
    const base = known ?? CURVES[pool.type].baseOut(pool, direction, amountIn);
    g = outputFees(base, pool.protocolFeeBps, req.hasReferral === true ? refFeeBps : 0n);
  } catch (e) {
    // The pool catches math exceptions and refunds with their number (contracts.md §3.7).
    if (isTvmExit(e)) return refund(pool, amountIn, e.exitCode);
    throw e;
  }
  if (req.deadline !== undefined && req.now !== undefined && req.deadline <= req.now) {
    return refund(pool, amountIn, SWAP_EXIT.swap_refund_tx_expired);
  }
  if (pool.lpSupply <= 0n) return refund(pool, amountIn, SWAP_EXIT.swap_refund_no_liq);
  if (g.amountOut < 1n) return refund(pool, amountIn, SWAP_EXIT.swap_refund_0_out);
  if ((req.minOut ?? 0n) > g.amountOut) return refund(pool, amountIn, SWAP_EXIT.swap_refund_slippage);
  const next = applySwap(pool, direction, amountIn, g);
  if (!reservesInRange(next)) return refund(pool, amountIn, SWAP_EXIT.swap_refund_reserve_err);
  return ok(next, g, g.referralFeeOut > 0n);
}

/**
 * Simulate one swap exactly as the pool contract executes it. A refund is a result, not an error;
 * only impossible requests throw (`AmmInputError`: zero or negative amount, invalid pool state).
 */
export function swap(pool: PoolState, req: SwapRequest): SwapResult {
  return swapAtBase(pool, req, undefined);
}

/**
 * `swap`, for a caller that has already evaluated the curve at `req.amountIn` without an exception:
 * `baseOut` is `CURVES[pool.type].baseOut(pool, req.direction, req.amountIn)` (undefined: not known). The
 * curve is the one step of a swap that reads only those three, so the result is `swap`'s without
 * evaluating it again (the exact-out search has just evaluated it at the input it returns).
 */
export function swapAtBase(pool: PoolState, req: SwapRequest, baseOut: bigint | undefined): SwapResult {
  assertValidPool(pool);
  if (req.amountIn <= 0n) throw zeroAmount("amount_in");
  return dexVersionOf(pool.type) === "v1" ? swapV1(pool, req, baseOut) : swapV2(pool, req, baseOut);
}
