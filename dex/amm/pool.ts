import { AmmInputError, feeOutOfRange, negativeAmount } from "./errors.ts";
import { E } from "./fixed-point.ts";
import { isPoolType, type PoolState } from "./types.ts";

/** Fees the contracts accept through `set_fees` (contracts.md §2.8, §3.8): 0..100 bps. */
export const MAX_POOL_FEE_BPS = 100n;

/** Wire names (as in get_pool_data / the vectors) for the fields a caller may get wrong. */
const WIRE_NAME: Record<string, string> = {
  reserve0: "reserve0",
  reserve1: "reserve1",
  lpSupply: "lp_supply",
  collectedProtocolFee0: "collected_protocol_fee0",
  collectedProtocolFee1: "collected_protocol_fee1",
  lpFeeBps: "lp_fee_bps",
  protocolFeeBps: "protocol_fee_bps",
  refFeeBps: "ref_fee_bps",
};

/**
 * States already checked. States are never mutated (a swap makes a new one), and a quote checks its pool's
 * state several times (every forward swap of an exact-out search): once per state object is enough.
 */
const valid = new WeakSet<PoolState>();

/** Reject a pool state no contract can hold, naming the field. */
export function assertValidPool(pool: PoolState): void {
  if (valid.has(pool)) return;
  checkPool(pool);
  valid.add(pool);
}

function checkPool(pool: PoolState): void {
  if (!isPoolType(pool.type))
    throw new AmmInputError("unknown_pool_type", `unknown pool type '${pool.type}'`, "type");
  for (const field of [
    "reserve0",
    "reserve1",
    "lpSupply",
    "collectedProtocolFee0",
    "collectedProtocolFee1",
  ] as const) {
    if (pool[field] < 0n) throw negativeAmount(WIRE_NAME[field] ?? field);
  }
  for (const field of ["lpFeeBps", "protocolFeeBps", "refFeeBps"] as const) {
    if (pool[field] < 0n || pool[field] > MAX_POOL_FEE_BPS)
      throw feeOutOfRange(WIRE_NAME[field] ?? field, pool[field], MAX_POOL_FEE_BPS);
  }
  if (pool.w0 < 0n || pool.w0 > E)
    throw new AmmInputError("weight_out_of_range", "w0 must be within 0..1e18", "w0");
  if (pool.amp < 0n || pool.rate < 0n)
    throw new AmmInputError("negative_parameter", "amp and rate must not be negative", "amp");
}
