/**
 * Single-root BOC writer, byte for byte what @ton/core's `cell.toBoc()` writes (`serialized_boc#b5ee9c72`,
 * no index, CRC32-C, cells in @ton/core's topological order), for FastCells and @ton/core cells alike.
 * @ton/core's writer goes through its bit-by-bit `BitBuilder`; this one copies the cells' padded bytes.
 * test/unit/ingest/devnet/fast-cell.test.ts compares both on random cell trees.
 * Layout: https://github.com/ton-blockchain/ton/blob/master/crypto/tl/boc.tlb
 */
import { type AnyCell, bitsOf, dataOf, descriptor1, descriptor2, keyOf } from "./fast-cell.ts";

/**
 * Scratch for `toBoc`, reused across calls (it is not re-entrant): a tx BOC is written per transaction, and
 * fresh maps and arrays per call were a visible share of the garbage collector's work.
 */
const ids = new Map<string, number>();
/** The same ids by object, so a ref is looked up once, by identity (content-equal objects share an id). */
const objectIds = new Map<AnyCell, number>();
const found: AnyCell[] = [];
/** Refs of cell `id` as ids: kids[4 * id + k], kidCount[id] of them. */
let kids = new Int32Array(1024);
let kidCount = new Uint8Array(256);
/** 0 = not visited, 1 = on the DFS stack, 2 = done. */
let state = new Uint8Array(256);
/** BOC index of each id. */
let position = new Int32Array(256);
const order: number[] = [];
/** Breadth-first discovery queue (cells may repeat; duplicates are skipped when dequeued). */
const queue: AnyCell[] = [];
const stack: number[] = [];
const next: number[] = [];

/**
 * @ton/core's `topologicalSort`: distinct cells (by hash) in breadth-first discovery order, then a
 * depth-first post-order from the root visiting refs last-to-first, reversed, into `order`. (A FIFO queue
 * and index arrays instead of @ton/core's level arrays and hex-string maps; the order is the same.)
 */
function topologicalOrder(root: AnyCell): number {
  // Discovery: a cell gets its id when dequeued, as in @ton/core (a duplicate is dropped there).
  queue.push(root);
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head]!;
    if (objectIds.has(cell)) continue;
    const key = keyOf(cell);
    let id = ids.get(key);
    if (id === undefined) {
      id = found.length;
      ids.set(key, id);
      found.push(cell);
      for (const r of cell.refs) queue.push(r);
    }
    objectIds.set(cell, id);
  }
  const n = found.length;
  if (n > kidCount.length) {
    const size = 2 * n;
    kids = new Int32Array(4 * size);
    kidCount = new Uint8Array(size);
    state = new Uint8Array(size);
    position = new Int32Array(size);
  }
  for (let id = 0; id < n; id++) {
    const refs = found[id]!.refs;
    kidCount[id] = refs.length;
    for (let k = 0; k < refs.length; k++) kids[4 * id + k] = objectIds.get(refs[k]!)!;
  }
  state.fill(0, 0, n);
  postOrder();
  order.reverse();
  for (let i = 0; i < n; i++) position[order[i]!] = i;
  return n;
}

/** Post-order from id 0 into `order`, refs visited last-to-first (every cell is reachable from the root). */
function postOrder(): void {
  stack.push(0);
  next.push(kidCount[0]! - 1);
  state[0] = 1;
  while (stack.length > 0) {
    const top = stack.length - 1;
    const id = stack[top]!;
    let i = next[top]!;
    while (i >= 0 && state[kids[4 * id + i]!] === 2) i--;
    if (i < 0) {
      stack.pop();
      next.pop();
      order.push(id);
      state[id] = 2;
      continue;
    }
    const child = kids[4 * id + i]!;
    next[top] = i - 1;
    if (state[child] === 1) throw new Error("Not a DAG");
    state[child] = 1;
    stack.push(child);
    next.push(kidCount[child]! - 1);
  }
}

/** Bytes needed for `n` (at least one), as @ton/core's `ceil(bitsForNumber(n) / 8)`. */
function byteWidth(n: number): number {
  let bytes = 1;
  while (n >= 2 ** (8 * bytes)) bytes++;
  return bytes;
}

function writeBE(out: Uint8Array, at: number, value: number, bytes: number): number {
  for (let i = bytes - 1; i >= 0; i--) {
    out[at + i] = value & 0xff;
    value = Math.floor(value / 256);
  }
  return at + bytes;
}

export function toBoc(root: AnyCell): Buffer {
  try {
    return writeBoc(topologicalOrder(root));
  } finally {
    // Drop the references to this tree's cells (and a half-built state after an error).
    ids.clear();
    objectIds.clear();
    found.length = 0;
    queue.length = 0;
    order.length = 0;
    stack.length = 0;
    next.length = 0;
  }
}

function writeBoc(count: number): Buffer {
  const sizeBytes = byteWidth(count);
  let cellBytes = 0;
  for (let id = 0; id < count; id++)
    cellBytes += 2 + ((bitsOf(found[id]!) + 7) >> 3) + kidCount[id]! * sizeBytes;
  const offsetBytes = byteWidth(cellBytes);
  const total = 4 + 1 + 1 + 3 * sizeBytes + offsetBytes + sizeBytes + cellBytes + 4;
  const out = Buffer.allocUnsafe(total);
  out.writeUInt32BE(0xb5ee9c72, 0);
  out[4] = 0x40 | sizeBytes; // has_idx 0, has_crc32c 1, has_cache_bits 0, flags 0, size:(## 3)
  out[5] = offsetBytes;
  let at = writeBE(out, 6, count, sizeBytes);
  at = writeBE(out, at, 1, sizeBytes); // roots
  at = writeBE(out, at, 0, sizeBytes); // absent
  at = writeBE(out, at, cellBytes, offsetBytes);
  at = writeBE(out, at, 0, sizeBytes); // root index
  for (const id of order) {
    const c = found[id]!;
    out[at++] = descriptor1(c);
    out[at++] = descriptor2(bitsOf(c));
    const data = dataOf(c);
    out.set(data, at);
    at += data.length;
    for (let k = 0; k < kidCount[id]!; k++) at = writeBE(out, at, position[kids[4 * id + k]!]!, sizeBytes);
  }
  out.writeInt32LE(crc32c(out.subarray(0, at)), at);
  return out;
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
export function crc32c(bytes: Uint8Array): number {
  const [t0, t1, t2, t3] = CRC_TABLES;
  let crc = -1;
  let i = 0;
  for (const end = bytes.length - 3; i < end; i += 4) {
    crc ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    crc = t3[crc & 0xff]! ^ t2[(crc >>> 8) & 0xff]! ^ t1[(crc >>> 16) & 0xff]! ^ t0[crc >>> 24]!;
  }
  for (; i < bytes.length; i++) crc = t0[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return crc ^ -1;
}
