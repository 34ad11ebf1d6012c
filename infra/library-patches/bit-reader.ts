/**
 * Faster, bit-for-bit identical replacements for the @ton/core primitives that dominate BOC parsing.
 * The processor parses every message body once (`Cell.fromBase64`), and with @ton/core's own code that
 * was about half of its CPU time:
 * - `BitReader._preloadUint` reads one bit at a time into a bigint, and `loadUint`/`preloadUint` go
 *   through it even for an 8-bit number; `_preloadBuffer` reads an unaligned address hash as 32 such
 *   bigints;
 * - `BitBuilder.writeBits` copies one bit at a time through two method calls (every cell's hash input);
 * - `crc32c` (the BOC checksum) runs eight shift/xor steps per byte instead of one table lookup.
 *
 * Each replacement handles the common in-bounds case and hands anything unusual (out-of-bounds reads, an
 * overflowing builder, arguments of another type) to the original, so errors and edge cases stay exactly
 * as they were. test/unit/infra/library-patches/bit-reader.test.ts compares both on random inputs and on
 * every decoded message of the mainnet traces.
 *
 * It changes a dependency for the whole process: installed only through `applyLibraryPatches` (./index.ts),
 * by the composition roots that parse (bin/, benchmarks); everything works the same without it, only slower.
 */
import { createRequire } from "node:module";

type Bits = {
  _data: Uint8Array;
  _offset: number;
  _length: number;
  subbuffer(offset: number, length: number): Buffer | null;
};
type Reader = { _bits: Bits; _offset: number };
type Builder = { _buffer: Uint8Array; _length: number };
type PreloadUint = (this: Reader, bits: number, offset: number) => bigint;
type LoadNumber = (this: Reader, bits: number) => number;
type PreloadBuffer = (this: Reader, bytes: number, offset: number) => Buffer;
type WriteBits = (this: Builder, src: unknown) => void;
type Crc32c = (source: Uint8Array) => Buffer;
type ReaderMethods = {
  _preloadUint?: PreloadUint;
  _preloadBuffer?: PreloadBuffer;
  loadUint?: LoadNumber;
  preloadUint?: LoadNumber;
};

const require = createRequire(import.meta.url);

/** Returns false when @ton/core's layout is not the expected one (nothing is changed then). */
export function installBitReader(): boolean {
  let reader: ReaderMethods;
  let builder: { writeBits?: WriteBits };
  let bitString: new (...args: never[]) => unknown;
  let crc: { crc32c?: Crc32c };
  try {
    reader = require("@ton/core/dist/boc/BitReader.js").BitReader.prototype;
    builder = require("@ton/core/dist/boc/BitBuilder.js").BitBuilder.prototype;
    bitString = require("@ton/core/dist/boc/BitString.js").BitString;
    crc = require("@ton/core/dist/utils/crc32c.js");
  } catch {
    return false;
  }
  const { _preloadUint: preload, _preloadBuffer: buffer, loadUint, preloadUint } = reader;
  const write = builder.writeBits;
  if (
    typeof preload !== "function" ||
    typeof buffer !== "function" ||
    typeof loadUint !== "function" ||
    typeof preloadUint !== "function" ||
    typeof write !== "function" ||
    typeof bitString !== "function" ||
    typeof crc.crc32c !== "function"
  ) {
    return false;
  }
  reader._preloadUint = fastPreloadUint(preload);
  reader._preloadBuffer = fastPreloadBuffer(buffer);
  reader.loadUint = fastLoadUint(loadUint, true);
  reader.preloadUint = fastLoadUint(preloadUint, false);
  builder.writeBits = fastWriteBits(write, bitString);
  crc.crc32c = crc32c;
  return true;
}

/** `bits` bits at `offset` exist in the bit string, and both are whole numbers (bits > 0). */
function inBounds(s: Bits, bits: number, offset: number): boolean {
  return (
    Number.isInteger(bits) &&
    Number.isInteger(offset) &&
    bits > 0 &&
    offset >= 0 &&
    offset + bits <= s._length
  );
}

/**
 * Up to 52 bits from absolute bit position `p` of `data`, as an exact number. A byte missing from the
 * data reads as zero bits, as BitString.at does.
 */
function readNumber(data: Uint8Array, p: number, bits: number): number {
  const end = p + bits;
  let num = 0;
  while (p < end) {
    const bit = p & 7;
    const take = Math.min(8 - bit, end - p);
    num = num * (1 << take) + (((data[p >> 3] ?? 0) >> (8 - bit - take)) & ((1 << take) - 1));
    p += take;
  }
  return num;
}

/** Reads chunks of up to 48 bits as numbers (exact) and only then moves them into the bigint. */
export function fastPreloadUint(original: PreloadUint): PreloadUint {
  return function preloadUint(this: Reader, bits: number, offset: number): bigint {
    const s = this._bits;
    if (!inBounds(s, bits, offset)) return original.call(this, bits, offset);
    let p = s._offset + offset;
    if (bits <= 48) return BigInt(readNumber(s._data, p, bits));
    let left = bits;
    let big = 0n;
    while (left > 0) {
      const take = Math.min(48, left);
      big = (big << BigInt(take)) | BigInt(readNumber(s._data, p, take));
      p += take;
      left -= take;
    }
    return big;
  };
}

/**
 * `loadUint` / `preloadUint`: a value of at most 52 bits is always a safe integer, so it is read as a
 * number directly, without the bigint and its range check; wider or out-of-bounds reads go to the original.
 */
export function fastLoadUint(original: LoadNumber, advance: boolean): LoadNumber {
  return function loadUint(this: Reader, bits: number): number {
    const s = this._bits;
    if (bits > 52 || !inBounds(s, bits, this._offset)) return original.call(this, bits);
    const value = readNumber(s._data, s._offset + this._offset, bits);
    if (advance) this._offset += bits;
    return value;
  };
}

/** Unaligned bytes (an address hash) are shifted out of byte pairs instead of read as 8-bit bigints. */
export function fastPreloadBuffer(original: PreloadBuffer): PreloadBuffer {
  return function preloadBuffer(this: Reader, bytes: number, offset: number): Buffer {
    if (!Number.isInteger(bytes) || bytes < 0) return original.call(this, bytes, offset);
    // The original's first step: the aligned view, or its out-of-bounds error.
    const aligned = this._bits.subbuffer(offset, bytes * 8);
    if (aligned) return aligned;
    const { _data: data, _offset: base } = this._bits;
    const out = Buffer.alloc(bytes);
    const start = base + offset;
    const shift = start & 7;
    let at = start >> 3;
    for (let i = 0; i < bytes; i++, at++) {
      out[i] = (((data[at] ?? 0) << shift) | ((data[at + 1] ?? 0) >> (8 - shift))) & 0xff;
    }
    return out;
  };
}

/** Copies whole bytes when both sides are byte-aligned, else bit by bit without method calls. */
export function fastWriteBits(original: WriteBits, bitString: new (...args: never[]) => unknown): WriteBits {
  return function writeBits(this: Builder, src: unknown): void {
    if (!(src instanceof bitString)) {
      original.call(this, src);
      return;
    }
    const { _data: data, _offset: from, _length: len } = src as unknown as Bits;
    const n = this._length;
    const out = this._buffer;
    // The original's overflow check runs per bit and lets one bit past the end through: leave it that.
    if (n + len > out.length * 8) {
      original.call(this, src);
      return;
    }
    let i = 0;
    if ((n & 7) === 0 && (from & 7) === 0) {
      const bytes = len >> 3;
      const s0 = from >> 3;
      const d0 = n >> 3;
      // OR, like writeBit: it only ever sets bits.
      for (let k = 0; k < bytes; k++) out[d0 + k]! |= data[s0 + k] ?? 0;
      i = bytes * 8;
    }
    for (; i < len; i++) {
      const p = from + i;
      if (((data[p >> 3] ?? 0) & (1 << (7 - (p & 7)))) !== 0) {
        const q = n + i;
        out[q >> 3]! |= 1 << (7 - (q & 7));
      }
    }
    this._length = n + len;
  };
}

const POLY = 0x82f63b78;
/** One entry per byte value: the eight reflected shift/xor steps of the original, done once. */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let b = 0; b < 256; b++) {
    let c = b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    table[b] = c;
  }
  return table;
})();

/** CRC-32C of `source` as @ton/core returns it: 4 bytes, little-endian. */
export function crc32c(source: Uint8Array): Buffer {
  let crc = 0 ^ 0xffffffff;
  for (let n = 0; n < source.length; n++) crc = CRC_TABLE[(crc ^ source[n]!) & 0xff]! ^ (crc >>> 8);
  const res = Buffer.alloc(4);
  res.writeInt32LE(crc ^ 0xffffffff);
  return res;
}
