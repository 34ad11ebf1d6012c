/**
 * 18-decimal fixed point as the weighted pools compute it (contracts.md §3.9.5): a port of Balancer's
 * LogExpMath with FunC floor semantics. Every `floorDiv` here is FunC `/`; negative intermediates
 * (ln of values below 1, negative exponents) must floor toward −∞, not truncate.
 */
import { floorDiv, floorMod, TvmExit } from "./math.ts";

export const E = 10n ** 18n;
const ONE_20 = 10n ** 20n;
const ONE_36 = 10n ** 36n;

/** funcbox math error codes that surface as refund exit codes. */
export const FP_ERRORS = {
  powXOutOfBounds: 50001,
  powYOutOfBounds: 50002,
  powProductOutOfBounds: 50003,
  expInvalidExponent: 50004,
  zeroDivision: 50008,
  complementOutOfRange: 51002,
} as const;

export function mul(a: bigint, b: bigint): bigint {
  const p = a * b;
  // A non-negative product truncates as it floors.
  return p >= 0n ? p / E : floorDiv(p, E);
}

export function div(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new TvmExit(FP_ERRORS.zeroDivision, "fixed-point division by zero");
  return floorDiv(a * E, b);
}

/** Rounds up for positive operands: `a == 0 ? 0 : floor((a·E − 1)/b) + 1`. */
export function divUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new TvmExit(FP_ERRORS.zeroDivision, "fixed-point division by zero");
  return a === 0n ? 0n : floorDiv(a * E - 1n, b) + 1n;
}

export function complement(x: bigint): bigint {
  if (x < 0n || x > E) throw new TvmExit(FP_ERRORS.complementOutOfRange, "complement out of range");
  return E - x;
}

// Precomputed e^(x_k) table (x in 18 decimals, a in 18 decimals for k=0,1 — no decimals — and 20 for k≥2).
const X0 = 128n * E;
const A0 = 38877084059945950922200000000000000000000000000000000000n;
const X1 = 64n * E;
const A1 = 6235149080811616882910000000n;
const TABLE: readonly (readonly [bigint, bigint])[] = [
  [3200n * E, 7896296018268069516100000000000000n],
  [1600n * E, 888611052050787263676000000n],
  [800n * E, 298095798704172827474000n],
  [400n * E, 5459815003314423907810n],
  [200n * E, 738905609893065022723n],
  [100n * E, 271828182845904523536n],
  [50n * E, 164872127070012814685n],
  [25n * E, 128402541668774148407n],
  [12_500_000_000_000_000_000n, 113314845306682631683n],
  [6_250_000_000_000_000_000n, 106449445891785942956n],
];
// Products used on every call, computed once.
const A0_E = A0 * E;
const A1_E = A1 * E;
const TWO_E = 2n * E;
const FOUR_E = 4n * E;
/** 1e20·n for the exp series terms n = 2..12. */
const SERIES_DIV = Array.from({ length: 13 }, (_, n) => ONE_20 * BigInt(n));
const TABLE_X = TABLE.map(([x]) => x);
const TABLE_A = TABLE.map(([, a]) => a);
const EULER = 2718281828459045235n;
const MAX_NATURAL_EXPONENT = 130n * E;
const MIN_NATURAL_EXPONENT = -41n * E;
const MILD_EXPONENT_BOUND = floorDiv(1n << 254n, ONE_20);
const MAX_POW_RELATIVE_ERROR = 10000n;
const LN36_LOWER = E - 10n ** 17n;
const LN36_UPPER = E + 10n ** 17n;

/** Odd-power series 2·(z + z³/3 + z⁵/5 + …) in `one` units (floor divisions; z may be negative). */
function oddSeries(z: bigint, one: bigint, lastK: bigint): bigint {
  if (z >= 0n) return oddSeriesNonNegative(z, one, lastK);
  const z2 = floorDiv(z * z, one);
  let num = z;
  let sum = z;
  for (let k = 3n; k <= lastK; k += 2n) {
    num = floorDiv(num * z2, one);
    sum += floorDiv(num, k);
  }
  return sum * 2n;
}

/** The same series for z ≥ 0, where JS truncating `/` equals floor — the hot path of ln and pow. */
function oddSeriesNonNegative(z: bigint, one: bigint, lastK: bigint): bigint {
  const z2 = (z * z) / one;
  let num = z;
  let sum = z;
  for (let k = 3n; k <= lastK; k += 2n) {
    num = (num * z2) / one;
    sum += num / k;
  }
  return sum * 2n;
}

/** ln(x) with 36 decimals, for x close to 1 (the LN36 window). */
export function ln36(x: bigint): bigint {
  const big = x * E;
  const z = floorDiv((big - ONE_36) * ONE_36, big + ONE_36);
  return oddSeries(z, ONE_36, 15n);
}

/**
 * Natural log, 18 decimals in and out. Below 1 it recurses on 1/x; from there on every operand is
 * non-negative, so JS truncating `/` is FunC's floor.
 */
export function ln(input: bigint): bigint {
  if (input < E) return -ln(floorDiv(E * E, input));
  let a = input;
  let sum = 0n;
  if (a >= A0_E) {
    a /= A0;
    sum += X0;
  }
  if (a >= A1_E) {
    a /= A1;
    sum += X1;
  }
  sum *= 100n;
  a *= 100n;
  for (let k = 0; k < TABLE_X.length; k++) {
    if (a >= TABLE_A[k]!) {
      a = (a * ONE_20) / TABLE_A[k]!;
      sum += TABLE_X[k]!;
    }
  }
  const z = ((a - ONE_20) * ONE_20) / (a + ONE_20);
  return (sum + oddSeriesNonNegative(z, ONE_20, 11n)) / 100n;
}

/** e^x, 18 decimals in and out. */
export function exp(input: bigint): bigint {
  if (input === E) return EULER;
  if (input < MIN_NATURAL_EXPONENT || input > MAX_NATURAL_EXPONENT) {
    throw new TvmExit(FP_ERRORS.expInvalidExponent, "exponent out of range");
  }
  if (input < 0n) return floorDiv(E * E, exp(-input));
  let x = input;
  let firstAN = 1n;
  if (x >= X0) {
    x -= X0;
    firstAN = A0;
  } else if (x >= X1) {
    x -= X1;
    firstAN = A1;
  }
  // From here x ≥ 0 and every operand is non-negative: truncating `/` is FunC's floor.
  x *= 100n;
  let product = ONE_20;
  for (let k = 0; k < 8; k++) {
    // only the first eight 20-decimal entries (k = 2..9) take part in exp
    if (x >= TABLE_X[k]!) {
      x -= TABLE_X[k]!;
      product = (product * TABLE_A[k]!) / ONE_20;
    }
  }
  let series = ONE_20 + x;
  let term = x;
  for (let n = 2; n <= 12; n++) {
    term = (term * x) / SERIES_DIV[n]!;
    series += term;
  }
  return (((product * series) / ONE_20) * firstAN) / 100n;
}

/** x^y for 18-decimal x, y. */
export function pow(x: bigint, y: bigint): bigint {
  if (y === 0n) return E;
  if (x === 0n) return 0n;
  if (x === E) return E;
  // funcbox checks `x >> 256 == 0`: negative bases fail too (contracts.md §11.2 rule 5).
  if (x >> 256n !== 0n) throw new TvmExit(FP_ERRORS.powXOutOfBounds, "pow base out of bounds");
  if (y >= MILD_EXPONENT_BOUND) throw new TvmExit(FP_ERRORS.powYOutOfBounds, "pow exponent out of bounds");
  let t: bigint;
  if (x > LN36_LOWER && x < LN36_UPPER) {
    const l = ln36(x);
    t = floorDiv(l, E) * y + floorDiv(floorMod(l, E) * y, E);
  } else {
    t = lnMemo(x) * y;
  }
  t = floorDiv(t, E);
  if (t < MIN_NATURAL_EXPONENT || t > MAX_NATURAL_EXPONENT) {
    throw new TvmExit(FP_ERRORS.powProductOutOfBounds, "pow product out of bounds");
  }
  return exp(t);
}

/**
 * `ln` with a one-entry memo: the weighted-stableswap slope raises the same base to two exponents in a
 * row (x^p and x^(p−1)), and ln is a pure function of x, so the second call reuses the first result.
 */
let memoX = -1n;
let memoLn = 0n;
function lnMemo(x: bigint): bigint {
  if (x !== memoX) {
    memoLn = ln(x);
    memoX = x;
  }
  return memoLn;
}

function powSpecial(x: bigint, y: bigint): bigint | null {
  if (y === TWO_E) return mul(x, x);
  if (y === FOUR_E) {
    const sq = mul(x, x);
    return mul(sq, sq);
  }
  return null;
}

/** Upper bound of x^y (funcbox `ow_pow_up`): the raw power plus its relative error. */
export function powUp(x: bigint, y: bigint): bigint {
  const special = powSpecial(x, y);
  if (special !== null) return special;
  const raw = pow(x, y);
  return raw + mul(raw, MAX_POW_RELATIVE_ERROR) + 1n;
}

/** Lower bound of x^y (funcbox `ow_pow`): the raw power minus its relative error, floored at 0. */
export function powDown(x: bigint, y: bigint): bigint {
  const special = powSpecial(x, y);
  if (special !== null) return special;
  const raw = pow(x, y);
  const err = mul(raw, MAX_POW_RELATIVE_ERROR) + 1n;
  return raw < err ? 0n : raw - err;
}
