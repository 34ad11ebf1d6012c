/**
 * Single-root BOC writer, byte for byte what @ton/core's `cell.toBoc()` writes (`serialized_boc#b5ee9c72`,
 * no index, CRC32-C, cells in @ton/core's topological order), for FastCells and @ton/core cells alike.
 * @ton/core's writer goes through its bit-by-bit `BitBuilder`; this one copies the cells' padded bytes.
 * test/unit/ingest/devnet/fast-cell.test.ts compares both on random cell trees.
 * Layout: https://github.com/ton-blockchain/ton/blob/master/crypto/tl/boc.tlb
 */

import { POW2 } from "../../../infra/pow2.ts";
import {
  type AnyCell,
  bitsOf,
  chainSize,
  dataOf,
  descriptor1,
  descriptor2,
  FastCell,
  fastOf,
  keyOf,
} from "./fast-cell.ts";

/*
 * The order. @ton/core's `topologicalSort` first collects the distinct cells (by hash) breadth-first, then
 * runs a depth-first search from the root that visits refs last-to-first and appends each cell after its
 * refs (post-order); the BOC lists that post-order reversed, root first. The breadth-first pass only picks
 * which of several content-equal objects stands for a hash, and content-equal cells serialise the same, so
 * the bytes depend on the depth-first post-order alone. `visit` computes it in one pass, deduplicating by
 * hash in an open-addressing table over flat typed arrays (the hash's first four bytes are the slot).
 *
 * Scratch below is reused across calls (`toBoc` is not re-entrant): a BOC is written per transaction, and
 * fresh maps and arrays per call were a visible share of the garbage collector's work.
 */

/** Cells by id (ids in discovery order), their hash keys and padded data bytes. */
const cells: AnyCell[] = [];
const keys: string[] = [];
const datas: Uint8Array[] = [];
let count = 0;
/** Per id: d1, d2 and the number of refs. */
let d1 = new Uint8Array(256);
let d2 = new Uint8Array(256);
let refCounts = new Uint8Array(256);
/** Refs of cell `id` as ids: kids[4 * id + k]. */
let kids = new Int32Array(1024);
/** Ids in depth-first post-order. */
let post = new Int32Array(256);
let postLength = 0;
/** BOC index of each id. */
let position = new Int32Array(256);
/** Hash table: id + 1 per slot, 0 = free; at most half full. `slotOf[id]` lets a call clear only its slots. */
let table = new Int32Array(512);
let slotOf = new Int32Array(256);

/** The first four bytes of a SHA-256 key: uniformly distributed, so a fine slot hash. */
const slotHash = (key: string): number =>
  (key.charCodeAt(0) << 24) | (key.charCodeAt(1) << 16) | (key.charCodeAt(2) << 8) | key.charCodeAt(3);

/** Room for one more id: doubles the per-id arrays, and the table (re-inserting every id) past half full. */
function grow(): void {
  const size = post.length;
  if (count < size) return;
  const bigger = (a: Int32Array, n: number): Int32Array<ArrayBuffer> => {
    const b = new Int32Array(n);
    b.set(a);
    return b;
  };
  kids = bigger(kids, 8 * size);
  const biggerBytes = (a: Uint8Array, n: number): Uint8Array<ArrayBuffer> => {
    const b = new Uint8Array(n);
    b.set(a);
    return b;
  };
  d1 = biggerBytes(d1, 2 * size);
  d2 = biggerBytes(d2, 2 * size);
  refCounts = biggerBytes(refCounts, 2 * size);
  post = bigger(post, 2 * size);
  position = new Int32Array(2 * size);
  slotOf = bigger(slotOf, 2 * size);
  table = new Int32Array(4 * size);
  const mask = table.length - 1;
  for (let id = 0; id < count; id++) {
    let slot = slotHash(keys[id]!) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = id + 1;
    slotOf[id] = slot;
  }
}

/** Id of `root`'s hash, visiting it (refs last-to-first, then itself into `post`) the first time. */
function visit(root: AnyCell): number {
  // An ordinary @ton/core cell is visited as the (content-equal) FastCell standing for it.
  const fast = root instanceof FastCell ? root : fastOf(root);
  const cell = fast ?? root;
  const key = fast !== null ? fast.key : keyOf(root);
  let mask = table.length - 1;
  let slot = slotHash(key) & mask;
  for (let entry = table[slot]!; entry !== 0; entry = table[slot]!) {
    // Content-addressed cells cannot contain themselves, so a hit is a finished cell or a shared one.
    if (keys[entry - 1] === key) return entry - 1;
    slot = (slot + 1) & mask;
  }
  if (count >= post.length) {
    grow();
    mask = table.length - 1;
    slot = slotHash(key) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
  }
  const id = count++;
  table[slot] = id + 1;
  slotOf[id] = slot;
  cells[id] = cell;
  keys[id] = key;
  const refs = cell.refs;
  if (fast !== null) {
    datas[id] = fast.data;
    d1[id] = refs.length;
    d2[id] = descriptor2(fast.bits);
  } else {
    datas[id] = dataOf(cell);
    d1[id] = descriptor1(cell);
    d2[id] = descriptor2(bitsOf(cell));
  }
  refCounts[id] = refs.length;
  for (let k = refs.length - 1; k >= 0; k--) {
    // Not `kids[…] = visit(…)`: the visit may grow (replace) `kids`, and the target is evaluated first.
    const child = visit(refs[k]!);
    kids[4 * id + k] = child;
  }
  post[postLength++] = id;
  return id;
}

/** Bytes needed for `n` (at least one), as @ton/core's `ceil(bitsForNumber(n) / 8)`. */
function byteWidth(n: number): number {
  let bytes = 1;
  while (n >= POW2[8 * bytes]!) bytes++;
  return bytes;
}

function writeBE(out: Uint8Array, at: number, value: number, bytes: number): number {
  for (let i = bytes - 1; i >= 0; i--) {
    out[at + i] = value & 0xff;
    value = Math.floor(value / 256);
  }
  return at + bytes;
}

/** Output scratch: a BOC is written here, then copied out or encoded. */
let out = scratchBuffer(4096);
/** `out`'s memory as 32-bit words (it starts at offset 0 of its own ArrayBuffer), for `crc32cWords`. */
let outWords = new Int32Array(out.buffer, 0, out.length >> 2);

function scratchBuffer(size: number): Buffer {
  return Buffer.from(new ArrayBuffer(size));
}

/** Writes the BOC of `root` into `out` and returns its length. */
function write(root: AnyCell): number {
  try {
    visit(root);
    return writeBoc();
  } finally {
    clear();
  }
}

/**
 * Distinct cells (by hash) and their total bits in the tree of `root`: `treeSize` of ./fast-cell.ts (TON's
 * `StorageUsed` of a message) on this module's hash table instead of a fresh Set per call.
 */
export function distinctCells(root: AnyCell): { cells: number; bits: number } {
  // Most messages and bodies are chains (one ref per cell at most): counted without a walk.
  const chain = chainSize(root);
  if (chain !== null) return { cells: chain.chainCells, bits: chain.chainBits };
  try {
    visit(root);
    let bits = 0;
    for (let id = 0; id < count; id++) bits += bitsOf(cells[id]!);
    return { cells: count, bits };
  } finally {
    clear();
  }
}

/**
 * Frees this call's slots (also after an error). The per-id arrays keep their length: truncating them
 * released their backing stores, which every call then grew again. They hold on to the last tree's cells
 * until the next call overwrites them.
 */
function clear(): void {
  for (let id = 0; id < count; id++) table[slotOf[id]!] = 0;
  count = 0;
  postLength = 0;
}

// `write` may replace `out` (a larger BOC), so it runs before `out` is read.
export function toBoc(root: AnyCell): Buffer {
  const length = write(root);
  return Buffer.from(out.subarray(0, length));
}

/** `toBoc(root).toString("base64")` without the intermediate Buffer. */
export function toBocBase64(root: AnyCell): string {
  const length = write(root);
  return out.toString("base64", 0, length);
}

function writeBoc(): number {
  const n = count;
  const sizeBytes = byteWidth(n);
  let cellBytes = 0;
  for (let id = 0; id < n; id++) cellBytes += 2 + datas[id]!.length + refCounts[id]! * sizeBytes;
  // post-order reversed: the root (last in `post`) gets index 0.
  for (let i = 0; i < n; i++) position[post[i]!] = n - 1 - i;
  const offsetBytes = byteWidth(cellBytes);
  const total = 4 + 1 + 1 + 3 * sizeBytes + offsetBytes + sizeBytes + cellBytes + 4;
  if (out.length < total) {
    out = scratchBuffer(Math.max(total, 2 * out.length));
    outWords = new Int32Array(out.buffer, 0, out.length >> 2);
  }
  const o = out;
  o.writeUInt32BE(0xb5ee9c72, 0);
  o[4] = 0x40 | sizeBytes; // has_idx 0, has_crc32c 1, has_cache_bits 0, flags 0, size:(## 3)
  o[5] = offsetBytes;
  let at = writeBE(o, 6, n, sizeBytes);
  at = writeBE(o, at, 1, sizeBytes); // roots
  at = writeBE(o, at, 0, sizeBytes); // absent
  at = writeBE(o, at, cellBytes, offsetBytes);
  at = writeBE(o, at, 0, sizeBytes); // root index
  for (let i = n - 1; i >= 0; i--) {
    const id = post[i]!;
    const refCount = refCounts[id]!;
    o[at++] = d1[id]!;
    o[at++] = d2[id]!;
    const data = datas[id]!;
    o.set(data, at);
    at += data.length;
    if (sizeBytes === 1) for (let k = 0; k < refCount; k++) o[at++] = position[kids[4 * id + k]!]!;
    else for (let k = 0; k < refCount; k++) at = writeBE(o, at, position[kids[4 * id + k]!]!, sizeBytes);
  }
  o.writeInt32LE(LITTLE_ENDIAN ? crc32cWords(o, outWords, at) : crc32c(o, at), at);
  return at + 4;
}

/** Slicing-by-4 tables: TABLES[k][b] is the CRC of byte b followed by k zero bytes. */
const CRC_TABLES = (() => {
  const t = [new Int32Array(256), new Int32Array(256), new Int32Array(256), new Int32Array(256)] as const;
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[0][n] = c;
  }
  const [t0, t1, t2, t3] = t;
  for (let n = 0; n < 256; n++) {
    t1[n] = t0[t0[n]! & 0xff]! ^ (t0[n]! >>> 8);
    t2[n] = t0[t1[n]! & 0xff]! ^ (t1[n]! >>> 8);
    t3[n] = t0[t2[n]! & 0xff]! ^ (t2[n]! >>> 8);
  }
  return t;
})();

/** CRC-32C (Castagnoli), four bytes per step; the same value @ton/core's bitwise `crc32c` computes. */
export function crc32c(bytes: Uint8Array, length = bytes.length): number {
  const [t0, t1, t2, t3] = CRC_TABLES;
  let crc = -1;
  let i = 0;
  for (const end = length - 3; i < end; i += 4) {
    crc ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    crc = t3[crc & 0xff]! ^ t2[(crc >>> 8) & 0xff]! ^ t1[(crc >>> 16) & 0xff]! ^ t0[crc >>> 24]!;
  }
  for (; i < length; i++) crc = t0[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return crc ^ -1;
}

/** Whether this machine stores 32-bit words little-endian (then a word holds bytes 4i..4i+3 as CRC reads them). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Slicing-by-8 table: SLICE8[256 * k + b] is the CRC of byte b followed by k zero bytes. */
const SLICE8 = (() => {
  const t = new Int32Array(256 * 8);
  t.set(CRC_TABLES[0]);
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[256 * (k - 1) + n]!;
      t[256 * k + n] = t[prev & 0xff]! ^ (prev >>> 8);
    }
  }
  return t;
})();

/**
 * `crc32c(bytes, length)` eight bytes per step, read as two little-endian words of `words` (the same
 * memory as `bytes`, from offset 0): half the element reads of the byte-wise loop. Little-endian hosts only.
 */
export function crc32cWords(bytes: Uint8Array, words: Int32Array, length: number): number {
  const t = SLICE8;
  let crc = -1;
  const steps = length >> 3;
  for (let w = 0; w < steps; w++) {
    const a = crc ^ words[2 * w]!;
    const b = words[2 * w + 1]!;
    crc =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + (b & 0xff)]! ^
      t[512 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!;
  }
  for (let i = steps * 8; i < length; i++) crc = t[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return crc ^ -1;
}
