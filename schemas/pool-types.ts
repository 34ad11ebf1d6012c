/**
 * The pool types of both DEX versions, the one vocabulary of the AMM engine, the fact rows and the API,
 * and the one map from the names the v2 contracts use (`get_pool_type`, a router's `dex_type`) to them.
 */

export const DEX_VERSIONS = ["v1", "v2"] as const;
export type DexVersion = (typeof DEX_VERSIONS)[number];

export const POOL_TYPES = [
  "v1_constant_product",
  "v2_constant_product",
  "v2_stableswap",
  "v2_weighted_const_product",
  "v2_weighted_stableswap",
  "v2_constant_sum",
] as const;
export type PoolType = (typeof POOL_TYPES)[number];

/** A v2 pool type as the contracts name it (contracts.md §3.10) → the engine's pool type. */
export const V2_CONTRACT_POOL_TYPES = {
  constant_product: "v2_constant_product",
  constant_sum: "v2_constant_sum",
  stableswap: "v2_stableswap",
  weighted_const_product: "v2_weighted_const_product",
  weighted_stableswap: "v2_weighted_stableswap",
} as const satisfies Record<string, PoolType>;
export type V2ContractPoolType = keyof typeof V2_CONTRACT_POOL_TYPES;

export function isV2ContractPoolType(name: string): name is V2ContractPoolType {
  return Object.hasOwn(V2_CONTRACT_POOL_TYPES, name);
}

/** The engine's pool type of a v2 contract's type name; null for a name the contracts do not use. */
export function poolTypeOfV2Name(name: string): PoolType | null {
  return isV2ContractPoolType(name) ? V2_CONTRACT_POOL_TYPES[name] : null;
}
