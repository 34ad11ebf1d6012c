/** The native SHA-256 swap must be invisible: same digests as @ton/crypto's JS one, same cell hashes. */

import { createRequire } from "node:module";
import { BitString, beginCell, Cell } from "@ton/core";
import { sha256_sync } from "@ton/crypto";
import test from "ava";
import fc from "fast-check";
import { applyLibraryPatches } from "../../../../infra/library-patches/index.ts";
import { nativeSha256, paddedBuffer } from "../../../../infra/library-patches/sha256.ts";

test("nativeSha256 equals @ton/crypto's sha256_sync on random inputs", (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const buf = Buffer.from(bytes);
      return nativeSha256(buf).equals(sha256_sync(buf));
    }),
    { seed: 20261121, numRuns: 500 },
  );
  t.true(nativeSha256("abc").equals(sha256_sync("abc")));
  t.is(
    nativeSha256("abc").toString("hex"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});

test("a cell's hash is computed from its representation with the same digest", (t) => {
  const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(1, 8)).endCell();
  // Standard representation of the leaf: d1 = 0 (no refs), d2 = floor(8/8) + ceil(8/8) = 2, data 0x01.
  const leaf = cell.refs[0]!;
  t.true(leaf.hash().equals(nativeSha256(Buffer.from([0x00, 0x02, 0x01]))));
});

type Bits = { _data: Uint8Array; _offset: number; _length: number };
const paddedBits = createRequire(import.meta.url)("@ton/core/dist/boc/utils/paddedBits.js") as {
  bitsToPaddedBuffer: (bits: BitString) => Buffer;
};
/** Taken before any patching: this file applies no patch before reading it. */
const originalPadded = paddedBits.bitsToPaddedBuffer;

/** A BitString over `bytes` from bit `offset`, `length` bits (possibly running past the bytes). */
const bitStrings = fc
  .record({
    bytes: fc.uint8Array({ maxLength: 140 }),
    offset: fc.nat({ max: 40 }),
    length: fc.nat({ max: 1100 }),
  })
  .map(({ bytes, offset, length }) => {
    const o = Math.min(offset, bytes.length * 8);
    return new BitString(Buffer.from(bytes), o, Math.min(length, bytes.length * 8 - o));
  });

test("paddedBuffer equals @ton/core's bitsToPaddedBuffer at any offset and length", (t) => {
  fc.assert(
    fc.property(bitStrings, (bits) => paddedBuffer(bits as unknown as Bits).equals(originalPadded(bits))),
    { seed: 20261122, numRuns: 2000 },
  );
  // Bits read past the data are zeros, as BitString.at reads them.
  const past = { _data: new Uint8Array([0xff]), _offset: 4, _length: 12 };
  t.deepEqual([...paddedBuffer(past)], [0xf0, 0x08]);
});

test("after the `build` patches, cell hashes and BitString text are unchanged", (t) => {
  const cells = fc
    .sample(fc.array(bitStrings, { minLength: 1, maxLength: 4 }), { seed: 7, numRuns: 200 })
    .map((parts) => {
      const leaf = beginCell()
        .storeBits(parts[0]!.substring(0, Math.min(parts[0]!.length, 1023)))
        .endCell();
      const b = beginCell().storeRef(leaf);
      let room = 1023;
      for (const p of parts.slice(1)) {
        const take = Math.min(p.length, room);
        b.storeBits(p.substring(0, take));
        room -= take;
      }
      return b.endCell();
    });
  const before = cells.map((c) => [c.hash().toString("hex"), c.bits.toString(), c.toBoc().toString("hex")]);
  t.deepEqual(applyLibraryPatches(["build"]), { applied: ["build"], refused: null });
  t.not(paddedBits.bitsToPaddedBuffer, originalPadded);
  const rebuilt = cells.map((c) => new Cell({ bits: c.bits, refs: c.refs }));
  t.deepEqual(
    rebuilt.map((c) => [c.hash().toString("hex"), c.bits.toString(), c.toBoc().toString("hex")]),
    before,
  );
});
