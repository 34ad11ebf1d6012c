/**
 * contracts.md §1.2, shared by both DEX generations: of a pool's two router wallets, the one whose
 * serialised address cell (`storeAddress`, 267 bits) has the larger hash is token0 (hashes compared as
 * unsigned big-endian 256-bit integers, which is what comparing the 32-byte buffers does).
 */
import type { Address } from "@ton/core";
import { addressCellHash } from "../chain/derivations.ts";

export function orderWallets(a: Address, b: Address): [token0: Address, token1: Address] {
  return Buffer.compare(addressCellHash(a), addressCellHash(b)) > 0 ? [a, b] : [b, a];
}
