// Shared helpers for the codec tests (not a test file: ava only runs *.test.ts).
import { Address, beginCell, type Cell } from "@ton/core";
import fc from "fast-check";

export { listVectors, readVectorJson } from "../../../helpers/vectors.ts";

/** Raw `0:HEX` in upper case (the vectors' form), or null for addr_none. */
export const raw = (a: Address | null): string | null => (a === null ? null : a.toRawString().toUpperCase());

/** Replaces Cells by their hash hex and Addresses by raw strings, so records compare structurally. */
export function norm(x: unknown): unknown {
  if (x === null || typeof x !== "object") return x;
  if (x instanceof Address) return `addr:${x.toRawString()}`;
  if ("hash" in x && "bits" in x && "refs" in x && typeof x.hash === "function") {
    return `cell:${(x as Cell).hash().toString("hex")}`;
  }
  if (Array.isArray(x)) return x.map(norm);
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, norm(v)]));
}

export const SEED = 20240917;

export const arbAddress: fc.Arbitrary<Address | null> = fc.oneof(
  fc.constant(null),
  fc
    .tuple(fc.constantFrom(0, -1), fc.uint8Array({ minLength: 32, maxLength: 32 }))
    .map(([wc, h]) => new Address(wc, Buffer.from(h))),
);

/** A small arbitrary cell: up to 80 bits and at most one child. */
export const arbCell: fc.Arbitrary<Cell> = fc
  .tuple(fc.array(fc.boolean(), { maxLength: 80 }), fc.option(fc.array(fc.boolean(), { maxLength: 16 })))
  .map(([bits, child]) => {
    const b = beginCell();
    for (const bit of bits) b.storeBit(bit);
    if (child !== null) {
      const c = beginCell();
      for (const bit of child) c.storeBit(bit);
      b.storeRef(c.endCell());
    }
    return b.endCell();
  });

export const arbUint = (bits: number): fc.Arbitrary<bigint> =>
  fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
export const arbCoins: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: 0n, max: 1_000_000_000_000n }),
  arbUint(120),
);
