/**
 * Faster, byte-identical `BitBuilder.writeUint` and `BitBuilder.writeBuffer` for @ton/core. The devnet's
 * market builds every user message with @ston-fi/sdk and dex/codecs on @ton/core's `Builder`, and there:
 * - `writeUint` converts every value to a bigint and takes each output byte out of it with bigint shifts;
 * - `writeBuffer` at an unaligned position (every address hash: it follows 11 bits of tag and workchain)
 *   writes the bytes one `writeUint(byte, 8)` call at a time.
 * The replacements write the same bytes with number arithmetic: a value below 2^48 is exact as a number,
 * and a bigint of up to 96 bits is split once into two such numbers.
 *
 * Like @ton/core's code they OR the first (partial) byte in and assign the following ones. Anything
 * unusual (another argument type, a zero or huge width, a value out of range, a write past the end) goes
 * to the original, so every error is thrown by @ton/core itself, with its message, before anything is
 * written. test/unit/infra/library-patches/bit-builder.test.ts compares both on random write sequences.
 *
 * Process-wide, installed by `applyLibraryPatches` (./index.ts) for the composition roots that build messages.
 */
import { createRequire } from "node:module";
import { POW2 } from "../pow2.ts";

type Builder = { _buffer: Uint8Array; _length: number };
type WriteUint = (this: Builder, value: bigint | number, bits: number) => void;
type WriteBuffer = (this: Builder, src: Buffer) => void;

const TWO_48 = 2 ** 48;
const TWO_48_BIG = 1n << 48n;
const MASK_48 = TWO_48_BIG - 1n;

/**
 * Writes `value` (an integer, 0 ≤ value < 2^bits ≤ 2^48) as `bits` bits at the builder's position, byte for
 * byte as @ton/core's `writeUint` does; the caller has checked that it fits.
 */
function put(b: Builder, value: number, bits: number): void {
  const buf = b._buffer;
  const length = b._length;
  const tillByte = 8 - (length & 7);
  let at = length >> 3;
  if (bits < tillByte) {
    buf[at] = buf[at]! | (value << (tillByte - bits));
    b._length = length + bits;
    return;
  }
  let rest = bits - tillByte;
  // The top `tillByte` bits complete the current byte.
  buf[at] = buf[at]! | Math.floor(value / POW2[rest]!);
  at++;
  while (rest >= 8) {
    rest -= 8;
    buf[at++] = Math.floor(value / POW2[rest]!) & 0xff;
  }
  if (rest > 0) buf[at] = (value % POW2[rest]!) * POW2[8 - rest]!;
  b._length = length + bits;
}

export function fastWriteUint(original: WriteUint): WriteUint {
  return function writeUint(this: Builder, value: bigint | number, bits: number): void {
    if (
      !Number.isSafeInteger(bits) ||
      bits <= 0 ||
      bits > 96 ||
      !(this._buffer instanceof Uint8Array) ||
      !Number.isSafeInteger(this._length) ||
      this._length < 0 ||
      this._length + bits > this._buffer.length * 8
    ) {
      original.call(this, value, bits);
      return;
    }
    let n: number;
    if (typeof value === "number") n = value;
    else if (typeof value === "bigint" && value >= 0n && value < TWO_48_BIG) n = Number(value);
    else {
      if (typeof value !== "bigint" || value < 0n || value >> BigInt(bits) !== 0n) {
        original.call(this, value, bits);
        return;
      }
      // 2^48 ≤ value < 2^bits ≤ 2^96: the high bits - 48 bits, then the low 48.
      put(this, Number(value >> 48n), bits - 48);
      put(this, Number(value & MASK_48), 48);
      return;
    }
    if (!Number.isSafeInteger(n) || n < 0 || n >= POW2[bits]!) {
      original.call(this, value, bits);
      return;
    }
    if (bits <= 48) put(this, n, bits);
    else {
      // 48 < bits ≤ 96: the high bits - 48 bits, then the low 48 (exact: n is a safe integer).
      put(this, Math.floor(n / TWO_48), bits - 48);
      put(this, n % TWO_48, 48);
    }
  };
}

export function fastWriteBuffer(original: WriteBuffer): WriteBuffer {
  return function writeBuffer(this: Builder, src: Buffer): void {
    const length = this._length;
    if (
      (length & 7) === 0 ||
      !(src instanceof Uint8Array) ||
      !(this._buffer instanceof Uint8Array) ||
      !Number.isSafeInteger(length) ||
      length < 0 ||
      length + src.length * 8 > this._buffer.length * 8
    ) {
      // Aligned (a plain copy already) or unusual: @ton/core's own path.
      original.call(this, src);
      return;
    }
    // Unaligned: each byte is `writeUint(byte, 8)`, its high bits ORed into the current byte and its low
    // bits assigned to the next.
    const buf = this._buffer;
    const shift = length & 7;
    let at = length >> 3;
    for (let i = 0; i < src.length; i++) {
      const byte = src[i]!;
      buf[at] = buf[at]! | (byte >> shift);
      at++;
      buf[at] = (byte << (8 - shift)) & 0xff;
    }
    this._length = length + src.length * 8;
  };
}

/** Returns false when @ton/core's layout is not the expected one (nothing is changed then). */
export function installBitBuilder(): boolean {
  let proto: { writeUint?: WriteUint; writeBuffer?: WriteBuffer };
  try {
    const require = createRequire(import.meta.url);
    proto = require("@ton/core/dist/boc/BitBuilder.js").BitBuilder.prototype;
  } catch {
    return false;
  }
  const { writeUint, writeBuffer } = proto;
  if (typeof writeUint !== "function" || typeof writeBuffer !== "function") return false;
  proto.writeUint = fastWriteUint(writeUint);
  proto.writeBuffer = fastWriteBuffer(writeBuffer);
  return true;
}
