/**
 * infra/library-patches/bit-reader.ts (the `parse` group) must be invisible: every replaced @ton/core primitive returns (or throws)
 * exactly what the original does. The originals are captured before the patch; ava runs this file in its
 * own process, so the patch reaches no other test.
 */
import { createRequire } from "node:module";
import { Address, BitBuilder, BitReader, BitString, Cell } from "@ton/core";
import test from "ava";
import { decodeMessage } from "../../../../dex/classify/decode.ts";
import {
  crc32c,
  fastLoadUint,
  fastPreloadBuffer,
  fastPreloadUint,
  fastWriteBits,
} from "../../../../infra/library-patches/bit-reader.ts";
import { applyLibraryPatches } from "../../../../infra/library-patches/index.ts";
import { int, prng } from "../../../helpers/prng.ts";
import { listTraceFiles, loadTrace } from "../../../helpers/traces.ts";

const require = createRequire(import.meta.url);
type PreloadUint = Parameters<typeof fastPreloadUint>[0];
type LoadNumber = Parameters<typeof fastLoadUint>[0];
type PreloadBuffer = Parameters<typeof fastPreloadBuffer>[0];
type WriteBits = Parameters<typeof fastWriteBits>[0];
type ReaderThis = ThisParameterType<PreloadUint>;
const originalCrc = require("@ton/core/dist/utils/crc32c.js").crc32c as (b: Uint8Array) => Buffer;
const readerMethods = BitReader.prototype as unknown as {
  _preloadUint: PreloadUint;
  _preloadBuffer: PreloadBuffer;
  loadUint: LoadNumber;
  preloadUint: LoadNumber;
};
const originalPreload = readerMethods._preloadUint;
const originalPreloadBuffer = readerMethods._preloadBuffer;
const originalLoadUint = readerMethods.loadUint;
const originalPreloadUintNumber = readerMethods.preloadUint;
const originalWriteBits = BitBuilder.prototype.writeBits as unknown as WriteBits;

const bytes = (r: () => number, n: number) => Buffer.from(Array.from({ length: n }, () => int(r, 256)));

/** A random bit string, at a random bit offset into its buffer. */
function bitString(r: () => number): BitString {
  const data = bytes(r, 1 + int(r, 40));
  const offset = int(r, 8);
  return new BitString(data, offset, int(r, data.length * 8 - offset + 1));
}

/** The value, or the thrown message: both implementations must agree on either. */
function outcome(f: () => unknown): unknown {
  try {
    return { value: f() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

test("crc32c equals the original on random buffers", (t) => {
  const r = prng(1);
  for (let i = 0; i < 500; i++) {
    const b = bytes(r, int(r, 300));
    t.deepEqual(crc32c(b), originalCrc(b));
  }
});

test("_preloadUint equals the original in and out of bounds, at any alignment", (t) => {
  const r = prng(2);
  const fast = fastPreloadUint(originalPreload);
  for (let i = 0; i < 5000; i++) {
    const s = bitString(r);
    const reader = new BitReader(s) as unknown as ReaderThis;
    const bits = int(r, 300) - 2;
    const at = int(r, s.length + 20) - 2;
    const expected = outcome(() => originalPreload.call(reader, bits, at));
    t.deepEqual(
      outcome(() => fast.call(reader, bits, at)),
      expected,
      `${bits} bits at ${at} of ${s.length}`,
    );
  }
});

test("loadUint and preloadUint equal the original (value, thrown error, and reader position)", (t) => {
  const r = prng(4);
  const cases: [string, LoadNumber, LoadNumber][] = [
    ["loadUint", fastLoadUint(originalLoadUint, true), originalLoadUint],
    ["preloadUint", fastLoadUint(originalPreloadUintNumber, false), originalPreloadUintNumber],
  ];
  for (let i = 0; i < 4000; i++) {
    const s = bitString(r);
    const start = int(r, s.length + 4);
    const bits = int(r, 70) - 2;
    for (const [name, fast, original] of cases) {
      const run = (f: LoadNumber) => {
        const reader = new BitReader(s, start) as unknown as ReaderThis;
        return [outcome(() => f.call(reader, bits)), reader._offset];
      };
      t.deepEqual(run(fast), run(original), `${name}(${bits}) at ${start} of ${s.length}`);
    }
  }
});

test("_preloadBuffer equals the original, aligned or not, in and out of bounds", (t) => {
  const r = prng(5);
  const fast = fastPreloadBuffer(originalPreloadBuffer);
  for (let i = 0; i < 4000; i++) {
    const s = bitString(r);
    const reader = new BitReader(s) as unknown as ReaderThis;
    const bytes = int(r, 40) - 1;
    const at = int(r, s.length + 10) - 1;
    const hex = (f: PreloadBuffer) => outcome(() => f.call(reader, bytes, at).toString("hex"));
    t.deepEqual(hex(fast), hex(originalPreloadBuffer), `${bytes} bytes at ${at} of ${s.length}`);
  }
});

test("writeBits equals the original, after any prefix, including overflow", (t) => {
  const r = prng(3);
  const fast = fastWriteBits(originalWriteBits, BitString);
  for (let i = 0; i < 3000; i++) {
    const src = bitString(r);
    const size = int(r, 400);
    const prefix = Array.from({ length: int(r, 12) }, () => r() < 0.5);
    const run = (write: WriteBits) => {
      const b = new BitBuilder(size);
      return outcome(() => {
        for (const bit of prefix.slice(0, size)) b.writeBit(bit);
        write.call(b as unknown as ThisParameterType<WriteBits>, src);
        const buffer = (b as unknown as { _buffer: Buffer })._buffer;
        return [b.length, buffer.toString("hex")];
      });
    };
    t.deepEqual(run(fast), run(originalWriteBits), `${src.length} bits into ${size} after ${prefix.length}`);
  }
});

/** A decoded message as text: cells by BOC and hash, addresses raw, bigints as digits. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return `${v}n`;
    if (v instanceof Cell) return `cell:${v.toBoc().toString("base64")}:${v.hash().toString("hex")}`;
    if (Address.isAddress(v)) return `address:${v.toRawString()}`;
    return v;
  });
}

test("every message of the mainnet traces decodes the same with the speedups", (t) => {
  const messages = listTraceFiles().flatMap((name) =>
    loadTrace(name).txs.flatMap((tx) => [...(tx.in_msg ? [tx.in_msg] : []), ...tx.out_msgs]),
  );
  const before = messages.map((m) => canonical(decodeMessage(m)));
  t.deepEqual(applyLibraryPatches(["parse"]), { applied: ["parse"], refused: null });
  const after = messages.map((m) => canonical(decodeMessage(m)));
  t.true(messages.length > 100);
  t.deepEqual(after, before);
  // A corrupted BOC still fails the same way (checksum, then parsing).
  const boc = Buffer.from(messages[0]!.body_boc, "base64");
  boc[boc.length - 1]! ^= 1;
  t.throws(() => Cell.fromBoc(boc), { message: "Invalid CRC32C" });
});
