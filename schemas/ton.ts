/**
 * TON primitives every stage shares: the canonical raw address form and the `Coins` range.
 * The one home of both (dex/, processors/, api/ and the sources import them from here).
 */
import type { Address } from "@ton/core";

/** Largest `Coins` value (VarUInteger 16): no on-chain amount can exceed it (contracts.md §0.2). */
export const MAX_COINS = (1n << 120n) - 1n;

/** Canonical raw form used inside tondex: workchain, colon, 64 uppercase hex digits (RawTransaction, vectors). */
export function toRawAddress(address: Address): string {
  return `${address.workChain}:${address.hash.toString("hex").toUpperCase()}`;
}

/** `toRawAddress`, with addr_none (null/undefined) → null. */
export function rawOrNull(address: Address | null | undefined): string | null {
  return address ? toRawAddress(address) : null;
}
