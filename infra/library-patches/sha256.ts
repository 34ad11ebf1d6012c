/**
 * @ton/core hashes every cell through `sha256_sync` of @ton/crypto, a pure-JS SHA-256 that hex-encodes its
 * input first; on the devnet that is about a fifth of all CPU time. `installSha256()` points that export
 * at node:crypto's SHA-256 — the same function, bit for bit (test/unit/infra/library-patches/sha256.test.ts
 * compares both on random inputs and on cell hashes).
 *
 * It also replaces `bitsToPaddedBuffer`, which builds the data part of every cell's hash input (and of
 * `BitString.toString`) one bit at a time through a `BitBuilder`: the replacement copies bytes and sets the
 * completion tag, with the same output (the test compares both on random bit strings at any offset).
 *
 * It changes a dependency's module export for the whole process: installed only through
 * `applyLibraryPatches` (./index.ts); everything works the same without it, only slower.
 */
import { hash } from "node:crypto";
import { createRequire } from "node:module";

type Sha256Module = { sha256_sync: (source: Buffer | string) => Buffer };
/** The fields of @ton/core's `BitString` the padded-bytes copy reads. */
type Bits = { _data: Uint8Array; _offset: number; _length: number };
type ToPadded = (bits: Bits) => Buffer;
type PaddedBitsModule = { bitsToPaddedBuffer: ToPadded };

const require = createRequire(import.meta.url);

/** One-shot `crypto.hash` (Node ≥ 20.12): no Hash object per call, unlike `createHash().update().digest()`. */
export function nativeSha256(source: Buffer | string): Buffer {
  // As a latin1 string, then copied into a pooled Buffer: half the time of the "buffer" output, which
  // gives every digest an ArrayBuffer of its own.
  return Buffer.from(hash("sha256", source, "binary"), "latin1");
}

/**
 * `bitsToPaddedBuffer`: the bits as ceil(length / 8) bytes, then a 1 bit and zeros up to the byte boundary.
 * Bytes past the end of `_data` read as zero bits, as `BitString.at` does.
 */
export function paddedBuffer(bits: Bits): Buffer {
  const { _data: data, _offset: offset, _length: length } = bits;
  const size = (length + 7) >> 3;
  const out = Buffer.alloc(size);
  const shift = offset & 7;
  const at = offset >> 3;
  if (shift === 0) {
    for (let i = 0; i < size; i++) out[i] = data[at + i] ?? 0;
  } else {
    for (let i = 0; i < size; i++) {
      out[i] = (((data[at + i] ?? 0) << shift) | ((data[at + i + 1] ?? 0) >> (8 - shift))) & 0xff;
    }
  }
  const rest = length & 7;
  if (rest > 0) out[size - 1] = (out[size - 1]! & (0xff00 >> rest)) | (0x80 >> rest);
  return out;
}

/** Falls back to the original for anything that is not a well-formed BitString. */
function fastPaddedBuffer(original: ToPadded): ToPadded {
  return function bitsToPaddedBuffer(bits: Bits): Buffer {
    if (
      !(bits?._data instanceof Uint8Array) ||
      !Number.isInteger(bits._offset) ||
      !Number.isInteger(bits._length) ||
      bits._offset < 0 ||
      bits._length < 0
    ) {
      return original(bits);
    }
    return paddedBuffer(bits);
  };
}

/** Returns false when @ton/crypto's layout is not the expected one (nothing is changed then). */
export function installSha256(): boolean {
  let target: Partial<Sha256Module>;
  try {
    target = require("@ton/crypto/dist/primitives/sha256.js") as Partial<Sha256Module>;
  } catch {
    return false;
  }
  if (typeof target.sha256_sync !== "function") return false;
  target.sha256_sync = nativeSha256;
  try {
    const padded = require("@ton/core/dist/boc/utils/paddedBits.js") as Partial<PaddedBitsModule>;
    if (typeof padded.bitsToPaddedBuffer === "function") {
      padded.bitsToPaddedBuffer = fastPaddedBuffer(padded.bitsToPaddedBuffer);
    }
  } catch {
    // Another @ton/core layout: its own bit-by-bit copy stays, which is only slower.
  }
  return true;
}
