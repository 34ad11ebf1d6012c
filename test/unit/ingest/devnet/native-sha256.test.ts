/** The native SHA-256 swap must be invisible: same digests as @ton/crypto's JS one, same cell hashes. */

import { beginCell } from "@ton/core";
import { sha256_sync } from "@ton/crypto";
import test from "ava";
import fc from "fast-check";
import { nativeSha256 } from "../../../../ingest/devnet/chain/native-sha256.ts";

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
