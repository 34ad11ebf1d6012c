/**
 * Exact non-negative rationals for prices and fractions, and their decimal rendering. The math returns
 * ratios; only the edge (API, CLI) turns them into decimal strings, always with an explicit rounding.
 */
import { ceilDiv, floorDiv } from "./math.ts";

export type Ratio = { readonly num: bigint; readonly den: bigint };
export type Rounding = "floor" | "ceil" | "half-up";

export const ratio = (num: bigint, den: bigint): Ratio => ({ num, den });

/** 10^0 … 10^77 (UInt256's digits): the scales rendered (the export feed renders 50 digits per price). */
const POW10: readonly bigint[] = Array.from({ length: 78 }, (_, i) => 10n ** BigInt(i));

/** `num/den` as a decimal string with at most `digits` fraction digits (trailing zeros dropped). */
export function toDecimalString(r: Ratio, digits: number, rounding: Rounding): string {
  if (r.den === 0n) throw new RangeError("ratio with zero denominator");
  const negative = r.num < 0n !== r.den < 0n && r.num !== 0n;
  const num = r.num < 0n ? -r.num : r.num;
  const den = r.den < 0n ? -r.den : r.den;
  const scale = POW10[digits] ?? 10n ** BigInt(digits);
  // A denominator of exactly 10^digits (raw units in whole units) divides exactly: no rounding, no division.
  const scaled =
    den === scale
      ? num
      : rounding === "floor"
        ? floorDiv(num * scale, den)
        : rounding === "ceil"
          ? ceilDiv(num * scale, den)
          : floorDiv(2n * num * scale + den, 2n * den);
  // The digits of `scaled` split at `digits` from the right; trailing zeros of the fraction dropped.
  const all = scaled.toString().padStart(digits + 1, "0");
  const cut = all.length - digits;
  let end = all.length;
  while (end > cut && all.charCodeAt(end - 1) === 48) end--;
  const text = end > cut ? `${all.slice(0, cut)}.${all.slice(cut, end)}` : all.slice(0, cut);
  return negative && scaled !== 0n ? `-${text}` : text;
}
