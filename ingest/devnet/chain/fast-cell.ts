/**
 * A lightweight cell for the cells the chain core builds itself (messages, transactions, state stand-ins).
 *
 * @ton/core's `Cell` constructor hashes eagerly through a bit-by-bit path (`bitsToPaddedBuffer` writes one
 * bit at a time), and its `BitBuilder` writes bigints byte by byte; on the devnet that was most of the CPU
 * time. A `FastCell` keeps its data as padded bytes (TVM's standard representation: the completion tag is
 * already applied), and computes the representation hash of the TVM spec
 * (https://docs.ton.org/v3/documentation/data-formats/tlb/cell-boc#cell-hash) once, with node:crypto.
 * Only ordinary cells of level 0 are built here; @ton/core cells (message bodies, contract states) can be
 * referenced and appended as they are, so rare layouts can still fall back to @ton/core.
 * test/unit/ingest/devnet/fast-cell.test.ts checks hashes, depths and BOCs against @ton/core on random trees.
 */
import { BitReader, BitString, Cell, type CellType, Slice } from "@ton/core";

export class FastCell {
  #hash: Buffer | undefined;
  /** The @ton/core Cell `toTonCell` made from this cell (kept here rather than in a WeakMap). */
  ton: Cell | undefined = undefined;
  /** This cell's BOC in base64, once ./record.ts wrote it (a body forwarded unchanged is written once). */
  boc64: string | undefined = undefined;
  /**
   * When every cell of this tree has at most one ref (a chain), its cell count, else -1; 0 = not known yet.
   * A chain's cells are all distinct (a cell cannot contain a content-equal cell: depths strictly fall), so
   * this is its distinct-cell count. See `chainSize`.
   */
  chainCells = 0;
  /** The total bits of the chain counted in `chainCells`. */
  chainBits = 0;
  constructor(
    /** ceil(bits / 8) bytes, the completion tag set when `bits` is not a multiple of 8. */
    readonly data: Uint8Array,
    readonly bits: number,
    readonly refs: readonly AnyCell[],
    /**
     * The representation hash (level 0) as a latin1 string: the form the BOC writer and size counting
     * deduplicate by, and a heap string rather than a Buffer (fewer ArrayBuffers for the GC to track).
     */
    readonly key: string,
    readonly depth: number,
  ) {}

  /** The representation hash as bytes (made on first use). */
  get hash(): Buffer {
    this.#hash ??= Buffer.from(this.key, "latin1");
    return this.#hash;
  }
}

export type AnyCell = FastCell | Cell;

/** Scratch for `keyBytes`. */
const KEY_BYTES = Buffer.alloc(32);

/**
 * The 32 bytes of a hash key, in a scratch buffer that the next call overwrites (so write them at once):
 * a hash copied into a cell or turned into hex without a Buffer per hash.
 */
export function keyBytes(key: string): Buffer {
  KEY_BYTES.write(key, 0, 32, "latin1");
  return KEY_BYTES;
}

/** A hash key as hex (`cell.hash.toString("hex")` without a Buffer per call). */
export const hexOfKey = (key: string): string => keyBytes(key).toString("hex");

/**
 * The FastCell standing for an ordinary @ton/core cell: the one `toTonCell` converted it from, or one built
 * from its bits on first use (padded bytes, hash key, depth; its refs stay @ton/core cells). Content-equal,
 * so it hashes, counts and serialises the same, and the BOC writer and `keyOf`/`dataOf` take one lookup
 * per @ton/core cell instead of a padded copy and a hash string each.
 */
const fastOfTon = new WeakMap<Cell, FastCell>();
/** Exotic @ton/core cells (no FastCell stands for them): their padded bytes and hash key. */
const tonData = new WeakMap<Cell, Uint8Array>();
const tonKeys = new WeakMap<Cell, string>();

/** `fastOfTon` for an ordinary cell, null for an exotic one (d1 and the hash differ; see `tonHash`). */
export function fastOf(c: Cell): FastCell | null {
  const view: unknown = c;
  if (view instanceof TonView) return view.fast;
  let fast = fastOfTon.get(c);
  if (fast === undefined) {
    if (c.isExotic) return null;
    fast = new FastCell(paddedBytes(c), c.bits.length, c.refs, tonHash(c).toString("latin1"), c.depth(0));
    fastOfTon.set(c, fast);
  }
  return fast;
}

/**
 * A @ton/core cell taken over as a `toTonCell` view of a FastCell tree (every ordinary cell of it converted
 * once, exotic ones kept): for cells from outside the chain core, such as the SDK's message bodies, which
 * the chain then sizes, serialises and parses many times. Unlike `fastOf`, it leaves no WeakMap entry per
 * cell (weak-map entries are what the young-generation GC pays most for); the result is content-equal.
 */
export function adoptCell(cell: Cell): Cell {
  const fast = adoptTree(cell);
  return fast === null ? cell : toTonCell(fast);
}

function adoptTree(cell: Cell): FastCell | null {
  const view: unknown = cell;
  if (view instanceof TonView) return view.fast;
  if (cell.isExotic) return null;
  const refs = cell.refs.map((r) => adoptTree(r) ?? r);
  return new FastCell(
    paddedBytes(cell),
    cell.bits.length,
    refs,
    tonHash(cell).toString("latin1"),
    cell.depth(0),
  );
}

/** A @ton/core cell's level-0 hash; cells of a higher level (pruned branches inside) are not modelled. */
function tonHash(cell: Cell): Buffer {
  if (cell.mask.value !== 0) throw new Error("the devnet does not serialise cells of level > 0");
  return cell.hash(0);
}

export const hashOf = (c: AnyCell): Buffer => (c instanceof FastCell ? c.hash : tonHash(c));
export const depthOf = (c: AnyCell): number => (c instanceof FastCell ? c.depth : c.depth(0));
/** Bits of any cell; a `toTonCell` view answers from its FastCell (its `bits` getter would build a BitString). */
export function bitsOf(c: AnyCell): number {
  if (c instanceof FastCell) return c.bits;
  const view: unknown = c;
  return view instanceof TonView ? view.fast.bits : c.bits.length;
}

/** Refs of any cell, counted; as `bitsOf`, without a view building its refs array. */
export function refCountOf(c: AnyCell): number {
  const view: unknown = c;
  return view instanceof TonView ? view.fast.refs.length : c.refs.length;
}

export function keyOf(c: AnyCell): string {
  if (c instanceof FastCell) return c.key;
  const fast = fastOf(c);
  if (fast !== null) return fast.key;
  let key = tonKeys.get(c);
  if (key === undefined) {
    key = tonHash(c).toString("latin1");
    tonKeys.set(c, key);
  }
  return key;
}

/** Padded data bytes of any cell (cached per immutable @ton/core cell). */
export function dataOf(c: AnyCell): Uint8Array {
  if (c instanceof FastCell) return c.data;
  const fast = fastOf(c);
  if (fast !== null) return fast.data;
  let data = tonData.get(c);
  if (data === undefined) {
    data = paddedBytes(c);
    tonData.set(c, data);
  }
  return data;
}

function paddedBytes(cell: Cell): Uint8Array {
  const { bits } = cell;
  const length = bits.length;
  const whole = length >> 3;
  const out = new Uint8Array((length + 7) >> 3);
  const aligned = whole > 0 ? bits.subbuffer(0, whole * 8) : null;
  if (aligned !== null) out.set(aligned);
  else for (let i = 0; i < whole * 8; i++) if (bits.at(i)) out[i >> 3]! |= 0x80 >> (i & 7);
  const rest = length & 7;
  if (rest > 0) {
    let last = 0;
    for (let i = 0; i < rest; i++) if (bits.at(whole * 8 + i)) last |= 0x80 >> i;
    out[whole] = last | (0x80 >> rest);
  }
  return out;
}

/** d1 of the standard representation: refs count, +8 for exotic cells (level 0 only, see `tonHash`). */
export function descriptor1(c: AnyCell): number {
  return c instanceof FastCell ? c.refs.length : c.refs.length + (c.isExotic ? 8 : 0);
}

/** d2: ceil(bits / 8) + floor(bits / 8). */
export const descriptor2 = (bits: number): number => ((bits + 7) >> 3) + (bits >> 3);

/**
 * The FastCell standing for `c` with `chainCells`/`chainBits` worked out (memoised per FastCell), or null
 * when `c`'s tree is not a chain (some cell has two refs or more, or is exotic): then only a walk with a
 * set of hashes counts its distinct cells.
 */
export function chainSize(c: AnyCell): FastCell | null {
  const fast = c instanceof FastCell ? c : fastOf(c);
  if (fast === null) return null;
  if (fast.chainCells === 0) {
    const refs = fast.refs;
    const below = refs.length === 0 ? null : refs.length === 1 ? chainSize(refs[0]!) : undefined;
    if (below === undefined || (refs.length === 1 && below === null)) fast.chainCells = -1;
    else {
      fast.chainCells = 1 + (below?.chainCells ?? 0);
      fast.chainBits = fast.bits + (below?.chainBits ?? 0);
    }
  }
  return fast.chainCells > 0 ? fast : null;
}

/** Distinct cells and bits of a cell tree, as TON counts message sizes (`StorageUsed`). */
export function treeSize(root: AnyCell): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  const stack: AnyCell[] = [root];
  let bits = 0;
  // Depth-first; only the set of distinct cells matters, not the order.
  while (stack.length > 0) {
    const c = stack.pop()!;
    const key = keyOf(c);
    if (seen.has(key)) continue;
    seen.add(key);
    bits += bitsOf(c);
    for (const r of c.refs) stack.push(r);
  }
  return { cells: BigInt(seen.size), bits: BigInt(bits) };
}

/**
 * The same cell as a @ton/core `Cell`, for code that parses it or hands it to @ton/core (message bodies,
 * StateInit data, get-method stacks): a `TonView` (below), made once per FastCell.
 */
export function toTonCell(c: AnyCell): Cell {
  if (!(c instanceof FastCell)) return c;
  let cell = c.ton;
  if (cell === undefined) {
    cell = new TonView(c) as unknown as Cell;
    c.ton = cell;
  }
  return cell;
}

/** @ton/core's level mask of an ordinary level-0 cell (immutable, so one object serves every view). */
const LEVEL_0 = Cell.EMPTY.mask;
const ORDINARY = Cell.EMPTY.type;

/**
 * A @ton/core `Cell` standing for a FastCell, without running @ton/core's constructor: that copies the
 * bits, hashes them again, converts every ref and makes six closures and four arrays per cell, while most
 * of the devnet's bodies are only ever read through their FastCell (./cell-reader.ts, ./boc.ts). The view
 * inherits `Cell.prototype` (so `instanceof Cell`, `isExotic`, `toBoc`, `toString`, `asSlice` and
 * `asBuilder` are @ton/core's own) and makes `bits` and `refs` on first use. A FastCell is an ordinary
 * cell of level 0: its hash and depth are those of every level. test/unit/ingest/devnet/fast-cell.test.ts
 * compares views with @ton/core's own cells.
 */
class TonView {
  #bits: BitString | undefined = undefined;
  #refs: readonly Cell[] | undefined = undefined;
  constructor(readonly fast: FastCell) {}

  get type(): CellType {
    return ORDINARY;
  }

  get mask(): Cell["mask"] {
    return LEVEL_0;
  }

  get bits(): BitString {
    if (this.#bits === undefined) {
      const fast = this.fast;
      const bytes = Buffer.from(fast.data);
      if (fast.bits & 7) bytes[bytes.length - 1]! &= ~(0x80 >> (fast.bits & 7)); // drop the completion tag
      const bits = new BitString(bytes, 0, fast.bits);
      Object.freeze(bits);
      this.#bits = bits;
    }
    return this.#bits;
  }

  get refs(): Cell[] {
    this.#refs ??= Object.freeze(this.fast.refs.map(toTonCell));
    return this.#refs as Cell[];
  }

  /** @ton/core's per-level arrays, for code that reads them directly. */
  get _hashes(): Buffer[] {
    const h = this.fast.hash;
    return [h, h, h, h];
  }

  get _depths(): number[] {
    const d = this.fast.depth;
    return [d, d, d, d];
  }

  beginParse(allowExotic = false): Slice {
    void allowExotic; // an ordinary cell parses either way
    return new Slice(new BitReader(this.bits), this.refs);
  }

  hash(_level = 3): Buffer {
    return this.fast.hash;
  }

  depth(_level = 3): number {
    return this.fast.depth;
  }

  level(): number {
    return 0;
  }

  equals(other: Cell): boolean {
    return this.fast.hash.equals(other.hash());
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return (this as unknown as Cell).toString();
  }
}
Object.setPrototypeOf(TonView.prototype, Cell.prototype);
