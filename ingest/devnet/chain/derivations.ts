/**
 * Memoisation for the pure, address-keyed derivations contracts repeat on every message: StateInits of
 * jetton wallets, pools, LpAccounts..., the addresses they hash to, and the `storeAddress` cell hashes that
 * order pool tokens. Keys are the addresses' contents (messages parse fresh Address objects each time), so
 * equal inputs share one result object; results are immutable. Caches grow with the number of distinct
 * (contract, owner) pairs, which the devnet's fixed set of actors and assets bounds.
 */
import { Address, type Cell, type StateInit } from "@ton/core";
import { CellWriter } from "./cell-writer.ts";
import { hashOf, keyOf, toTonCell } from "./fast-cell.ts";
import { stateInitCell } from "./tlb.ts";

/** Content key of an address: workchain and the 32 hash bytes (fixed width, so keys concatenate safely). */
export function addressKey(a: Address | null | undefined): string {
  return a ? `${a.workChain}:${a.hash.toString("latin1")}` : "-";
}

/** Content key of a cell: its hash (fixed width). */
export const cellKey = (c: Cell): string => keyOf(c);

/** `cache.get(key)`, or `build()` stored under `key`; `build` must be pure and its result never mutated. */
export function cached<R>(cache: Map<string, R>, key: string, build: () => R): R {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = build();
    cache.set(key, hit);
  }
  return hit;
}

/** Caches `fn` by `key(...args)`; `fn` must be pure and its result must never be mutated. */
export function memoize<A extends unknown[], R>(
  fn: (...args: A) => R,
  key: (...args: A) => string,
): (...args: A) => R {
  const cache = new Map<string, R>();
  return (...args: A): R => {
    const k = key(...args);
    let hit = cache.get(k);
    if (hit === undefined) {
      hit = fn(...args);
      cache.set(k, hit);
    }
    return hit;
  };
}

const addresses = new WeakMap<StateInit, Address>();

/**
 * `contractAddress(0, init)`, cached per (immutable) StateInit object and hashed from the chain's own
 * StateInit cell (the same cell, so the same hash), which a message carrying `init` reuses.
 */
export function contractAddressOf(init: StateInit): Address {
  let address = addresses.get(init);
  if (address === undefined) {
    address = new Address(0, hashOf(stateInitCell(init)));
    addresses.set(init, address);
  }
  return address;
}

/** `beginCell().storeAddress(a).endCell()` (get-method address arguments and results), shared per address. */
export const addressSliceCell: (a: Address | null) => Cell = memoize(
  (a: Address | null) => toTonCell(new CellWriter().address(a).end()),
  addressKey,
);

/** Hash of `beginCell().storeAddress(a).endCell()` (STON.fi orders pool tokens by it, contracts.md §1.2). */
export const addressCellHash: (a: Address) => Buffer = memoize(
  (a: Address) => new CellWriter().address(a).end().hash,
  addressKey,
);
