/** Shared shapes of the market simulator. */
import type { Address, Cell } from "@ton/core";

/** The devnet's v2 routers: one per (pool type, build); v2.1 CPI is the legacy router. */
export type V2RouterKey = "cpi_v2_1" | "cpi_v2_2" | "stable_v2_2" | "wcpi_v2_2" | "wstable_v2_2";
export type RouterKey = "v1" | V2RouterKey;

export type V2RouterType =
  | "constant_product"
  | "stableswap"
  | "weighted_const_product"
  | "weighted_stableswap";

export const V2_ROUTERS: Readonly<Record<V2RouterKey, { id: bigint; type: V2RouterType; minor: 1 | 2 }>> = {
  cpi_v2_1: { id: 1n, type: "constant_product", minor: 1 },
  cpi_v2_2: { id: 2n, type: "constant_product", minor: 2 },
  stable_v2_2: { id: 3n, type: "stableswap", minor: 2 },
  wcpi_v2_2: { id: 4n, type: "weighted_const_product", minor: 2 },
  wstable_v2_2: { id: 5n, type: "weighted_stableswap", minor: 2 },
};

/** A user-side message, as the SDK returns it (`SenderArguments` without the optional fields). */
export type UserMessage = { to: Address; value: bigint; body: Cell };
