/**
 * `CellReader`: reads a cell's bits straight from its padded bytes (its FastCell's `data`), for the
 * contracts' body parsing. @ton/core's `Slice` reads through a `BitReader` one bit at a time (a bigint per
 * field, a bounds-checked `BitString.at` per bit) and needs a `Slice` and a `BitReader` object per parse;
 * on the devnet every message body is parsed once by its receiver.
 *
 * It has the subset of `Slice` that dex/codecs' decoders and the contracts' op peeks use (`readCell(cell)`
 * hands one out typed as a `Slice`): the same values, the same failures (plain `Error`s where @ton/core
 * throws them, `TypeError` where @ton/core's `loadUint` finds an unsafe integer) and the same cells for
 * refs. An anycast address, which the devnet never sends, is read by @ton/core's own `Slice`.
 * test/unit/ingest/devnet/cell-reader.test.ts compares both on random cells and every codec's bodies.
 */
import { Address, type Cell, type Slice, TupleReader } from "@ton/core";
import { CellWriter } from "./cell-writer.ts";
import { type AnyCell, FastCell, fastOf, toTonCell } from "./fast-cell.ts";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Workchain byte and hash of the address being read. */
const ADDRESS_KEY = Buffer.alloc(33);

/**
 * One Address object per std address read (Address objects are immutable): a body names the same few
 * hundred contracts and actors over and over, and a shared object also hits the per-Address caches of the
 * chain and the record builder. Bounded by the devnet's distinct addresses.
 *
 * An open-addressing table, at most half full, slotted by the hash's first four bytes (the hash of the
 * account's StateInit, so evenly spread) and checked byte by byte: no key string and no Map lookup per
 * address read.
 */
let internTable: (Address | undefined)[] = new Array(1024).fill(undefined);
let interned = 0;

const slotOf = (h: Uint8Array, at: number, mask: number): number =>
  ((h[at]! << 24) | (h[at + 1]! << 16) | (h[at + 2]! << 8) | h[at + 3]!) & mask;

/** The interned Address whose workchain byte and hash are `key`'s 33 bytes, added if new. */
function internAddress(key: Uint8Array): Address {
  const wc = key[0]! >= 128 ? key[0]! - 256 : key[0]!;
  const mask = internTable.length - 1;
  let slot = slotOf(key, 1, mask);
  for (let entry = internTable[slot]; entry !== undefined; entry = internTable[slot]) {
    if (entry.workChain === wc && sameHash(entry.hash, key)) return entry;
    slot = (slot + 1) & mask;
  }
  const address = new Address(wc, Buffer.from(key.subarray(1, 33)));
  internTable[slot] = address;
  if (2 * ++interned > internTable.length) {
    const old = internTable;
    internTable = new Array(2 * old.length).fill(undefined);
    for (const a of old) if (a !== undefined) place(a);
  }
  return address;
}

function place(address: Address): void {
  const mask = internTable.length - 1;
  let slot = slotOf(address.hash, 0, mask);
  while (internTable[slot] !== undefined) slot = (slot + 1) & mask;
  internTable[slot] = address;
}

/** Whether `hash` (32 bytes) equals bytes 1..32 of `key`. */
function sameHash(hash: Uint8Array, key: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (hash[i] !== key[i + 1]) return false;
  return true;
}

/** The empty cell `asCell` returns for an empty remainder (cells are immutable). */
let EMPTY: Cell | undefined;

export class CellReader {
  readonly #cell: FastCell;
  readonly #data: Uint8Array;
  readonly #bits: number;
  #offset = 0;
  #ref = 0;

  constructor(cell: AnyCell) {
    // The FastCell standing for a @ton/core cell (the one behind a `toTonCell` view, or one made from its
    // bits once): its bytes and refs are read as they are, without a view materialising a BitString and a
    // refs array per body. An exotic cell has none and is refused, as @ton/core's `beginParse` refuses it.
    const fast = cell instanceof FastCell ? cell : fastOf(cell);
    if (fast === null) throw new Error("Exotic cells cannot be parsed");
    this.#cell = fast;
    this.#data = fast.data;
    this.#bits = fast.bits;
  }

  get remainingBits(): number {
    return this.#bits - this.#offset;
  }

  get remainingRefs(): number {
    return this.#cell.refs.length - this.#ref;
  }

  /**
   * Throws as `BitString.at` does when bits [offset, offset + bits) are not all inside the cell (the offset
   * goes negative after a negative-width read, as @ton/core's does).
   */
  #check(offset: number, bits: number): void {
    if (offset + bits > this.#bits || offset < 0) {
      throw new Error(`Index ${offset} (${bits} bits) is out of bounds of ${this.#bits}`);
    }
  }

  /** `bits` (0..53) bits at `offset` as a number, bounds already checked. */
  #read(offset: number, bits: number): number {
    const data = this.#data;
    let value = 0;
    let at = offset >> 3;
    let avail = 8 - (offset & 7);
    let left = bits;
    while (left > 0) {
      const take = left < avail ? left : avail;
      // Multiplication, not a shift: the value may pass 32 bits.
      value = value * (1 << take) + ((data[at]! >> (avail - take)) & ((1 << take) - 1));
      left -= take;
      avail = 8;
      at++;
    }
    return value;
  }

  /** `bits` unsigned bits at `offset` as a bigint, bounds already checked. */
  #readBig(offset: number, bits: number): bigint {
    if (bits <= 53) return BigInt(this.#read(offset, bits));
    const head = bits % 32 || 32;
    let value = BigInt(this.#read(offset, head));
    for (let at = offset + head; at < offset + bits; at += 32) {
      value = (value << 32n) | BigInt(this.#read(at, 32));
    }
    return value;
  }

  loadBit(): boolean {
    this.#check(this.#offset, 1);
    const offset = this.#offset++;
    return (this.#data[offset >> 3]! & (0x80 >> (offset & 7))) !== 0;
  }

  skip(bits: number): this {
    if (bits < 0 || this.#offset + bits > this.#bits)
      throw new Error(`Index ${this.#offset + bits} is out of bounds`);
    this.#offset += bits;
    return this;
  }

  preloadUintBig(bits: number): bigint {
    if (bits <= 0) return 0n; // @ton/core reads nothing (no bounds check) for 0 bits
    this.#check(this.#offset, bits);
    return this.#readBig(this.#offset, bits);
  }

  loadUintBig(bits: number): bigint {
    const value = this.preloadUintBig(bits);
    this.#offset += bits;
    return value;
  }

  preloadUint(bits: number): number {
    if (bits <= 0) return 0;
    this.#check(this.#offset, bits);
    if (bits <= 53) return this.#read(this.#offset, bits);
    return safeNumber(this.#readBig(this.#offset, bits), "preloadUintBig");
  }

  loadUint(bits: number): number {
    if (bits <= 0) {
      this.#offset += bits;
      return 0;
    }
    this.#check(this.#offset, bits);
    const value =
      bits <= 53
        ? this.#read(this.#offset, bits)
        : safeNumber(this.#readBig(this.#offset, bits), "loadUintBig");
    this.#offset += bits;
    return value;
  }

  /** `VarUInteger 16`: a 4-bit byte length, then the value. */
  loadCoins(): bigint {
    const bytes = this.loadUint(4);
    return this.loadUintBig(bytes * 8);
  }

  loadAddress(): Address {
    this.#check(this.#offset, 2);
    const type = this.#read(this.#offset, 2);
    if (type !== 2) throw new Error(`Invalid address: ${type}`);
    return this.#internalAddress();
  }

  loadMaybeAddress(): Address | null {
    this.#check(this.#offset, 2);
    const type = this.#read(this.#offset, 2);
    if (type === 0) {
      this.#offset += 2;
      return null;
    }
    if (type !== 2) throw new Error("Invalid address");
    return this.#internalAddress();
  }

  /** `addr_std` (type bits already checked): anycast bit, int8 workchain, 256-bit hash. */
  #internalAddress(): Address {
    const offset = this.#offset;
    this.#check(offset + 2, 1);
    if (this.#read(offset + 2, 1) !== 0) return this.#viaTonCore((s) => s.loadMaybeAddress()!);
    this.#check(offset + 3, 264);
    const key = ADDRESS_KEY;
    key[0] = this.#read(offset + 3, 8);
    const data = this.#data;
    const start = offset + 11;
    const at = start >> 3;
    const shift = start & 7;
    if (shift === 0) {
      for (let i = 0; i < 32; i++) key[1 + i] = data[at + i]!;
    } else {
      for (let i = 0; i < 32; i++) {
        key[1 + i] = ((data[at + i]! << shift) | (data[at + i + 1]! >> (8 - shift))) & 0xff;
      }
    }
    this.#offset = offset + 267;
    return internAddress(key);
  }

  /** Runs `f` on a @ton/core Slice at this reader's position and takes over the position it leaves. */
  #viaTonCore<T>(f: (s: Slice) => T): T {
    const s = toTonCell(this.#cell).beginParse();
    s.skip(this.#offset);
    for (let i = 0; i < this.#ref; i++) s.loadRef();
    const value = f(s);
    this.#offset = s.offsetBits;
    this.#ref = s.offsetRefs;
    return value;
  }

  loadRef(): Cell {
    const refs = this.#cell.refs;
    if (this.#ref >= refs.length) throw new Error("No more references");
    return toTonCell(refs[this.#ref++]!);
  }

  loadMaybeRef(): Cell | null {
    return this.loadBit() ? this.loadRef() : null;
  }

  /** The remaining bits and refs as a cell (`beginCell().storeSlice(this).endCell()`); nothing is consumed. */
  asCell(): Cell {
    // Mostly an empty remainder (no inline forward payload): one shared empty cell.
    if (this.#offset === this.#bits && this.#ref === this.#cell.refs.length) {
      EMPTY ??= toTonCell(new CellWriter().end());
      return EMPTY;
    }
    if (this.#offset < 0) throw new Error(`Offset ${this.#offset} is out of bounds`);
    const w = new CellWriter();
    for (let at = this.#offset; at < this.#bits; at += 32) {
      const n = this.#bits - at < 32 ? this.#bits - at : 32;
      w.uint(this.#read(at, n), n);
    }
    const refs = this.#cell.refs;
    for (let i = this.#ref; i < refs.length; i++) w.ref(refs[i]!);
    return toTonCell(w.end());
  }
}

function safeNumber(value: bigint, alternative: string): number {
  if (value > MAX_SAFE)
    throw new TypeError(`${value} is out of safe integer range. Use ${alternative} instead`);
  return Number(value);
}

/** `cell.beginParse()` for dex/codecs decoders and op peeks: a `CellReader` (see the module comment). */
export function readCell(cell: Cell): Slice {
  return new CellReader(cell) as unknown as Slice;
}

/** `cell.beginParse().preloadUint(32)`: the first 32 bits, failing as @ton/core does on a shorter cell. */
export function preloadOp(cell: Cell): number {
  return new CellReader(cell).preloadUint(32);
}

/**
 * A `TupleReader` for get-method results that reads addresses with `CellReader`: the same Address object
 * per address as bodies get, so an address the market or the SDK learns from a get-method hits the
 * per-Address caches of the chain, the records and the contracts instead of adding an entry to each.
 * Values and failures are @ton/core's (test/unit/ingest/devnet/cell-reader.test.ts).
 */
export class DevnetTupleReader extends TupleReader {
  override readAddress(): Address {
    return new CellReader(this.readCell()).loadAddress();
  }

  override readAddressOpt(): Address | null {
    const cell = this.readCellOpt();
    return cell === null ? null : new CellReader(cell).loadMaybeAddress();
  }
}
