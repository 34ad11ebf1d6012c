/**
 * POW2[n] = 2^n for n ≤ 1023: `2 ** n` with a variable exponent is a call into the C library's `pow` per
 * evaluation (V8 folds only constants), which was 3% of the devnet's time in its range checks. Shared by
 * the devnet's cell writer and the library patches' bit builder.
 */
export const POW2: readonly number[] = Array.from({ length: 1024 }, (_, n) => 2 ** n);
