/**
 * `Cell.fromBase64` for message bodies, with the same cells and half the work. @ton/core's parser reads
 * every header field and cell through a BitReader, copies each cell into an intermediate record, and
 * computes every cell's SHA-256 representation hash in the Cell constructor, although the classifier and
 * the pool tracker only read bits and refs (a body hash is never asked for). Here the bytes are read
 * directly, and each cell's hashes and depths are computed on first use, by @ton/core's own
 * `wonderCalculator` over the same bits and refs, so `hash()`, `depth()`, `equals()` and `toBoc()` give
 * what the eager cell gives.
 *
 * Only the plain case is parsed here: a `b5ee9c72` BOC with one root, no stored hashes, no exotic cell,
 * every size in range, children after their parents, and nothing after the data (or its CRC32-C, which is
 * checked). Anything else, valid or not, goes to `Cell.fromBase64` itself, so unusual BOCs and every
 * error message stay exactly @ton/core's. test/unit/infra/library-patches/fast-boc.test.ts compares both.
 *
 * It reads @ton/core internals (version-bound, like the patches beside it) but changes nothing in the
 * library: the classifier takes it as its `BocParser` (dex/classify/memo.ts) when a composition root hands
 * it in (`bocParser()` in ./index.ts), so dex/ depends on that interface only.
 *
 * The cells are `Cell` instances (`instanceof` holds) whose methods live on a shared prototype instead of
 * per-object closures, the other half of the constructor's cost.
 */
import { createRequire } from "node:module";
import { BitReader, BitString, Cell, CellType, Slice } from "@ton/core";

type Wonders = { mask: { value: number; level: number }; hashes: Buffer[]; depths: number[] };
type WonderCalculator = (type: CellType, bits: BitString, refs: Cell[]) => Wonders;
type Internals = {
  wonders: WonderCalculator;
  crc: { crc32c: (source: Uint8Array) => Buffer };
  levelMask: new (mask?: number) => { value: number; level: number };
};

const require = createRequire(import.meta.url);

function loadInternals(): Internals | null {
  try {
    const wonders = require("@ton/core/dist/boc/cell/wonderCalculator.js").wonderCalculator;
    const crc = require("@ton/core/dist/utils/crc32c.js");
    const levelMask = require("@ton/core/dist/boc/cell/LevelMask.js").LevelMask;
    if (typeof wonders !== "function" || typeof crc.crc32c !== "function" || typeof levelMask !== "function")
      return null;
    return { wonders, crc, levelMask };
  } catch {
    return null;
  }
}

const internals = loadInternals();

/** Fields an eager `Cell` sets in its constructor; hashes and depths come from `wondersOf`. */
type LazyCell = Cell & { _wonders?: Wonders };

function wondersOf(cell: LazyCell): Wonders {
  let w = cell._wonders;
  if (w === undefined) {
    w = (internals as Internals).wonders(CellType.Ordinary, cell.bits, cell.refs as Cell[]);
    cell._wonders = w;
  }
  return w;
}

/** The per-instance members of @ton/core's Cell, as prototype members with the same behaviour. */
const lazyPrototype: object = Object.create(Cell.prototype, {
  beginParse: {
    value(this: LazyCell, _allowExotic = false) {
      return new Slice(new BitReader(this.bits), this.refs);
    },
  },
  hash: {
    value(this: LazyCell, level = 3) {
      const hashes = wondersOf(this).hashes;
      return hashes[Math.min(hashes.length - 1, level)];
    },
  },
  depth: {
    value(this: LazyCell, level = 3) {
      const depths = wondersOf(this).depths;
      return depths[Math.min(depths.length - 1, level)];
    },
  },
  level: {
    value(this: LazyCell) {
      return this.mask.level;
    },
  },
  equals: {
    value(this: LazyCell, other: Cell) {
      return this.hash().equals(other.hash());
    },
  },
  _hashes: {
    get(this: LazyCell) {
      return wondersOf(this).hashes;
    },
  },
  _depths: {
    get(this: LazyCell) {
      return wondersOf(this).depths;
    },
  },
  [Symbol.for("nodejs.util.inspect.custom")]: {
    value(this: LazyCell) {
      return this.toString();
    },
  },
});

/** Every cell here is ordinary with ordinary descendants: level mask 0 (`wonderCalculator` agrees). */
const ZERO_MASK = internals === null ? null : Object.freeze(new internals.levelMask(0));

function lazyCell(bits: BitString, refs: Cell[]): Cell {
  const cell = Object.create(lazyPrototype) as { -readonly [K in keyof Cell]: Cell[K] };
  cell.type = CellType.Ordinary;
  cell.bits = bits;
  cell.refs = Object.freeze(refs) as Cell[];
  cell.mask = ZERO_MASK as Cell["mask"];
  return cell as Cell;
}

const BOC_MAGIC = 0xb5ee9c72;

/** Big-endian unsigned integer of `bytes` (1..4) bytes at `at`. */
function readUint(buf: Uint8Array, at: number, bytes: number): number {
  let v = 0;
  for (let i = 0; i < bytes; i++) v = v * 256 + (buf[at + i] as number);
  return v;
}

/** The root cell, or null when the BOC is not the plain case (the caller then uses @ton/core). */
function parsePlain(buf: Buffer): Cell | null {
  if (buf.length < 6 || readUint(buf, 0, 4) !== BOC_MAGIC) return null;
  const flags = buf[4] as number;
  const hasIdx = (flags & 0x80) !== 0;
  const hasCrc = (flags & 0x40) !== 0;
  const size = flags & 7;
  const offBytes = buf[5] as number;
  if (size < 1 || size > 4 || offBytes < 1 || offBytes > 4) return null;
  let at = 6;
  if (buf.length < at + 4 * size + offBytes) return null;
  const count = readUint(buf, at, size);
  const roots = readUint(buf, at + size, size);
  // absent (at + 2 * size) is read and ignored by @ton/core too
  const totalCellSize = readUint(buf, at + 3 * size, offBytes);
  at += 3 * size + offBytes;
  // More cells than 2^16 could make a depth @ton/core's eager hashing rejects (16-bit field): not plain.
  if (roots !== 1 || count < 1 || count > 0xffff) return null;
  const root = readUint(buf, at, size);
  at += size;
  if (hasIdx) at += count * offBytes;
  const dataStart = at;
  const dataEnd = dataStart + totalCellSize;
  if (dataEnd + (hasCrc ? 4 : 0) !== buf.length || root >= count) return null;
  if (hasCrc) {
    const crc = (internals as Internals).crc.crc32c(buf.subarray(0, dataEnd));
    if (!crc.equals(buf.subarray(dataEnd))) return null;
  }
  // Pass 1: where each cell's bits and refs are.
  const bitsAt = new Array<number>(count);
  const bitsLength = new Array<number>(count);
  const refsAt = new Array<number>(count);
  const refCount = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    if (at + 2 > dataEnd) return null;
    const d1 = buf[at] as number;
    const d2 = buf[at + 1] as number;
    // exotic (8) or with stored hashes (16): not the plain case; more than 4 refs is an error
    if ((d1 & 0x18) !== 0 || (d1 & 7) > 4) return null;
    const dataBytes = (d2 + 1) >> 1;
    const start = at + 2;
    at = start + dataBytes + (d1 & 7) * size;
    if (at > dataEnd) return null;
    let length = dataBytes * 8;
    if (d2 & 1) {
      // Padded: drop the trailing zeros and the 1 before them (their absence is @ton/core's case).
      let last = start + dataBytes - 1;
      while (last >= start && buf[last] === 0) last--;
      if (last < start) return null;
      const byte = buf[last] as number;
      length = (last - start) * 8 + 7 - (31 - Math.clz32(byte & -byte));
    }
    if (length > 1023) return null;
    bitsAt[i] = dataBytes === 0 ? -1 : start * 8;
    bitsLength[i] = length;
    refsAt[i] = start + dataBytes;
    refCount[i] = d1 & 7;
  }
  // Pass 2: children before parents, as @ton/core builds them (a ref must point forward).
  const cells = new Array<Cell>(count);
  for (let i = count - 1; i >= 0; i--) {
    const n = refCount[i] as number;
    const refs: Cell[] = new Array(n);
    for (let r = 0; r < n; r++) {
      const ref = readUint(buf, (refsAt[i] as number) + r * size, size);
      if (ref <= i || ref >= count) return null;
      refs[r] = cells[ref] as Cell;
    }
    const from = bitsAt[i] as number;
    // No data bytes: @ton/core's shared empty bit string.
    const bits = from < 0 ? BitString.EMPTY : new BitString(buf, from, bitsLength[i] as number);
    cells[i] = lazyCell(bits, refs);
  }
  return cells[root] as Cell;
}

/** `Cell.fromBase64(boc)`: the same cell (lazily hashed when the BOC is plain), or the same error. */
export function cellFromBase64(boc: string): Cell {
  if (internals !== null) {
    const cell = parsePlain(Buffer.from(boc, "base64"));
    if (cell !== null) return cell;
  }
  return Cell.fromBase64(boc);
}
