/**
 * The devnet's FastCell and BOC writer must be invisible: on random cell DAGs (every primitive, shared
 * subtrees, @ton/core cells mixed in as refs and appended), the same hash, depth and BOC bytes as @ton/core.
 */
import {
  Address,
  BitString,
  type Builder,
  beginCell,
  Cell,
  ExternalAddress,
  crc32c as tonCrc32c,
} from "@ton/core";
import test from "ava";
import fc from "fast-check";
import {
  crc32c,
  crc32cWords,
  distinctCells,
  toBoc,
  toBocBase64,
} from "../../../../ingest/devnet/chain/boc.ts";
import { type Begin, beginFast, CellWriter } from "../../../../ingest/devnet/chain/cell-writer.ts";
import {
  type AnyCell,
  adoptCell,
  bitsOf,
  chainSize,
  depthOf,
  FastCell,
  fastOf,
  hashOf,
  toTonCell,
  treeSize,
} from "../../../../ingest/devnet/chain/fast-cell.ts";

type Op =
  | { t: "bit"; v: boolean }
  | { t: "uint"; v: bigint; bits: number }
  | { t: "int"; v: number; bits: number }
  | { t: "varUint"; v: bigint; header: number }
  | { t: "addr"; kind: "none" | "std" | "ext"; wc: number; hash: Uint8Array; ext: bigint; extBits: number }
  | { t: "bytes"; b: Uint8Array }
  | { t: "append"; of: number };
type Spec = { ops: Op[]; refs: number[]; ton: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant("bit" as const), v: fc.boolean() }),
  fc
    .record({
      t: fc.constant("uint" as const),
      v: fc.bigInt(0n, (1n << 300n) - 1n),
      bits: fc.integer({ min: 0, max: 300 }),
    })
    .map((o) => ({ ...o, v: o.v & ((1n << BigInt(o.bits)) - 1n) })),
  fc.record({
    t: fc.constant("uint" as const),
    v: fc.bigInt(0n, 255n),
    bits: fc.constantFrom(8, 32, 64, 100),
  }),
  fc
    .record({ t: fc.constant("int" as const), v: fc.integer(), bits: fc.integer({ min: 1, max: 32 }) })
    .map((o) => ({ ...o, v: (((o.v % 2 ** o.bits) + 2 ** o.bits) % 2 ** o.bits) - 2 ** (o.bits - 1) })),
  fc.record({
    t: fc.constant("varUint" as const),
    v: fc.oneof(fc.constant(0n), fc.bigInt(0n, (1n << 120n) - 1n), fc.bigInt(0n, 1000n)),
    header: fc.constantFrom(2, 3, 4, 5),
  }),
  fc.record({
    t: fc.constant("addr" as const),
    kind: fc.constantFrom("none" as const, "std" as const, "ext" as const),
    wc: fc.constantFrom(0, -1, 127, -128),
    hash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    ext: fc.bigInt(0n, 255n),
    extBits: fc.integer({ min: 8, max: 40 }),
  }),
  fc.record({ t: fc.constant("bytes" as const), b: fc.uint8Array({ maxLength: 40 }) }),
  fc.record({ t: fc.constant("append" as const), of: fc.nat() }),
);
const spec: fc.Arbitrary<Spec> = fc.record({
  ops: fc.array(op, { maxLength: 12 }),
  refs: fc.array(fc.nat(), { maxLength: 4 }),
  ton: fc.boolean(),
});

const opBits = (o: Op, built: AnyCell[]): number => {
  switch (o.t) {
    case "bit":
      return 1;
    case "uint":
    case "int":
      return o.bits;
    case "varUint":
      return o.header + (o.v === 0n ? 0 : 8 * ((o.v.toString(16).length + 1) >> 1));
    case "addr":
      return o.kind === "none" ? 2 : o.kind === "std" ? 267 : 11 + o.extBits;
    case "bytes":
      return 8 * o.b.length;
    case "append":
      return built.length === 0 ? 0 : bitsOf(built[o.of % built.length]!);
  }
};

function address(o: Extract<Op, { t: "addr" }>): Address | ExternalAddress | null {
  if (o.kind === "none") return null;
  if (o.kind === "std") return new Address(o.wc, Buffer.from(o.hash));
  return new ExternalAddress(o.ext, o.extBits);
}

/** Builds every spec twice (@ton/core and FastCell); refs point at earlier specs, so subtrees are shared. */
function buildBoth(specs: Spec[]): { ton: Cell[]; fast: AnyCell[] } {
  const ton: Cell[] = [];
  const fast: AnyCell[] = [];
  for (const s of specs) {
    const b: Builder = beginCell();
    const w = new CellWriter();
    const refs = ton.length === 0 ? [] : s.refs.map((r) => r % ton.length);
    let bits = 0;
    let refCount = refs.length;
    for (const o of s.ops) {
      const need = opBits(o, fast);
      if (bits + need > 1023) continue;
      if (o.t === "varUint" && o.v.toString(16).length > 2 * (2 ** o.header - 1)) continue;
      if (o.t === "append") {
        if (fast.length === 0) continue;
        const i = o.of % fast.length;
        if (refCount + fast[i]!.refs.length > 4) continue;
        refCount += fast[i]!.refs.length;
        b.storeSlice(ton[i]!.beginParse());
        w.append(fast[i]!);
      } else if (o.t === "bit") {
        b.storeBit(o.v);
        w.bit(o.v);
      } else if (o.t === "uint") {
        b.storeUint(o.v, o.bits);
        if (o.v <= BigInt(Number.MAX_SAFE_INTEGER)) w.uint(Number(o.v), o.bits);
        else w.big(o.v, o.bits);
      } else if (o.t === "int") {
        b.storeInt(o.v, o.bits);
        w.int(o.v, o.bits);
      } else if (o.t === "varUint") {
        b.storeVarUint(o.v, o.header);
        w.varUint(o.v, o.header);
      } else if (o.t === "addr") {
        b.storeAddress(address(o));
        w.address(address(o));
      } else {
        b.storeBuffer(Buffer.from(o.b));
        w.bytes(o.b);
      }
      bits += need;
    }
    for (const r of refs) {
      b.storeRef(ton[r]!);
      // Mix the two kinds: some refs are the @ton/core cells themselves.
      w.ref(s.ton ? ton[r]! : fast[r]!);
    }
    ton.push(b.endCell());
    fast.push(w.end());
  }
  return { ton, fast };
}

test("FastCell hash, depth, bits and BOC equal @ton/core's on random cell DAGs", (t) => {
  let cells = 0;
  fc.assert(
    fc.property(fc.array(spec, { minLength: 1, maxLength: 14 }), (specs) => {
      const { ton, fast } = buildBoth(specs);
      for (let i = 0; i < ton.length; i++) {
        const a = ton[i]!;
        const b = fast[i]!;
        cells++;
        if (!hashOf(b).equals(a.hash())) return false;
        if (depthOf(b) !== a.depth() || bitsOf(b) !== a.bits.length) return false;
        if (!toBoc(b).equals(a.toBoc())) return false;
        // The @ton/core cell written by the fast writer too (padded bytes read from its BitString).
        if (!toBoc(a).equals(a.toBoc())) return false;
        if (!toTonCell(b).equals(a)) return false;
        const size = treeSize(b);
        if (size.bits !== treeSize(a).bits || size.cells !== treeSize(a).cells) return false;
        const distinct = distinctCells(b);
        if (BigInt(distinct.cells) !== size.cells || BigInt(distinct.bits) !== size.bits) return false;
        const distinctTon = distinctCells(a);
        if (BigInt(distinctTon.cells) !== size.cells || BigInt(distinctTon.bits) !== size.bits) return false;
      }
      return true;
    }),
    { seed: 20261122, numRuns: 400 },
  );
  t.true(cells > 1000);
});

test("distinctCells counts chains (at most one ref per cell) without a walk, as treeSize counts them", (t) => {
  let chains = 0;
  fc.assert(
    fc.property(
      fc.array(fc.record({ bits: fc.integer({ min: 0, max: 40 }), ton: fc.boolean(), link: fc.boolean() }), {
        minLength: 1,
        maxLength: 12,
      }),
      (links) => {
        // Each cell refers to the previous one (or to nothing), as FastCells and @ton/core cells mixed;
        // equal bit patterns are frequent, so content-equal cells at different depths are common.
        let prev: AnyCell | null = null;
        for (const l of links) {
          const w = new CellWriter();
          for (let i = 0; i < l.bits; i++) w.bit(i % 3 === 0);
          if (l.link && prev !== null) w.ref(prev);
          const fast = w.end();
          // A genuine @ton/core cell (its constructor hashes it), not a `toTonCell` view of the FastCell.
          const cell: AnyCell = l.ton ? beginCell().storeSlice(toTonCell(fast).beginParse()).endCell() : fast;
          const size = treeSize(cell);
          if (chainSize(cell) === null) return false;
          for (let k = 0; k < 2; k++) {
            const d = distinctCells(cell);
            if (BigInt(d.cells) !== size.cells || BigInt(d.bits) !== size.bits) return false;
          }
          chains++;
          prev = cell;
        }
        return true;
      },
    ),
    { seed: 20261122, numRuns: 300 },
  );
  t.true(chains > 1000);
});

test("toTonCell views behave as @ton/core's own cells: hash, depth, level, mask, bits, refs, BOC, parsing", (t) => {
  let cells = 0;
  fc.assert(
    fc.property(fc.array(spec, { minLength: 1, maxLength: 14 }), (specs) => {
      const { ton, fast } = buildBoth(specs);
      for (let i = 0; i < ton.length; i++) {
        const a = ton[i]!;
        const b = toTonCell(fast[i]!);
        if (!(b instanceof Cell) || toTonCell(fast[i]!) !== b) return false;
        // Rebuilt from the view's bits and refs by @ton/core's constructor, which hashes them itself.
        const again = new Cell({ bits: b.bits, refs: b.refs });
        cells++;
        for (const c of [a, again]) {
          if (!b.hash().equals(c.hash()) || b.depth() !== c.depth() || b.level() !== c.level()) return false;
          if (b.mask.value !== c.mask.value || b.hash(2).toString("hex") !== c.hash(2).toString("hex")) {
            return false;
          }
          if (b.type !== c.type || b.isExotic !== c.isExotic || !b.bits.equals(c.bits)) return false;
          if (!b.toBoc().equals(c.toBoc()) || b.toString() !== c.toString() || !b.equals(c) || !c.equals(b)) {
            return false;
          }
        }
        // Parsing: the same bits and the same refs (as cells) come out of both slices.
        const sa = a.beginParse();
        const sb = b.beginParse();
        if (sa.remainingBits !== sb.remainingBits || sa.remainingRefs !== sb.remainingRefs) return false;
        if (!sb.loadBits(sb.remainingBits).equals(sa.loadBits(sa.remainingBits))) return false;
        while (sa.remainingRefs > 0) if (!sb.loadRef().equals(sa.loadRef())) return false;
        // A @ton/core cell built on top of a view hashes as one built on top of the original.
        const parentA = beginCell().storeUint(7, 3).storeRef(a).endCell();
        const parentB = beginCell().storeUint(7, 3).storeRef(b).endCell();
        if (!parentA.hash().equals(parentB.hash()) || parentA.depth() !== parentB.depth()) return false;
        if (fastOf(b) !== fast[i]) return false;
      }
      return true;
    }),
    { seed: 20261123, numRuns: 300 },
  );
  t.true(cells > 500);
});

test("adoptCell takes a @ton/core tree over as a content-equal view whose every cell has a FastCell", (t) => {
  let cells = 0;
  fc.assert(
    fc.property(fc.array(spec, { minLength: 1, maxLength: 14 }), (specs) => {
      const { ton } = buildBoth(specs);
      for (const a of ton) {
        const b = adoptCell(a);
        cells++;
        if (!(b instanceof Cell) || fastOf(b) === null || adoptCell(b) !== b) return false;
        if (!b.hash().equals(a.hash()) || b.depth() !== a.depth() || !b.bits.equals(a.bits)) return false;
        if (!b.toBoc().equals(a.toBoc()) || !toBoc(b).equals(a.toBoc()) || !b.equals(a)) return false;
        // The refs are taken over too, all the way down: no cell of the tree is left to `fastOf`'s cache.
        const pending: Cell[] = [b];
        while (pending.length > 0) {
          const c = pending.pop()!;
          const fast = fastOf(c)!;
          for (const r of fast.refs) {
            if (!(r instanceof FastCell)) return false;
            pending.push(toTonCell(r));
          }
        }
      }
      return true;
    }),
    { seed: 20261124, numRuns: 200 },
  );
  t.true(cells > 300);
  // An exotic cell (a library cell here) stays what it is, no FastCell stands for one; above it the tree
  // is taken over as usual.
  const libraryBits = beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell().bits;
  const library = new Cell({ exotic: true, bits: libraryBits });
  t.is(adoptCell(library), library);
  const parent = beginCell().storeUint(5, 16).storeRef(library).endCell();
  const adopted = adoptCell(parent);
  t.true(adopted.hash().equals(parent.hash()) && toBoc(adopted).equals(parent.toBoc()));
  t.is(fastOf(adopted)!.refs[0], library);
});

/**
 * Wide DAGs: hundreds to thousands of cells (2-byte ref indexes, the writer's tables growing mid-walk),
 * refs drawn from every earlier cell (heavy sharing), and content-equal cells built as distinct objects of
 * both kinds, which the BOC must list once.
 */
test("BOCs of large DAGs with shared and duplicated subcells equal @ton/core's", (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      fc.integer({ min: 50, max: 1500 }),
      fc.integer({ min: 1, max: 40 }),
      (seed, n, distinct) => {
        let x = seed;
        const rand = (m: number) => {
          x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
          return x % m;
        };
        const ton: Cell[] = [];
        const fast: AnyCell[] = [];
        for (let i = 0; i < n; i++) {
          // Few distinct payloads, so equal cells recur as different objects.
          const value = rand(distinct);
          const refs = i === 0 ? [] : Array.from({ length: rand(5) }, () => rand(i));
          const b = beginCell().storeUint(value, 7 + (value % 3));
          const w = new CellWriter().uint(value, 7 + (value % 3));
          for (const r of refs) {
            b.storeRef(ton[r]!);
            w.ref(rand(2) === 0 ? ton[r]! : fast[r]!);
          }
          ton.push(b.endCell());
          fast.push(rand(3) === 0 ? b.endCell() : w.end());
        }
        for (const i of [n - 1, rand(n), n >> 1]) {
          const expected = ton[i]!.toBoc();
          if (!toBoc(fast[i]!).equals(expected)) return false;
          if (toBocBase64(ton[i]!) !== expected.toString("base64")) return false;
          const size = treeSize(ton[i]!);
          const distinct = distinctCells(fast[i]!);
          if (BigInt(distinct.cells) !== size.cells || BigInt(distinct.bits) !== size.bits) return false;
        }
        return true;
      },
    ),
    { seed: 20261124, numRuns: 60 },
  );
  t.pass();
});

test("a deep chain of cells serialises as @ton/core's", (t) => {
  let ton = beginCell().storeUint(0, 8).endCell();
  let fast: AnyCell = new CellWriter().uint(0, 8).end();
  for (let i = 1; i < 1000; i++) {
    ton = beginCell()
      .storeUint(i & 0xff, 8)
      .storeRef(ton)
      .endCell();
    fast = new CellWriter()
      .uint(i & 0xff, 8)
      .ref(fast)
      .end();
  }
  t.true(toBoc(fast).equals(ton.toBoc()));
});

test("a @ton/core cell whose bits start mid-byte is read correctly", (t) => {
  for (const length of [0, 5, 8, 20, 64]) {
    const child = new Cell({ bits: new BitString(Buffer.from("a5c3f00f1234567890", "hex"), 3, length) });
    const w = new CellWriter().append(child).end();
    t.true(w.hash.equals(child.hash()));
    t.true(toBoc(child).equals(child.toBoc()));
  }
});

test("crc32c equals @ton/core's", (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
      const expected = tonCrc32c(Buffer.from(bytes)).readInt32LE(0);
      return crc32c(bytes) === expected;
    }),
    { seed: 7, numRuns: 300 },
  );
  t.pass();
});

test("crc32cWords equals crc32c at every length (little-endian hosts)", (t) => {
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
    t.pass("big-endian host: the BOC writer uses crc32c");
    return;
  }
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat({ max: 2000 }), (bytes, cut) => {
      const memory = new ArrayBuffer(bytes.length + 8);
      const view = new Uint8Array(memory);
      view.set(bytes);
      const length = Math.min(cut, bytes.length);
      return (
        crc32cWords(view, new Int32Array(memory, 0, memory.byteLength >> 2), length) === crc32c(bytes, length)
      );
    }),
    { seed: 8, numRuns: 300 },
  );
  t.pass();
});

test("the writer rejects what @ton/core's Builder rejects", (t) => {
  t.throws(() => new CellWriter().uint(256, 8));
  t.throws(() => new CellWriter().big(1n << 64n, 64));
  t.throws(() => new CellWriter().int(128, 8));
  t.throws(() => new CellWriter().coins(-1n));
  t.throws(() => new CellWriter().coins(1n << 120n));
  t.throws(() => new CellWriter().bytes(new Uint8Array(128)));
  const w = new CellWriter();
  for (let i = 0; i < 4; i++) w.ref(beginCell().endCell());
  t.throws(() => w.ref(beginCell().endCell()));
});

test("storage layouts build the same cell through beginFast as through beginCell", (t) => {
  /** A layout written once against CellBuilder, as the contracts' `…With(begin, state)` functions are. */
  const layout = <C>(
    begin: Begin<C>,
    v: { a: bigint; n: number; c: bigint; who: Address | null; flag: boolean },
  ) =>
    begin()
      .storeBit(v.flag)
      .storeUint(v.a, 256)
      .storeUint(v.n, 32)
      .storeCoins(v.c)
      .storeAddress(v.who)
      .storeRef(begin().storeUint(v.n, 16).endCell())
      .endCell();
  fc.assert(
    fc.property(
      fc.record({
        a: fc.bigInt(0n, (1n << 256n) - 1n),
        n: fc.nat({ max: 2 ** 16 - 1 }),
        c: fc.bigInt(0n, (1n << 120n) - 1n),
        who: fc.option(
          fc.uint8Array({ minLength: 32, maxLength: 32 }).map((h) => new Address(0, Buffer.from(h))),
          { nil: null },
        ),
        flag: fc.boolean(),
      }),
      (v) => hashOf(layout(beginFast, v)).equals(layout(beginCell, v).hash()),
    ),
    { seed: 11, numRuns: 200 },
  );
  t.pass();
});
