/**
 * Integer helpers with the exact semantics of FunC on TVM (contracts.md §0.2, §7, §11.1).
 *
 * JS `/` on bigint truncates toward zero; FunC `/` floors toward −∞. The weighted pools divide negative
 * intermediates (Newton deltas, `ln` below 1), so every division here says which way it rounds.
 * TVM integers are 257-bit signed: a result outside [−2^256, 2^256) throws exit code 4, and so does a
 * division by zero. `TvmExit` carries that code so a swap can turn it into the refund the pool sends.
 */

/** Basis-point denominator of every fee in both DEX versions. */
export const FEE_DIVIDER = 10000n;
/** Largest `Coins` value (VarUInteger 16): reserves above it make the pool refund. */
export { MAX_COINS } from "../../schemas/ton.ts";

/** TVM signed 257-bit range: [−2^256, 2^256). */
const TVM_MAX_EXCLUSIVE = 1n << 256n;
const TVM_MIN = -(1n << 256n);

/** A TVM exception the contract would raise (the pool turns most of them into refund codes). */
export class TvmExit extends Error {
  override readonly name = "TvmExit";
  readonly isTvmExit = true;
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** exit 4: TVM integer overflow, or division by zero. */
export const TVM_INTEGER_OVERFLOW = 4;

export function isTvmExit(e: unknown): e is TvmExit {
  return typeof e === "object" && e !== null && (e as { isTvmExit?: unknown }).isTvmExit === true;
}

/** Range-check a value as TVM does after every arithmetic instruction. */
export function tvm(x: bigint): bigint {
  if (x >= TVM_MAX_EXCLUSIVE || x < TVM_MIN)
    throw new TvmExit(TVM_INTEGER_OVERFLOW, "257-bit integer overflow");
  return x;
}

/** floor(a / b), FunC `/`. Division by zero is TVM exit 4. */
export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new TvmExit(TVM_INTEGER_OVERFLOW, "division by zero");
  const q = a / b;
  // JS truncates toward zero, which is floor unless the signs differ and the division is inexact.
  if (a >= 0n === b > 0n) return q;
  return a % b !== 0n ? q - 1n : q;
}

/** ceil(a / b), FunC `divc`. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  // Operands of the same sign (the usual case) divide once: the truncated quotient, plus 1 when inexact.
  if ((a >= 0n && b > 0n) || (a <= 0n && b < 0n)) {
    const q = a / b;
    return q * b === a ? q : q + 1n;
  }
  return -floorDiv(-a, b);
}

/** a mod b with the sign of b (FunC `%`, matching `floorDiv`). */
export function floorMod(a: bigint, b: bigint): bigint {
  return a - floorDiv(a, b) * b;
}

/** floor(a·b / c), FunC `muldiv` (513-bit intermediate, so only the result is range-checked). */
export function mulDiv(a: bigint, b: bigint, c: bigint): bigint {
  return floorDiv(a * b, c);
}

/** ceil(a·b / c), FunC `muldivc`. */
export function mulDivCeil(a: bigint, b: bigint, c: bigint): bigint {
  return ceilDiv(a * b, c);
}

export function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
