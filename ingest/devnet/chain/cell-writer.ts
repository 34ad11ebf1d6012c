/**
 * `CellWriter`: builds FastCells (./fast-cell.ts) from bytes instead of bits. Values are written a whole
 * byte chunk at a time into a recycled buffer that already has room for the standard representation, so
 * `end()` hashes in place. It checks what @ton/core's Builder checks (1023 bits, 4 refs, value ranges) and
 * throws plain Errors as it does. `CellBuilder` is the Builder subset storage layouts use, so one layout
 * function can build a @ton/core Cell (`beginCell`) or a FastCell (`beginFast`).
 */
import { hash as nodeHash } from "node:crypto";
import { Address, type BitString, type Builder, type Cell, ExternalAddress, type Slice } from "@ton/core";
import { POW2 } from "../../../infra/pow2.ts";
import { type AnyCell, depthOf, descriptor2, FastCell, fastOf, hashOf, toTonCell } from "./fast-cell.ts";

const MAX_BITS = 1023;
const TWO_32 = 2 ** 32;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Value of a hex digit by char code (0-9, a-f; `bigint.toString(16)` writes lower case). */
const NIBBLE = (() => {
  const t = new Uint8Array(128);
  for (let d = 0; d < 16; d++) t["0123456789abcdef".charCodeAt(d)] = d;
  return t;
})();

/** Digit `j` of `hex` left-padded with `pad` zeros (a function, not a closure per call: this runs per wide value). */
const nibble = (hex: string, pad: number, j: number): number =>
  j < pad ? 0 : NIBBLE[hex.charCodeAt(j - pad)]!;

/**
 * Scratch buffers for writers, recycled on `end()`: each holds the standard representation being built
 * (d1, d2, up to 128 data bytes, then up to 4 × (2-byte depth + 32-byte hash)), so the hash is taken
 * in place and only the data bytes are copied out. Allocating a fresh 266-byte array per cell was a
 * large share of the devnet's garbage-collection time.
 */
const REPR_BYTES = 2 + 128 + 4 * 34;
type Scratch = {
  bytes: Uint8Array;
  /** `bytes.subarray(0, n)` per length n, made once: the hash input without a view object per cell. */
  prefixes: Uint8Array[];
  views: Uint8Array[];
  /**
   * The refs being added (null past `refCount`): the finished cell gets an array of exactly its refs,
   * where growing an empty array by `push` gave every cell room for 16.
   */
  refs: (AnyCell | null)[];
};
const scratch: Scratch[] = [];
/** The refs of every cell without refs (`FastCell.refs` is read-only). */
const NO_REFS: readonly AnyCell[] = Object.freeze([]);

const newScratch = (): Scratch => ({
  bytes: new Uint8Array(REPR_BYTES),
  prefixes: [],
  views: [],
  refs: [null, null, null, null],
});

/** `bytes.subarray(2, 2 + size)` per size, made once: the data bytes. */
function dataView(s: Scratch, size: number): Uint8Array {
  let view = s.views[size];
  if (view === undefined) {
    view = s.bytes.subarray(2, 2 + size);
    s.views[size] = view;
  }
  return view;
}

function prefix(s: Scratch, length: number): Uint8Array {
  let view = s.prefixes[length];
  if (view === undefined) {
    view = s.bytes.subarray(0, length);
    s.prefixes[length] = view;
  }
  return view;
}

/**
 * Cell data bytes are carved out of shared 8 KiB slabs (as Node's Buffer pool does): a view per cell
 * instead of an ArrayBuffer per cell. A slab lives as long as any cell in it.
 */
const SLAB_BYTES = 8192;
/** V8's `typed_array_max_size_in_heap`. */
const ON_HEAP_BYTES = 64;
let slab = new Uint8Array(SLAB_BYTES);
let slabUsed = 0;

function carve(size: number): Uint8Array {
  // Up to 64 bytes V8 keeps a typed array's bytes inside the object on the JS heap: cheaper to make than
  // a view of a slab, and freed with it.
  if (size <= ON_HEAP_BYTES) return new Uint8Array(size);
  if (slabUsed + size > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  const view = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += size;
  return view;
}

/** Builds one ordinary cell; the same checks as @ton/core's Builder (1023 bits, 4 refs, value ranges). */
export class CellWriter {
  /** Data bits start at byte 2 of this buffer (after the two descriptor bytes). */
  #scratch: Scratch = scratch.pop() ?? newScratch();
  #buf = this.#scratch.bytes;
  #len = 0;
  #refCount = 0;

  get bits(): number {
    return this.#len;
  }

  get refCount(): number {
    return this.#refCount;
  }

  /**
   * Writes the low `bits` (≤ 32) bits of `value`, most significant first: the first byte ORed in (it may
   * hold earlier bits), the following ones assigned (the scratch is zero past the written bits).
   */
  #put(value: number, bits: number): void {
    const len = this.#len;
    if (len + bits > MAX_BITS) throw new Error("cell overflow: more than 1023 bits");
    if (bits < 32) value &= (1 << bits) - 1;
    else value >>>= 0;
    const buf = this.#buf;
    let at = 2 + (len >> 3);
    const free = 8 - (len & 7);
    this.#len = len + bits;
    if (bits <= free) {
      buf[at] = buf[at]! | (value << (free - bits));
      return;
    }
    let rest = bits - free;
    buf[at] = buf[at]! | (value >>> rest);
    at++;
    while (rest >= 8) {
      rest -= 8;
      buf[at++] = (value >>> rest) & 0xff;
    }
    if (rest > 0) buf[at] = (value << (8 - rest)) & 0xff;
  }

  bit(value: boolean | number): this {
    this.#put(value === true || (typeof value === "number" && value > 0) ? 1 : 0, 1);
    return this;
  }

  /** Unsigned integer given as a safe `number`. */
  uint(value: number, bits: number): this {
    if (!(value >= 0 && (bits >= 53 || value < POW2[bits]!)) || !Number.isSafeInteger(value)) {
      throw new RangeError(`${value} does not fit in uint${bits}`);
    }
    if (bits <= 32) {
      this.#put(value, bits);
      return this;
    }
    // Wider than 64 bits: leading zeros, then the value's 64 bits (a safe integer fits in 53).
    for (let zeros = bits - 64; zeros > 0; zeros -= 32) this.#put(0, zeros < 32 ? zeros : 32);
    const high = bits > 64 ? 32 : bits - 32;
    this.#put(Math.floor(value / TWO_32), high);
    this.#put(value >>> 0, 32);
    return this;
  }

  /** Signed integer (two's complement) given as a `number`, up to 32 bits. */
  int(value: number, bits: number): this {
    // Half the range: 2^(bits - 1), and 1/2 for a zero-width field (which holds only 0).
    const half = bits > 0 ? POW2[bits - 1]! : 0.5;
    if (bits > 32 || value < -half || value >= half || !Number.isInteger(value)) {
      throw new RangeError(`${value} does not fit in int${bits}`);
    }
    this.#put(bits === 32 ? value >>> 0 : value & ((1 << bits) - 1), bits);
    return this;
  }

  /** Unsigned integer of any width given as a bigint. */
  big(value: bigint, bits: number): this {
    // Most wide fields hold small numbers (lt, coins): `uint` checks the range as numbers.
    if (value >= 0n && value <= MAX_SAFE) return this.uint(Number(value), bits);
    if (value < 0n || value >> BigInt(bits) !== 0n)
      throw new RangeError(`${value} does not fit in uint${bits}`);
    if ((bits & 7) === 0) return this.#hexBytes(value.toString(16), bits >> 3);
    let rest = bits;
    const head = rest % 32 || 32;
    this.#put(Number(value >> BigInt(rest - head)), head);
    rest -= head;
    while (rest > 0) {
      rest -= 32;
      this.#put(Number((value >> BigInt(rest)) & 0xffffffffn), 32);
    }
    return this;
  }

  /**
   * `bytes` big-endian bytes whose hex digits are `hex` (no sign, at most 2 × bytes digits), zero-padded
   * on the left: byte-sized fields (hashes) without a padded string and a Buffer per value.
   */
  #hexBytes(hex: string, bytes: number): this {
    if (this.#len + bytes * 8 > MAX_BITS) throw new Error("cell overflow: more than 1023 bits");
    // Digit j of the padded value is hex[j - pad], or 0 when j < pad.
    const pad = 2 * bytes - hex.length;
    if ((this.#len & 7) === 0) {
      const buf = this.#buf;
      const at = 2 + (this.#len >> 3);
      for (let i = 0; i < bytes; i++)
        buf[at + i] = (nibble(hex, pad, 2 * i) << 4) | nibble(hex, pad, 2 * i + 1);
      this.#len += bytes * 8;
    } else {
      for (let i = 0; i < bytes; i++)
        this.#put((nibble(hex, pad, 2 * i) << 4) | nibble(hex, pad, 2 * i + 1), 8);
    }
    return this;
  }

  /** A 256-bit unsigned integer given as a bigint or as its 32 big-endian bytes (a hash). */
  hash256(value: bigint | Uint8Array): this {
    if (typeof value === "bigint") return this.big(value, 256);
    if (value.length !== 32) throw new RangeError(`a 256-bit hash has 32 bytes, not ${value.length}`);
    return this.bytes(value);
  }

  /** `VarUInteger n`: a `headerBits`-bit byte length, then the value (`coins` is headerBits = 4). */
  varUint(value: bigint, headerBits: number): this {
    if (value < 0n) throw new RangeError(`negative VarUInteger ${value}`);
    if (value === 0n) {
      this.#put(0, headerBits);
      return this;
    }
    // Byte length of the value; coins are mostly safe integers, measured and written without bigints.
    let bytes = 0;
    if (value <= MAX_SAFE) {
      const n = Number(value);
      if (n < TWO_32) {
        // Up to 4 bytes (most fees and many amounts): sized by comparison, written by one `#put`.
        bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
        if (bytes >= POW2[headerBits]!) throw new RangeError(`${value} does not fit in VarUInteger`);
        this.#put(bytes, headerBits);
        this.#put(n, bytes * 8);
        return this;
      }
      for (let m = n; m >= 1; m = Math.floor(m / 256)) bytes++;
      if (bytes >= POW2[headerBits]!) throw new RangeError(`${value} does not fit in VarUInteger`);
      this.#put(bytes, headerBits);
      return this.uint(n, bytes * 8);
    }
    bytes = (value.toString(16).length + 1) >> 1;
    if (bytes >= POW2[headerBits]!) throw new RangeError(`${value} does not fit in VarUInteger`);
    this.#put(bytes, headerBits);
    return this.big(value, bytes * 8);
  }

  coins(value: bigint): this {
    return this.varUint(value, 4);
  }

  /** `MsgAddress`: addr_none, addr_std without anycast, or addr_extern. */
  address(address: Address | ExternalAddress | null | undefined): this {
    if (address === null || address === undefined) this.#put(0, 2);
    else if (Address.isAddress(address)) {
      this.#put(0b100, 3);
      this.int(address.workChain, 8);
      this.bytes(address.hash);
    } else if (ExternalAddress.isAddress(address)) {
      this.#put(1, 2);
      this.uint(address.bits, 9);
      this.big(address.value, address.bits);
    } else {
      throw new TypeError(`invalid address ${String(address)}`);
    }
    return this;
  }

  bytes(src: Uint8Array): this {
    if ((this.#len & 7) === 0) {
      if (this.#len + src.length * 8 > MAX_BITS) throw new Error("cell overflow: more than 1023 bits");
      this.#buf.set(src, 2 + (this.#len >> 3));
      this.#len += src.length * 8;
    } else {
      if (this.#len + src.length * 8 > MAX_BITS) throw new Error("cell overflow: more than 1023 bits");
      // Each byte: its high bits complete the current byte, its low bits start the next one (carried).
      const buf = this.#buf;
      const shift = this.#len & 7;
      const back = 8 - shift;
      const at = 2 + (this.#len >> 3);
      const n = src.length;
      let carry = buf[at]!;
      for (let i = 0; i < n; i++) {
        const byte = src[i]!;
        buf[at + i] = carry | (byte >> shift);
        carry = (byte << back) & 0xff;
      }
      buf[at + n] = carry;
      this.#len += src.length * 8;
    }
    return this;
  }

  ref(cell: AnyCell): this {
    if (this.#refCount >= 4) throw new Error("cell overflow: more than 4 references");
    this.#scratch.refs[this.#refCount++] = cell;
    return this;
  }

  maybeRef(cell: AnyCell | null | undefined): this {
    if (cell) return this.bit(1).ref(cell);
    return this.bit(0);
  }

  /** Appends a whole cell's bits and refs (@ton/core's `storeSlice(cell.beginParse())`). */
  append(cell: AnyCell): this {
    // Read from the FastCell standing for the cell (content-equal refs, so the same result), which spares
    // a `toTonCell` view its BitString and refs array; an exotic cell has none.
    const fast = cell instanceof FastCell ? cell : fastOf(cell);
    if (fast === null) throw new Error("exotic cells cannot be parsed");
    const { data, bits } = fast;
    const whole = bits >> 3;
    for (let i = 0; i < whole; i++) this.#put(data[i]!, 8);
    const rest = bits & 7;
    if (rest > 0) this.#put(data[whole]! >> (8 - rest), rest);
    for (const r of fast.refs) this.ref(r);
    return this;
  }

  // The subset of @ton/core's Builder API that storage layouts use (see `CellBuilder`).
  storeBit(value: boolean | number): this {
    return this.bit(value);
  }

  storeUint(value: bigint | number, bits: number): this {
    return typeof value === "bigint" ? this.big(value, bits) : this.uint(value, bits);
  }

  storeCoins(value: bigint | number): this {
    return this.coins(BigInt(value));
  }

  storeAddress(address: Address | ExternalAddress | null | undefined): this {
    return this.address(address);
  }

  storeRef(cell: AnyCell): this {
    return this.ref(cell);
  }

  /** @ton/core's `store(writer)`: runs a `storeX(x)` writer on this builder. */
  store(writer: (b: Builder) => void): this {
    writer(this as unknown as Builder);
    return this;
  }

  storeMaybeRef(cell: AnyCell | null | undefined): this {
    return this.maybeRef(cell);
  }

  storeBits(src: BitString): this {
    const length = src.length;
    const whole = length >> 3;
    const aligned = whole > 0 ? src.subbuffer(0, whole * 8) : null;
    if (aligned !== null) this.bytes(aligned);
    else for (let i = 0; i < whole * 8; i++) this.#put(src.at(i) ? 1 : 0, 1);
    for (let i = whole * 8; i < length; i++) this.#put(src.at(i) ? 1 : 0, 1);
    return this;
  }

  /** The slice's remaining bits and refs; like @ton/core's `storeSlice`, the slice itself is not consumed. */
  storeSlice(src: Slice): this {
    const s = src.clone();
    if (s.remainingBits > 0) this.storeBits(s.loadBits(s.remainingBits));
    while (s.remainingRefs > 0) this.ref(s.loadRef());
    return this;
  }

  endCell(): FastCell {
    return this.end();
  }

  /** Completes the cell (a writer is used once). */
  end(): FastCell {
    const buf = this.#buf;
    if (buf === EMPTY_SCRATCH) throw new Error("a CellWriter completes one cell only");
    const len = this.#len;
    const count = this.#refCount;
    const held = this.#scratch.refs;
    const size = (len + 7) >> 3;
    if (len & 7) buf[2 + size - 1]! |= 0x80 >> (len & 7);
    buf[0] = count;
    buf[1] = descriptor2(len);
    let depth = 0;
    let at = 2 + size;
    for (let k = 0; k < count; k++) {
      const d = depthOf(held[k]!);
      if (d + 1 > depth) depth = d + 1;
      buf[at++] = d >> 8;
      buf[at++] = d & 0xff;
    }
    for (let k = 0; k < count; k++) {
      const r = held[k]!;
      if (r instanceof FastCell) {
        // The latin1 key is the hash, one char per byte: copied inline rather than by a native write.
        const key = r.key;
        for (let i = 0; i < 32; i++) buf[at + i] = key.charCodeAt(i);
      } else buf.set(hashOf(r), at);
      at += 32;
    }
    const key = nodeHash("sha256", prefix(this.#scratch, at), "binary");
    const data = carve(size);
    data.set(dataView(this.#scratch, size));
    const refs = count === 0 ? NO_REFS : (held.slice(0, count) as AnyCell[]);
    // #put ORs bits in, so the next writer needs a zeroed buffer; and no cell is kept alive by the scratch.
    buf.fill(0, 0, at);
    // A loop: Array's `fill` is a call into the runtime, for at most 4 slots.
    for (let k = 0; k < count; k++) held[k] = null;
    scratch.push(this.#scratch);
    this.#buf = EMPTY_SCRATCH;
    return new FastCell(data, len, refs, key, depth);
  }
}

/** Placeholder after `end()`: a finished writer has no buffer to write into. */
const EMPTY_SCRATCH = new Uint8Array(0);

export const beginFast = (): CellWriter => new CellWriter();

/**
 * Runs a @ton/core `storeX(x)` writer of dex/codecs on a CellWriter and returns the cell as a @ton/core
 * Cell: the same bits and refs as `toCell(storeX(x))`, without @ton/core's bit-by-bit Builder. A writer may
 * use only the Builder methods CellWriter has (store, storeUint, storeBit, storeCoins, storeAddress,
 * storeRef, storeMaybeRef, storeBits, storeSlice); test/unit/ingest/devnet/fast-encode.test.ts runs every codec's
 * writer both ways on random records.
 */
export function fastEncode(store: (b: Builder) => void): Cell {
  const w = new CellWriter();
  store(w as unknown as Builder);
  return toTonCell(w.end());
}

/** `encodeX` of a dex/codecs codec, on the CellWriter (see `fastEncode`). */
export function fastEncoder<T>(codec: { store(x: T): (b: Builder) => void }): (x: T) => Cell {
  return (x) => fastEncode(codec.store(x));
}

/**
 * What a storage layout needs from a builder: @ton/core's `beginCell()` and `beginFast()` both fit, so one
 * layout function builds the StateInit data (a @ton/core Cell) and the state cell the chain only hashes
 * (a FastCell, several times cheaper to build).
 */
export type CellBuilder<C> = {
  storeBit(value: boolean | number): CellBuilder<C>;
  storeUint(value: bigint | number, bits: number): CellBuilder<C>;
  storeCoins(value: bigint): CellBuilder<C>;
  storeAddress(address: Address | null): CellBuilder<C>;
  storeRef(cell: NoInfer<C> | Cell): CellBuilder<C>;
  endCell(): C;
};
export type Begin<C> = () => CellBuilder<C>;
