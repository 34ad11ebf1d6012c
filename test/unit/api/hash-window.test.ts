/**
 * The hash window answers as a Set of the same hashes beside a ring of them would (the structure it
 * replaces): a seeded stream of hashes drawn from small pools, so repeats inside and outside the window
 * and long probe runs (hashes equal modulo the table size) all occur.
 */
import test from "ava";
import { hashWindow } from "../../../api/hash-window.ts";
import { int, prng } from "../../helpers/prng.ts";

/** The reference: a Set and a ring, the oldest deleted when full. */
function setWindow(size: number) {
  const seen = new Set<number>();
  const ring: number[] = [];
  return (hash: number): boolean => {
    if (seen.has(hash)) return true;
    if (ring.length >= size) seen.delete(ring.shift() as number);
    seen.add(hash);
    ring.push(hash);
    return false;
  };
}

for (const size of [1, 3, 8, 64, 1000]) {
  test(`window of ${size}: the same answers as a Set and a ring`, (t) => {
    const r = prng(size);
    const window = hashWindow(size);
    const reference = setWindow(size);
    let repeats = 0;
    for (let i = 0; i < 20_000; i++) {
      // Hashes from a pool a few times the window, spread over 31 bits but often equal in their low bits.
      const pick = int(r, 3 * size + 2);
      const hash = ((pick * 0x9e3779b1) >>> 1) & (r() < 0.5 ? 0x7fffffff : 0x7fff0000 | (pick & 7));
      const expected = reference(hash);
      t.is(window.seenBefore(hash), expected, `step ${i}, hash ${hash}`);
      if (expected) repeats++;
    }
    t.true(repeats > 1000, `${repeats} repeats`);
    t.true(window.size <= size);
  });
}

test("hashes 0 and 2^31 - 1 are hashes like any other", (t) => {
  const window = hashWindow(2);
  t.false(window.seenBefore(0));
  t.false(window.seenBefore(2 ** 31 - 1));
  t.true(window.seenBefore(0));
  t.true(window.seenBefore(2 ** 31 - 1));
  t.false(window.seenBefore(5)); // 0 leaves
  t.false(window.seenBefore(0));
});
