// Pool-type parameters carried by `set_params` / `internal_set_params` (non-CPI v2 pools).
// Source: shared/reference/contracts.md §3.2 (pool storage) and §3.8 (admin ops).
import type { Address } from "@ton/core";

/** stableswap: amplification `amp`, 1..2000 (uint32). */
export type StableswapParams = { poolType: "stableswap"; amp: number };
/** weighted_const_product: weight `w` (1e18 fixed point, uint128) of the token whose router wallet is `sideWallet`. */
export type WcpiParams = { poolType: "weighted_const_product"; w: bigint; sideWallet: Address | null };
/** weighted_stableswap: `amp`, `rate`, `w` (all 1e18 fixed point, uint128), the side wallet and the rate setter. */
export type WstableParams = {
  poolType: "weighted_stableswap";
  amp: bigint;
  rate: bigint;
  w: bigint;
  sideWallet: Address | null;
  rateSetter: Address | null;
};
export type PoolParams = StableswapParams | WcpiParams | WstableParams;
