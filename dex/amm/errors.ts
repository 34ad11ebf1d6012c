/**
 * Named errors for requests the math cannot answer. A swap that the contract would refund is NOT an
 * error: it is a result with status "refund". These are for impossible questions (zero amount, output
 * at or above the reserve, fee out of range, unknown pool type).
 */
export class AmmInputError extends Error {
  override name = "AmmInputError";
  readonly isAmmInputError = true;
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export function isAmmInputError(e: unknown): e is AmmInputError {
  return typeof e === "object" && e !== null && (e as { isAmmInputError?: unknown }).isAmmInputError === true;
}

export const zeroAmount = (field: string) =>
  new AmmInputError("zero_amount", `${field} must be greater than zero`, field);

export const emptyPool = () => new AmmInputError("empty_pool", "the pool has no liquidity");

export const outputNotReachable = (why: string) =>
  new AmmInputError("output_not_reachable", `requested output cannot be reached: ${why}`, "target_out");

export const feeOutOfRange = (field: string, value: bigint, maxBps: bigint) =>
  new AmmInputError("fee_out_of_range", `${field} must be within 0..${maxBps} bps, got ${value}`, field);

export const negativeAmount = (field: string) =>
  new AmmInputError("negative_amount", `${field} must not be negative`, field);
