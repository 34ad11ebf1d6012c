/**
 * The contracts parse bodies with `CellReader` (./chain/cell-reader.ts) instead of @ton/core's `Slice`:
 * every operation must return what the Slice returns and fail where it fails (same error class), on
 * random cells and random read sequences, and every dex/codecs decoder must give the same record on random
 * valid bodies and on truncated or bit-flipped ones.
 */
import {
  Address,
  type Builder,
  beginCell,
  type Cell,
  type Slice,
  type TupleItem,
  TupleReader,
} from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { toCell } from "../../../../dex/codecs/common.ts";
import { BODY_CODECS, PAYLOAD_CODECS } from "../../../../dex/codecs/registry.ts";
import {
  CellReader,
  DevnetTupleReader,
  preloadOp,
  readCell,
} from "../../../../ingest/devnet/chain/cell-reader.ts";
import { CellWriter } from "../../../../ingest/devnet/chain/cell-writer.ts";
import { toTonCell } from "../../../../ingest/devnet/chain/fast-cell.ts";
import { int, prng } from "../../../helpers/prng.ts";
import { arbitraryFor } from "../../dex/codecs/_arbitraries.ts";

/** A comparable form of any decoded value: addresses and cells by content, bigints tagged. */
function norm(v: unknown): unknown {
  if (typeof v === "bigint") return `${v}n`;
  if (v === null || typeof v !== "object") return v;
  if (Address.isAddress(v)) return `addr ${v.toRawString()}`;
  if (typeof (v as Cell).hash === "function" && "refs" in (v as object)) {
    const c = v as Cell;
    return `cell ${c.hash().toString("hex")} ${c.bits.length} ${c.refs.length}`;
  }
  if (Array.isArray(v)) return v.map(norm);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
}

/** The outcome of `f`: its normalised value, or the class of the error it threw. */
function outcome(f: () => unknown): unknown {
  try {
    return { ok: norm(f()) };
  } catch (error) {
    return { threw: error instanceof TypeError ? "TypeError" : error instanceof Error ? "Error" : "other" };
  }
}

type Read = (s: Slice) => unknown;
const READS: [string, (r: () => number) => Read][] = [
  ["loadBit", () => (s) => s.loadBit()],
  [
    "loadUint",
    (r) =>
      (
        (bits) => (s: Slice) =>
          s.loadUint(bits)
      )(int(r, 70) - 1),
  ],
  [
    "preloadUint",
    (r) =>
      (
        (bits) => (s: Slice) =>
          s.preloadUint(bits)
      )(int(r, 70)),
  ],
  [
    "loadUintBig",
    (r) =>
      (
        (bits) => (s: Slice) =>
          s.loadUintBig(bits)
      )(int(r, 300)),
  ],
  [
    "preloadUintBig",
    (r) =>
      (
        (bits) => (s: Slice) =>
          s.preloadUintBig(bits)
      )(int(r, 300)),
  ],
  ["loadCoins", () => (s) => s.loadCoins()],
  ["loadAddress", () => (s) => s.loadAddress()],
  ["loadMaybeAddress", () => (s) => s.loadMaybeAddress()],
  ["loadRef", () => (s) => s.loadRef()],
  ["loadMaybeRef", () => (s) => s.loadMaybeRef()],
  [
    "skip",
    (r) =>
      (
        (bits) => (s: Slice) =>
          s.skip(bits).remainingBits
      )(int(r, 40) - 2),
  ],
  ["asCell", () => (s) => s.asCell()],
  ["remaining", () => (s) => [s.remainingBits, s.remainingRefs]],
];

/** A random cell that often holds addresses, coins and refs where a read sequence may look for them. */
function randomCell(r: () => number, depth = 0): Cell {
  const b = beginCell();
  const parts = int(r, 6);
  for (let i = 0; i < parts; i++) {
    const room = 1023 - b.bits;
    const kind = int(r, 6);
    if (kind === 0 && room >= 267) {
      const hash = Buffer.from(Array.from({ length: 32 }, () => int(r, 256)));
      b.storeAddress(new Address(int(r, 2) === 0 ? 0 : -1, hash));
    } else if (kind === 1 && room >= 124)
      b.storeCoins(BigInt(Math.floor(r() * 2 ** 40)) * BigInt(int(r, 1000)));
    else if (kind === 2 && room >= 2) b.storeUint(int(r, 4), 2);
    else if (kind === 3 && room >= 64) b.storeUint(BigInt(Math.floor(r() * 2 ** 50)) * 4099n, 64);
    else {
      const n = Math.min(room, int(r, 40));
      for (let k = 0; k < n; k++) b.storeBit(r() < 0.5);
    }
  }
  const refs = depth < 2 ? int(r, 3) : 0;
  for (let i = 0; i < refs; i++) b.storeRef(randomCell(r, depth + 1));
  return b.endCell();
}

test("CellReader reads what @ton/core's Slice reads and fails where it fails, on random cells", (t) => {
  const r = prng(7);
  for (let round = 0; round < 6000; round++) {
    const ton = randomCell(r);
    // Half the time read the content-equal FastCell (what contracts see for bodies they built).
    const cell = round % 2 === 0 ? ton : toTonCell(fastCopy(ton));
    const reads = Array.from({ length: 1 + int(r, 8) }, () => {
      const [name, make] = READS[int(r, READS.length)]!;
      return [name, make(r)] as const;
    });
    const s = ton.beginParse();
    const fast = readCell(cell);
    for (const [name, read] of reads) {
      const want = outcome(() => read(s));
      const got = outcome(() => read(fast));
      t.deepEqual(got, want, `round ${round}: ${name}`);
      if ("threw" in (want as object)) break; // @ton/core's position after a failed read is not specified
    }
  }
});

/** The same cell rebuilt on the CellWriter (a FastCell), refs included. */
function fastCopy(c: Cell) {
  const w = new CellWriter().storeBits(c.bits);
  for (const ref of c.refs) w.ref(fastCopy(ref));
  return w.end();
}

type AnyCodec = { kind: string; decode(s: Slice): unknown; store(x: unknown): (b: Builder) => void };
const codecs = [...BODY_CODECS, ...PAYLOAD_CODECS] as unknown as AnyCodec[];

/** `cell` with its bits cut to `bits` and its refs to `refs`. */
function cut(cell: Cell, bits: number, refs: number): Cell {
  const b = beginCell().storeBits(cell.bits.substring(0, Math.min(bits, cell.bits.length)));
  for (const ref of cell.refs.slice(0, refs)) b.storeRef(ref);
  return b.endCell();
}

/** `cell` with bit `at` flipped. */
function flip(cell: Cell, at: number): Cell {
  const b = beginCell();
  for (let i = 0; i < cell.bits.length; i++) b.storeBit(i === at ? !cell.bits.at(i) : cell.bits.at(i));
  for (const ref of cell.refs) b.storeRef(ref);
  return b.endCell();
}

for (const codec of codecs) {
  test(`dex/codecs ${codec.kind} decodes the same through CellReader`, (t) => {
    const arb = arbitraryFor(codec as never);
    if (arb === undefined) {
      t.fail(`no arbitrary for ${codec.kind}`);
      return;
    }
    const r = prng(codec.kind.length * 7919);
    fc.assert(
      fc.property(arb, (x) => {
        let body: Cell;
        try {
          body = toCell(codec.store(x));
        } catch {
          return true; // a record @ton/core cannot encode either
        }
        const variants = [body, cut(body, int(r, body.bits.length + 1), int(r, body.refs.length + 1))];
        if (body.bits.length > 0) variants.push(flip(body, int(r, body.bits.length)));
        for (const v of variants) {
          const want = outcome(() => codec.decode(v.beginParse()));
          const got = outcome(() => codec.decode(readCell(v)));
          if (JSON.stringify(got) !== JSON.stringify(want)) return false;
        }
        return true;
      }),
      { seed: 20261122, numRuns: 120 },
    );
    t.pass();
  });
}

test("preloadOp is the first 32 bits, and fails on a shorter cell as @ton/core does", (t) => {
  const body = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(5, 64).endCell();
  t.is(preloadOp(body), 0x0f8a7ea5);
  t.throws(() => beginCell().storeUint(1, 31).endCell().beginParse().preloadUint(32));
  t.throws(() => preloadOp(beginCell().storeUint(1, 31).endCell()));
});

test("an anycast address is read by @ton/core and the reader continues after it", (t) => {
  // addr_std with anycast: 10, 1, depth 5 bits = 3, prefix 101, workchain 0, hash.
  const hash = Buffer.alloc(32, 0x11);
  const cell = beginCell()
    .storeUint(0b10, 2)
    .storeBit(1)
    .storeUint(3, 5)
    .storeUint(0b101, 3)
    .storeInt(0, 8)
    .storeBuffer(hash)
    .storeUint(0xabc, 12)
    .endCell();
  const want = cell.beginParse();
  const got = new CellReader(cell);
  t.deepEqual(norm(got.loadMaybeAddress()), norm(want.loadMaybeAddress()));
  t.is(got.loadUint(12), want.loadUint(12));
  t.is(got.remainingBits, 0);
});

test("DevnetTupleReader reads get-method addresses as TupleReader does, one object per address", (t) => {
  const rng = prng(20261122);
  const randomHash = () => Buffer.from(Array.from({ length: 32 }, () => int(rng, 256)));
  const addresses = Array.from({ length: 8 }, (_, i) => new Address(i % 3 === 0 ? -1 : 0, randomHash()));
  const slice = (a: Address | null): TupleItem => ({
    type: "slice",
    cell: beginCell().storeAddress(a).endCell(),
  });
  const items: TupleItem[] = [];
  for (let i = 0; i < 200; i++) {
    const pick = int(rng, 10);
    if (pick < 8) items.push(slice(addresses[pick]!));
    else if (pick === 8) items.push({ type: "null" });
    else items.push({ type: "int", value: 5n });
  }
  // Each item read both ways: readAddressOpt for every item, readAddress where there is one.
  const ours = new DevnetTupleReader([...items]);
  const theirs = new TupleReader([...items]);
  const seen = new Map<string, Address>();
  for (let i = 0; i < items.length; i++) {
    const want = outcome(() => theirs.readAddressOpt());
    let object: Address | null = null;
    const got = outcome(() => {
      object = ours.readAddressOpt();
      return object;
    });
    t.deepEqual(got, want);
    if (object !== null) {
      const a: Address = object;
      const first = seen.get(a.toRawString()) ?? a;
      seen.set(a.toRawString(), first);
      t.is(a, first, "the same Address object for the same address");
    }
  }
  t.is(seen.size, addresses.length);
  const strict = [slice(addresses[0]!), { type: "null" } as TupleItem, slice(null)];
  const a = new DevnetTupleReader([...strict]);
  const b = new TupleReader([...strict]);
  for (let i = 0; i < strict.length; i++)
    t.deepEqual(
      outcome(() => a.readAddress()),
      outcome(() => b.readAddress()),
    );
});

test("addresses are interned: equal addresses give one object, distinct ones never share, across table growth", (t) => {
  const rng = prng(20261125);
  // Thousands of addresses (the intern table grows several times), some with equal leading hash bytes so
  // they probe the same slots, in both workchains.
  const raw = Array.from({ length: 3000 }, (_, i) => {
    const hash = Buffer.from(Array.from({ length: 32 }, () => int(rng, 256)));
    if (i % 7 === 0) hash.writeUInt32BE(0xdeadbeef, 0);
    return new Address(i % 5 === 0 ? -1 : 0, hash);
  });
  const cellOf = (a: Address) => beginCell().storeUint(int(rng, 8), 3).storeAddress(a).endCell();
  const read = (a: Address) => {
    const r = new CellReader(cellOf(a));
    r.loadUint(3);
    return r.loadAddress();
  };
  const first = raw.map(read);
  for (const [i, a] of first.entries()) t.true(a.equals(raw[i]!) && a.workChain === raw[i]!.workChain);
  t.is(new Set(first).size, raw.length);
  const again = raw.map(read);
  for (const [i, a] of again.entries()) t.is(a, first[i]!);
});
