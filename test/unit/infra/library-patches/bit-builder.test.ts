/**
 * infra/library-patches/bit-builder.ts must be invisible: the same bytes, lengths and errors as @ton/core's
 * own `BitBuilder.writeUint` / `writeBuffer` on random sequences of writes (every alignment, numbers and
 * bigints of any width, in and out of range, writes that overflow the builder).
 */
import { createRequire } from "node:module";
import test from "ava";
import fc from "fast-check";
import { fastWriteBuffer, fastWriteUint } from "../../../../infra/library-patches/bit-builder.ts";

type Builder = {
  _buffer: Buffer;
  _length: number;
  writeBit(v: boolean): void;
  writeUint(v: bigint | number, bits: number): void;
  writeBuffer(src: Buffer): void;
};
const { BitBuilder } = createRequire(import.meta.url)("@ton/core/dist/boc/BitBuilder.js") as {
  BitBuilder: new (size?: number) => Builder;
};
// This file never installs the replacements on the prototype: these are @ton/core's own methods.
const originalUint = BitBuilder.prototype.writeUint;
const originalBuffer = BitBuilder.prototype.writeBuffer;
const fastUint = fastWriteUint(originalUint);
const fastBuffer = fastWriteBuffer(originalBuffer);

type Op =
  | { t: "bit"; v: boolean }
  | { t: "uint"; v: bigint; bits: number; asNumber: boolean }
  | { t: "buffer"; b: Uint8Array };

const width = fc.oneof(fc.integer({ min: 0, max: 130 }), fc.constantFrom(1, 7, 8, 9, 32, 48, 49, 64, 96, 97));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant("bit" as const), v: fc.boolean() }),
  width.chain((bits) =>
    fc.record({
      t: fc.constant("uint" as const),
      // Mostly in range; sometimes negative or one bit too wide.
      v: fc.oneof(
        fc.bigInt({ min: 0n, max: bits === 0 ? 0n : (1n << BigInt(bits)) - 1n }),
        fc.bigInt({ min: -(1n << 70n), max: 1n << BigInt(bits + 1) }),
        fc.constantFrom(0n, 1n, (1n << 48n) - 1n, 1n << 48n, (1n << 53n) - 1n, 1n << 53n),
      ),
      bits: fc.constant(bits),
      asNumber: fc.boolean(),
    }),
  ),
  fc.record({ t: fc.constant("buffer" as const), b: fc.uint8Array({ maxLength: 40 }) }),
);

function attempt(f: () => void): string {
  try {
    f();
    return "ok";
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

test("fast writeUint and writeBuffer write what @ton/core's write, and fail the same way", (t) => {
  let writes = 0;
  let written = 0;
  fc.assert(
    fc.property(
      fc.array(op, { minLength: 5, maxLength: 60, size: "medium" }),
      fc.integer({ min: 1, max: 1023 }),
      (ops, size) => {
        const a = new BitBuilder(size);
        const b = new BitBuilder(size);
        for (const o of ops) {
          let ra: string;
          let rb: string;
          if (o.t === "bit") {
            ra = attempt(() => a.writeBit(o.v));
            rb = attempt(() => b.writeBit(o.v));
          } else if (o.t === "uint") {
            // A number when the caller would pass one (safe integers; others as bigints).
            const safe = o.v >= BigInt(Number.MIN_SAFE_INTEGER) && o.v <= BigInt(Number.MAX_SAFE_INTEGER);
            const v = o.asNumber && safe ? Number(o.v) : o.v;
            ra = attempt(() => originalUint.call(a, v, o.bits));
            rb = attempt(() => fastUint.call(b, v, o.bits));
          } else {
            const src = Buffer.from(o.b);
            ra = attempt(() => originalBuffer.call(a, src));
            rb = attempt(() => fastBuffer.call(b, src));
          }
          writes++;
          if (rb === "ok") written++;
          if (ra !== rb || a._length !== b._length || !a._buffer.equals(b._buffer)) return false;
        }
        return true;
      },
    ),
    { seed: 20261125, numRuns: 1500 },
  );
  t.log(`${writes} writes, ${written} successful`);
  t.true(writes > 20000 && written > writes / 2);
});

test("unusual arguments reach @ton/core's writeUint", (t) => {
  for (const [v, bits] of [
    [1.5, 8],
    [-1, 8],
    [256, 8],
    [0, 0],
    [1, 0],
    [5, -1],
    [5, 2.5],
    [Number.MAX_SAFE_INTEGER + 2, 64],
  ] as const) {
    const a = new BitBuilder();
    const b = new BitBuilder();
    const ra = attempt(() => originalUint.call(a, v, bits));
    const rb = attempt(() => fastUint.call(b, v, bits));
    t.is(rb, ra, `${v} in ${bits} bits`);
    t.true(a._buffer.equals(b._buffer));
    t.is(a._length, b._length);
  }
});
