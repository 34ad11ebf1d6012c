import test from "ava";
import fc from "fast-check";
import { E, exp, ln, pow } from "../../../../dex/amm/fixed-point.ts";
import { ceilDiv, floorDiv, floorMod, isTvmExit, tvm } from "../../../../dex/amm/math.ts";
import { toDecimalString } from "../../../../dex/amm/ratio.ts";
import { sqrtV1, sqrtV2 } from "../../../../dex/amm/sqrt.ts";

const divTable = test.macro({
  exec(t, a: bigint, b: bigint, floor: bigint, ceil: bigint) {
    t.is(floorDiv(a, b), floor);
    t.is(ceilDiv(a, b), ceil);
    t.is(floorMod(a, b), a - floor * b);
  },
  title: (_, a: bigint, b: bigint) => `FunC division of ${a} by ${b}`,
});
test(divTable, 7n, 2n, 3n, 4n);
test(divTable, -7n, 2n, -4n, -3n);
test(divTable, 7n, -2n, -4n, -3n);
test(divTable, -7n, -2n, 3n, 4n);
test(divTable, 6n, 3n, 2n, 2n);
test(divTable, 0n, 5n, 0n, 0n);

test("division by zero and 257-bit overflow are TVM exit 4", (t) => {
  const zero = t.throws(() => floorDiv(1n, 0n));
  t.true(isTvmExit(zero) && zero.exitCode === 4);
  t.is(tvm((1n << 256n) - 1n), (1n << 256n) - 1n);
  t.is(tvm(-(1n << 256n)), -(1n << 256n));
  const over = t.throws(() => tvm(1n << 256n));
  t.true(isTvmExit(over) && over.exitCode === 4);
});

test("v2 sqrt is floor(sqrt(x)); v1 sqrt never exceeds it", (t) => {
  // The v1 pool seeds its Newton iteration coarsely (thresholds 2^128/2^64/2^32/2^16, then seven steps),
  // so for some inputs it stops above the root and returns x/r, below floor(sqrt(x)): it can under-mint,
  // never over-mint. The engine reproduces that routine literally.
  let v1Below = 0;
  fc.assert(
    fc.property(fc.bigInt(0n, (1n << 250n) - 1n), (x) => {
      const v2 = sqrtV2(x);
      if (v2 * v2 > x || (v2 + 1n) * (v2 + 1n) <= x) return false;
      const v1 = sqrtV1(x);
      if (v1 < v2) v1Below++;
      return v1 <= v2;
    }),
    { seed: 7, numRuns: 2000 },
  );
  t.true(v1Below > 0, "the v1 routine's known shortfall shows up");
  t.is(sqrtV1(9_000_000n * 4_000_000n), 6_000_000n, "contracts.md §2.9: 4e6 and 9e6 mint 6000·1000");
});

test("fixed-point ln, exp and pow agree with known values", (t) => {
  t.is(exp(E), 2718281828459045235n);
  t.is(exp(0n), E);
  t.is(ln(E), 0n);
  // ln(e) within 1e-15 of 1, 2^0.5 within 1e-15 of sqrt(2)
  t.true(ln(2718281828459045235n) - E < 1000n && E - ln(2718281828459045235n) < 1000n);
  const root2 = pow(2n * E, E / 2n);
  t.true(root2 > 1414213562373094000n && root2 < 1414213562373096000n);
  t.true(ln(E / 2n) < 0n, "ln below 1 is negative (floor division on negatives)");
});

test("decimal rendering states its rounding", (t) => {
  const third = { num: 1n, den: 3n };
  t.is(toDecimalString(third, 4, "floor"), "0.3333");
  t.is(toDecimalString(third, 4, "ceil"), "0.3334");
  t.is(toDecimalString({ num: 2n, den: 3n }, 2, "half-up"), "0.67");
  t.is(toDecimalString({ num: 5n, den: 2n }, 0, "half-up"), "3");
  t.is(toDecimalString({ num: 10n, den: 4n }, 6, "floor"), "2.5");
  t.is(toDecimalString({ num: 0n, den: 7n }, 3, "ceil"), "0");
  // The rounding applies to the magnitude (the ratios rendered are non-negative; a sign is kept).
  t.is(toDecimalString({ num: -1n, den: 3n }, 2, "floor"), "-0.33");
  t.is(
    toDecimalString({ num: 10n ** 30n + 1n, den: 10n ** 10n }, 18, "floor"),
    "100000000000000000000.0000000001",
  );
});

test("decimal rendering equals long division, digit by digit", (t) => {
  // Independent of the implementation: schoolbook long division of |num| by |den|, then the rounding.
  function longDivision(num: bigint, den: bigint, digits: number, rounding: "floor" | "ceil"): string {
    const n = num < 0n ? -num : num;
    const d = den < 0n ? -den : den;
    const negative = num < 0n !== den < 0n && num !== 0n;
    let rest = n % d;
    const out: number[] = [];
    for (let i = 0; i < digits; i++) {
      rest *= 10n;
      out.push(Number(rest / d));
      rest %= d;
    }
    let whole = n / d;
    // The rounding applies to the magnitude.
    const up = rest !== 0n && rounding === "ceil";
    if (up) {
      let i = out.length - 1;
      while (i >= 0 && out[i] === 9) out[i--] = 0;
      if (i >= 0) out[i]!++;
      else whole += 1n;
    }
    let frac = out.join("");
    while (frac.endsWith("0")) frac = frac.slice(0, -1);
    const text = frac.length > 0 ? `${whole}.${frac}` : `${whole}`;
    return negative && (whole !== 0n || frac.length > 0) ? `-${text}` : text;
  }
  let seed = 7n;
  const next = (bits: bigint) => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    return seed % 2n ** bits;
  };
  for (let i = 0; i < 3000; i++) {
    const num = next(BigInt(1 + (i % 120))) * (i % 7 === 0 ? -1n : 1n);
    const digits = i % 20;
    // Every fifth: raw units over 10^digits, the whole units of an asset (divided exactly: no rounding).
    const den = i % 5 === 0 ? 10n ** BigInt(digits) : next(BigInt(1 + ((i * 13) % 90))) + 1n;
    if (i % 5 === 0)
      t.is(
        toDecimalString({ num, den }, digits, "half-up"),
        longDivision(num, den, digits, "floor"),
        `${num}/${den} half-up`,
      );
    for (const rounding of ["floor", "ceil"] as const) {
      t.is(
        toDecimalString({ num, den }, digits, rounding),
        longDivision(num, den, digits, rounding),
        `${num}/${den}`,
      );
    }
  }
});
