/**
 * Reverse swap (exact-out): the smallest input whose forward swap pays at least `targetOut`
 * (contracts.md §4, vectors/amm/FORMAT.md §5). No contract computes this; every answer is checked by
 * running the forward swap, so the returned input always delivers the target.
 *
 * The net output is `f(B) = B − ceil(B·P/D) − ceil(B·R/D)` of the gross output B. `f` is not monotone
 * (both ceilings can step at once), so the search works on B: take the smallest B with f(B) ≥ T, find
 * the smallest input reaching it, and if that input overshoots onto a B with f(B) < T, move on.
 */
import { CURVES } from "./curves/index.ts";
import { AmmInputError, emptyPool, zeroAmount } from "./errors.ts";
import { FP_ERRORS } from "./fixed-point.ts";
import { ceilDiv, FEE_DIVIDER, floorDiv, isTvmExit, MAX_COINS } from "./math.ts";
import { assertValidPool } from "./pool.ts";
import { spotPrice } from "./price.ts";
import { outputFees, type SwapRequest, type SwapResult, swap, swapAtBase } from "./swap.ts";
import { type Direction, dexVersionOf, type PoolState, sides } from "./types.ts";

export type ReverseRequest = {
  direction: Direction;
  /** The net amount the receiver must get (after protocol and referral fees). */
  targetOut: bigint;
  hasReferral?: boolean;
  /** v2 per-swap referral fee (bps); v1 uses the pool's. */
  refFeeBps?: bigint;
};

export type ReverseResult = {
  /** The minimal input. */
  amountIn: bigint;
  /** The forward swap at `amountIn` (status ok, amountOut ≥ targetOut). */
  swap: SwapResult;
  /** What `amountIn − 1` would pay (null when amountIn = 1; 0 when that swap refunds). */
  amountOutAtAmountInMinus1: bigint | null;
};

/** The target is above what the pool can pay. Carries the best the pool can do. */
export class OutputNotReachableError extends AmmInputError {
  override name = "OutputNotReachableError";
  constructor(
    why: string,
    readonly maxAmountIn: bigint,
    readonly amountOutAtMaxAmountIn: bigint,
  ) {
    super("output_not_reachable", `requested output cannot be reached: ${why}`, "target_out");
  }
}

type Ctx = {
  pool: PoolState;
  req: ReverseRequest;
  reserveIn: bigint;
  reserveOut: bigint;
  maxIn: bigint;
  /** Referral bps actually charged on this swap. */
  refBps: bigint;
};

function context(pool: PoolState, req: ReverseRequest): Ctx {
  const { reserveIn, reserveOut } = sides(pool, req.direction);
  const v1 = dexVersionOf(pool.type) === "v1";
  const refBps = req.hasReferral === true ? (v1 ? pool.refFeeBps : (req.refFeeBps ?? 0n)) : 0n;
  return {
    pool,
    req,
    reserveIn,
    reserveOut,
    maxIn: MAX_COINS - reserveIn,
    refBps,
  };
}

/**
 * The forward swap's request for `amountIn`, written out as a literal: a spread of a kept request
 * (`{ ...kept, amountIn }`) made objects that V8 kept alive past young collections, promoting ~140
 * bytes per quote to the old generation (a loop of such swaps: 1.5 MB promoted per young collection,
 * none with the literal).
 */
const swapRequestOf = (ctx: Ctx, amountIn: bigint): SwapRequest => ({
  direction: ctx.req.direction,
  amountIn,
  minOut: 0n,
  hasReferral: ctx.req.hasReferral,
  refFeeBps: ctx.req.refFeeBps,
});

const netOf = (ctx: Ctx, base: bigint): bigint =>
  outputFees(base, ctx.pool.protocolFeeBps, ctx.refBps).amountOut;

const forward = (ctx: Ctx, amountIn: bigint): SwapResult => swap(ctx.pool, swapRequestOf(ctx, amountIn));

/** An input with the curve's gross output there, when the search evaluated it (null: not evaluated). */
type Found = { amountIn: bigint; baseOut: bigint | null };

/** Smallest gross output B with f(B) ≥ T: start from the fee inversion, then step (f moves by ≤ 1). */
function minGrossFor(ctx: Ctx, target: bigint): bigint {
  let b = ceilDiv(target * FEE_DIVIDER, FEE_DIVIDER - ctx.pool.protocolFeeBps - ctx.refBps);
  while (b > 1n && netOf(ctx, b - 1n) >= target) b -= 1n;
  while (netOf(ctx, b) < target) b += 1n;
  return b;
}

/**
 * A curve evaluation: the gross output and the value the search interpolates on (`level`: the curve's
 * finer value before its last floor where it has one, else the output), or the TVM exit code.
 */
type CurveOut = { out: bigint; level: bigint } | { exit: number };

/** How many levels make one unit of gross output (`Curve.fine`), 1 where the output is the level. */
const levelUnit = (ctx: Ctx): bigint => CURVES[ctx.pool.type].fine?.unit ?? 1n;

/** The curve's gross output for `amountIn` and its level, or the TVM exit code the math would raise. */
function curveOut(ctx: Ctx, amountIn: bigint): CurveOut {
  const curve = CURVES[ctx.pool.type];
  try {
    if (curve.fine === undefined) {
      const out = curve.baseOut(ctx.pool, ctx.req.direction, amountIn);
      return { out, level: out };
    }
    // baseOut is floor(fine.out / fine.unit) of the same evaluation (Curve.fine).
    const level = curve.fine.out(ctx.pool, ctx.req.direction, amountIn);
    return { out: floorDiv(level, curve.fine.unit), level };
  } catch (e) {
    if (isTvmExit(e)) return { exit: e.exitCode };
    throw e;
  }
}

/**
 * The curve at the largest input the pool can take (`maxIn`), per state object and direction: it does not
 * depend on the target, and for the weighted curves it is a math exception (an Error with its stack),
 * the most expensive evaluation of a search. States are never mutated (a swap makes a new one).
 */
const topOuts = new WeakMap<PoolState, { "0to1"?: CurveOut; "1to0"?: CurveOut }>();
function topOut(ctx: Ctx): CurveOut {
  let kept = topOuts.get(ctx.pool);
  if (kept === undefined) {
    kept = {};
    topOuts.set(ctx.pool, kept);
  }
  const known = kept[ctx.req.direction];
  if (known !== undefined) return known;
  const out = curveOut(ctx, ctx.maxIn);
  kept[ctx.req.direction] = out;
  return out;
}

/** Gross output of a raw curve evaluation; math exceptions count as "not this input". */
function grossOut(ctx: Ctx, amountIn: bigint): bigint | null {
  const r = curveOut(ctx, amountIn);
  return "out" in r ? r.out : null;
}

/** Smallest input whose gross output reaches `b`, or null when no input up to the cap does. */
function inputFor(ctx: Ctx, b: bigint): Found | null {
  const { pool, reserveIn, reserveOut, maxIn } = ctx;
  if (b >= reserveOut) return null;
  const keep = FEE_DIVIDER - pool.lpFeeBps;
  let a: bigint;
  if (pool.type === "v1_constant_product" || pool.type === "v2_constant_product") {
    // Exact: floor(a(D−L)x_out/(x_in·D + a(D−L))) ≥ B ⇔ a(D−L)(x_out − B) ≥ B·x_in·D (ceil).
    a = keep === 0n ? maxIn + 1n : ceilDiv(b * reserveIn * FEE_DIVIDER, keep * (reserveOut - b));
  } else if (pool.type === "v2_constant_sum") {
    a = keep === 0n ? maxIn + 1n : ceilDiv(b * FEE_DIVIDER, keep);
  } else {
    return searchInput(ctx, b);
  }
  if (a < 1n) a = 1n;
  // Safety net for the closed forms (never needed in the vectors).
  for (; a <= maxIn; a += 1n) {
    const out = grossOut(ctx, a);
    if (out !== null && out >= b) return { amountIn: a, baseOut: out };
  }
  return null;
}

/**
 * One curve evaluation: whether input `a` reaches gross output `b`, and the output and level (CurveOut)
 * when it has them.
 */
type Probe = { reaches: boolean; out: bigint | null; level: bigint | null };

/** The input the spot price suggests for gross output `b` (LP fee taken off the input); null: none. */
function spotGuess(ctx: Ctx, b: bigint): bigint | null {
  const keep = FEE_DIVIDER - ctx.pool.lpFeeBps;
  const spot = spotPrice(ctx.pool, ctx.req.direction);
  if (keep <= 0n || spot.num <= 0n) return null;
  return ceilDiv(b * spot.den * FEE_DIVIDER, spot.num * keep);
}

/** Secant steps up from the spot guess before the steps grow ×4 (`searchInput`). */
const SECANT_STEPS = 3;

/**
 * The smallest input whose gross output reaches `b`, for the curves without a closed form. The gross
 * output is monotone in the input, so any search that keeps a bracket (`lo` never reaches, `hi` does) and
 * stops at width 1 finds it exactly; this one finds it in a few curve evaluations instead of one per bit:
 * 1. bracket: from the spot price's guess, steps until the target is crossed: upwards the shortfall at a
 *    secant's rate (a few times, then growing ×4), downwards growing ×4 from guess/2^16;
 * 2. shrink: interpolate on the level (the gross output, or the curve's finer value before its last floor)
 *    between the bracket's ends; when an interpolation does not halve the bracket, the target is near the
 *    side it moved, and steps from that side grow ×4 until they cross it (a step wider than half the
 *    bracket bisects instead), so every probe shrinks the bracket and long runs are logarithmic.
 * Exceptions at tiny inputs (51002, complement out of range) mean "too small"; any other means "too
 * large", which the forward swap then rejects.
 */
function searchInput(ctx: Ctx, b: bigint): Found | null {
  const target = b * levelUnit(ctx);
  const reached = (r: CurveOut): Probe =>
    "out" in r
      ? { reaches: r.out >= b, out: r.out, level: r.level }
      : { reaches: r.exit !== FP_ERRORS.complementOutOfRange, out: null, level: null };
  const probe = (a: bigint): Probe => reached(curveOut(ctx, a));
  const top = reached(topOut(ctx));
  if (!top.reaches) return null;
  let lo = 0n;
  let low: Probe = { reaches: false, out: 0n, level: 0n };
  let hi = ctx.maxIn;
  let high = top;
  const guess = spotGuess(ctx, b);
  if (guess !== null && guess > lo && guess < hi) {
    let step = guess >> 16n > 0n ? guess >> 16n : 1n;
    const g = probe(guess);
    if (g.reaches) {
      [hi, high] = [guess, g];
      for (let a = guess - step; a > lo; step *= 4n, a = hi - step) {
        const q = probe(a);
        if (!q.reaches) {
          [lo, low] = [a, q];
          break;
        }
        [hi, high] = [a, q];
      }
    } else {
      [lo, low] = [guess, g];
      // The spot price ignores the curve's slope, so its guess falls short, by little: steps up are the
      // shortfall at the rate of a secant (from no input to the guess, then through the last two inputs
      // short of the target), which usually lands on the answer; ×4 growth after `SECANT_STEPS` of them.
      let from: Probe = { reaches: false, out: 0n, level: 0n };
      let fromAt = 0n;
      let secants = SECANT_STEPS;
      const secantStep = (): bigint | null => {
        if (secants === 0 || low.level === null || from.level === null || low.level <= from.level)
          return null;
        secants--;
        return ceilDiv((target - low.level) * (lo - fromAt), low.level - from.level);
      };
      step = secantStep() ?? step;
      for (let a = lo + step; a < hi; a = lo + step) {
        const q = probe(a);
        if (q.reaches) {
          [hi, high] = [a, q];
          break;
        }
        [fromAt, from] = [lo, low];
        [lo, low] = [a, q];
        step = secantStep() ?? step * 4n;
      }
    }
  }
  // After an interpolation that did not halve the bracket the target is near the side it moved: steps
  // from that side growing ×4 (`gallop`, signed: from lo up, or from hi down) until they cross it.
  let mode: "interpolate" | "gallop" | "bisect" = "interpolate";
  let gallop = 0n;
  while (hi - lo > 1n) {
    const width = hi - lo;
    let byValue = false;
    let mid = (lo + hi) >> 1n;
    const galloping = mode === "gallop" && (gallop > 0n ? gallop : -gallop) * 2n < width;
    const [loLevel, hiLevel] = [low.level, high.level];
    if (galloping) mid = gallop > 0n ? lo + gallop : hi + gallop;
    else if (mode === "interpolate" && loLevel !== null && hiLevel !== null && hiLevel > loLevel) {
      // A level at hi equal to the target puts the interpolation at hi: the target is the start of the
      // step of levels that hi is on. Where levels are far coarser than inputs (several inputs per level)
      // that step is long, and only bisection finds its start without creeping along it input by input.
      if (hiLevel > target || width <= 2n * (hiLevel - loLevel)) {
        byValue = true;
        // Rounded up: the first input the straight line puts at the target, so a curve close to straight
        // there is reached at once, and one probe below it closes the bracket.
        mid = lo + ceilDiv((target - loLevel) * width, hiLevel - loLevel);
      }
    }
    if (mid <= lo) mid = lo + 1n;
    if (mid >= hi) mid = hi - 1n;
    const q = probe(mid);
    if (q.reaches) [hi, high] = [mid, q];
    else [lo, low] = [mid, q];
    if (galloping) {
      // The same side moved again: step further; the other side: the bracket is narrow, interpolate.
      if (gallop > 0n === !q.reaches) gallop *= 4n;
      else mode = "interpolate";
    } else if (byValue && (hi - lo) * 2n > width) {
      mode = "gallop";
      gallop = q.reaches ? -1n : 1n;
    } else mode = mode === "gallop" ? "bisect" : "interpolate";
  }
  return { amountIn: hi, baseOut: high.out };
}

function notReachable(ctx: Ctx, why: string): OutputNotReachableError {
  const atMax = ctx.maxIn > 0n ? forward(ctx, ctx.maxIn).amountOut : 0n;
  return new OutputNotReachableError(why, ctx.maxIn, atMax);
}

/**
 * Whether a plain search (double the input from 1 until the target is met, then bisect) stops above
 * the true minimum `minimal`: the fee-rounding dip fooled it. This is the search the AMM vectors used
 * (vectors/amm/FORMAT.md §5, `fee_rounding_hole`); it costs about 2·log2(minimal) forward swaps, so it
 * is a separate call, not part of every quote.
 */
export function bisectionMissesMinimum(pool: PoolState, req: ReverseRequest, minimal: bigint): boolean {
  const ctx = context(pool, req);
  const meets = (a: bigint) => forward(ctx, a).amountOut >= req.targetOut;
  let hi = 1n;
  while (!meets(hi)) hi *= 2n;
  let lo = hi === 1n ? 0n : hi / 2n; // lo never meets (or is 0), hi meets
  while (hi - lo > 1n) {
    const mid = (lo + hi) >> 1n;
    if (meets(mid)) hi = mid;
    else lo = mid;
  }
  return hi !== minimal;
}

/** What `amountIn − 1` pays (null for 1; 0 when that swap refunds): a separate forward swap. */
function belowMinimum(pool: PoolState, req: ReverseRequest, amountIn: bigint): bigint | null {
  return amountIn > 1n ? forward(context(pool, req), amountIn - 1n).amountOut : null;
}

export function reverseSwap(pool: PoolState, req: ReverseRequest): ReverseResult {
  const { amountIn, swap } = minimalInput(pool, req);
  return { amountIn, swap, amountOutAtAmountInMinus1: belowMinimum(pool, req, amountIn) };
}

/**
 * The minimal input and its forward swap: `reverseSwap` without the look at `amountIn − 1` (a quote
 * needs only these, and the look is one more forward swap).
 */
export function minimalInput(pool: PoolState, req: ReverseRequest): { amountIn: bigint; swap: SwapResult } {
  assertValidPool(pool);
  if (req.targetOut <= 0n) throw zeroAmount("target_out");
  const ctx = context(pool, req);
  if (ctx.reserveIn === 0n || ctx.reserveOut === 0n || pool.lpSupply === 0n) throw emptyPool();
  let b = minGrossFor(ctx, req.targetOut);
  for (let step = 0; step < 1000; step++) {
    const found = inputFor(ctx, b);
    if (found === null) throw notReachable(ctx, "the target is at or above what the pool can pay");
    const a = found.amountIn;
    const result = swapAtBase(ctx.pool, swapRequestOf(ctx, a), found.baseOut ?? undefined);
    if (result.status !== "ok") throw notReachable(ctx, `the pool would refund (exit ${result.exitCode})`);
    if (result.amountOut >= req.targetOut) return { amountIn: a, swap: result };
    b = result.baseOut + 1n; // overshot onto a fee-rounding dip: try the next gross output
  }
  throw notReachable(ctx, "no input found");
}
