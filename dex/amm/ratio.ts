/**
 * Exact non-negative rationals for prices and fractions, and their decimal rendering. The math returns
 * ratios; only the edge (API, CLI) turns them into decimal strings, always with an explicit rounding.
 */
import { ceilDiv, floorDiv } from "./math.ts";

export type Ratio = { readonly num: bigint; readonly den: bigint };
export type Rounding = "floor" | "ceil" | "half-up";

export const ratio = (num: bigint, den: bigint): Ratio => ({ num, den });

/** `num/den` as a decimal string with at most `digits` fraction digits (trailing zeros dropped). */
export function toDecimalString(r: Ratio, digits: number, rounding: Rounding): string {
  if (r.den === 0n) throw new RangeError("ratio with zero denominator");
  const negative = r.num < 0n !== r.den < 0n && r.num !== 0n;
  const num = r.num < 0n ? -r.num : r.num;
  const den = r.den < 0n ? -r.den : r.den;
  const scale = 10n ** BigInt(digits);
  const scaled =
    rounding === "floor"
      ? floorDiv(num * scale, den)
      : rounding === "ceil"
        ? ceilDiv(num * scale, den)
        : floorDiv(2n * num * scale + den, 2n * den);
  const whole = scaled / scale;
  const frac = (scaled % scale).toString().padStart(digits, "0").replace(/0+$/, "");
  const text = frac.length > 0 ? `${whole}.${frac}` : `${whole}`;
  return negative && scaled !== 0n ? `-${text}` : text;
}
