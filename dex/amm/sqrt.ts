/**
 * The two integer square roots of the contracts, reproduced step for step (contracts.md §7).
 * Both return floor(√x) for realistic inputs, but bit-exactness means using the same iteration.
 */
import { TVM_INTEGER_OVERFLOW, TvmExit } from "./math.ts";

/** Seed buckets shared by both routines: shift `xx` down and `r` up by half as much. */
function seed(x: bigint, r0: bigint, buckets: readonly bigint[]): { r: bigint; xx: bigint } {
  let r = r0;
  let xx = x;
  for (const bits of buckets) {
    if (xx >= 1n << bits) {
      xx >>= bits;
      r <<= bits / 2n;
    }
  }
  return { r, xx };
}

function newton7(x: bigint, start: bigint): bigint {
  let r = start;
  // Seven Newton steps with floor division, then the smaller of r and x/r (both floors).
  for (let i = 0; i < 7; i++) r = (r + x / r) >> 1n;
  const other = x / r;
  return r < other ? r : other;
}

/** v1 pool `sqrt` [v1 pool/utils.func]: seed 181 scaled by bit-length buckets. */
export function sqrtV1(x: bigint): bigint {
  if (x < 0n) throw new TvmExit(TVM_INTEGER_OVERFLOW, "sqrt of a negative number");
  if (x === 0n) return 0n;
  const { r, xx } = seed(x, 181n, [128n, 64n, 32n, 16n]);
  return newton7(x, (r * (xx + 65536n)) >> 18n);
}

/** v2 `oz_sqrt` (OpenZeppelin-style): bit-length seed, ×3/2, seven Newton steps. */
export function sqrtV2(x: bigint): bigint {
  if (x < 0n) throw new TvmExit(TVM_INTEGER_OVERFLOW, "sqrt of a negative number");
  if (x <= 1n) return x;
  const { r, xx } = seed(x, 1n, [128n, 64n, 32n, 16n, 8n, 4n]);
  const start = xx >= 4n ? r << 1n : r;
  return newton7(x, (3n * start) >> 1n);
}
