/**
 * infra/library-patches/fast-boc.ts must be invisible: for every BOC, `cellFromBase64` returns a cell equal to
 * `Cell.fromBase64`'s in bits, refs, hashes, depths and re-serialisation, or throws the same error. Checked
 * on every message BOC of the shared mainnet traces and of a devnet run, on random cell trees serialised
 * with every BOC option, and on random corruptions of those.
 */
import { BitString, beginCell, Cell } from "@ton/core";
import test from "ava";
import { cellFromBase64 } from "../../../../infra/library-patches/fast-boc.ts";
import { runDevnet } from "../../../helpers/devnet-run.ts";
import { int, prng } from "../../../helpers/prng.ts";
import { listTraceFiles, loadTrace } from "../../../helpers/traces.ts";

/** Everything observable of a cell tree, computed through its public methods. */
function shape(cell: Cell): unknown {
  return {
    exotic: cell.isExotic,
    type: cell.type,
    level: cell.level(),
    bits: cell.bits.toString(),
    length: cell.bits.length,
    hash: cell.hash().toString("hex"),
    hashes: [0, 1, 2, 3].map((l) => cell.hash(l).toString("hex")),
    depth: cell.depth(),
    refs: cell.refs.map(shape),
    text: cell.toString(),
    sliceBits: cell.beginParse().remainingBits,
  };
}

/** The cell's shape, or the thrown message: both parsers must agree on either. */
function outcome(parse: (boc: string) => Cell, boc: string): unknown {
  try {
    const cell = parse(boc);
    return {
      instance: cell instanceof Cell,
      shape: shape(cell),
      boc: cell.toBoc().toString("base64"),
      equal: cell.equals(Cell.fromBase64(boc)),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function assertSame(t: import("ava").ExecutionContext, boc: string, what: string): void {
  const expected = outcome((b) => Cell.fromBase64(b), boc);
  const actual = outcome(cellFromBase64, boc);
  t.deepEqual(actual, expected, `${what}: ${boc}`);
}

test("every message BOC of the mainnet traces parses to the same cell", (t) => {
  let n = 0;
  for (const name of listTraceFiles()) {
    for (const tx of loadTrace(name).txs) {
      for (const m of [...(tx.in_msg ? [tx.in_msg] : []), ...tx.out_msgs]) {
        assertSame(t, m.body_boc, `${name} ${m.hash} body`);
        if (m.init_boc !== undefined) assertSame(t, m.init_boc, `${name} ${m.hash} init`);
        n++;
      }
    }
  }
  t.true(n > 100, `only ${n} messages`);
});

test("every message BOC of a devnet run parses to the same cell", async (t) => {
  const run = await runDevnet({ seed: 3, blocks: 8 });
  let n = 0;
  for (const tx of run.txs) {
    for (const m of [...(tx.in_msg ? [tx.in_msg] : []), ...tx.out_msgs]) {
      assertSame(t, m.body_boc, `${tx.hash} body`);
      if (m.init_boc !== undefined) assertSame(t, m.init_boc, `${tx.hash} init`);
      n++;
    }
  }
  t.true(n > 500, `only ${n} messages`);
});

/** A random ordinary cell tree: up to `depth` levels, 0..4 refs, 0..1023 bits, shared subtrees. */
function randomCell(r: () => number, depth: number, pool: Cell[]): Cell {
  const b = beginCell();
  const bits = int(r, 5) === 0 ? 1023 : int(r, 300);
  for (let i = 0; i < bits; i++) b.storeBit(int(r, 3) === 0);
  const refs = depth === 0 ? 0 : int(r, 5);
  for (let i = 0; i < refs; i++) {
    if (pool.length > 0 && int(r, 4) === 0) b.storeRef(pool[int(r, pool.length)]!);
    else b.storeRef(randomCell(r, depth - 1, pool));
  }
  const cell = b.endCell();
  pool.push(cell);
  return cell;
}

test("a plain BOC takes the fast path: no per-cell closures, hashes computed on demand", (t) => {
  const cell = cellFromBase64(
    beginCell().storeUint(7, 32).storeRef(Cell.EMPTY).endCell().toBoc().toString("base64"),
  );
  t.false(Object.hasOwn(cell, "hash"), "a Cell.fromBase64 cell has its own hash closure");
  t.false(Object.hasOwn(cell, "_wonders"), "no hash was computed while parsing");
  t.is(
    cell.hash().toString("hex"),
    beginCell().storeUint(7, 32).storeRef(Cell.EMPTY).endCell().hash().toString("hex"),
  );
});

test("random cell trees, in every BOC layout, parse to the same cells", (t) => {
  const r = prng(20261122);
  for (let i = 0; i < 300; i++) {
    const cell = randomCell(r, int(r, 4), []);
    for (const idx of [false, true]) {
      for (const crc32 of [false, true])
        assertSame(t, cell.toBoc({ idx, crc32 }).toString("base64"), `#${i}`);
    }
  }
});

test("corrupted BOCs: the same cell or the same error", (t) => {
  const r = prng(7);
  const bocs = [
    ...Array.from({ length: 60 }, () =>
      randomCell(r, 2, []).toBoc({ idx: int(r, 2) === 0, crc32: int(r, 2) === 0 }),
    ),
    beginCell().endCell().toBoc(),
    beginCell().storeUint(0x80, 8).endCell().toBoc(),
  ];
  for (const [i, boc] of bocs.entries()) {
    for (let k = 0; k < 40; k++) {
      const bad = Buffer.from(boc);
      const flips = 1 + int(r, 3);
      for (let f = 0; f < flips; f++) bad[int(r, bad.length)] = int(r, 256);
      assertSame(t, bad.toString("base64"), `#${i}.${k}`);
      assertSame(t, boc.subarray(0, int(r, boc.length)).toString("base64"), `#${i}.${k} truncated`);
      assertSame(
        t,
        Buffer.concat([boc, Buffer.from([int(r, 256)])]).toString("base64"),
        `#${i}.${k} extended`,
      );
    }
  }
});

test("padding edge cases: a padded cell whose last data byte is 0, and exotic cells, go to @ton/core", (t) => {
  // Hand-made BOC: 1 cell, d1 = 0, d2 = 3 (2 bytes, padded), data 0x80 0x00: @ton/core scans past the byte.
  const header = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 0x01, 0x01, 0x00, 0x04, 0x00]);
  for (const data of [
    [0x00, 0x03, 0x80, 0x00],
    [0x00, 0x03, 0x00, 0x00],
    [0x00, 0x03, 0x12, 0x40],
    [0x00, 0x01, 0x01, 0x00],
  ]) {
    assertSame(t, Buffer.concat([header, Buffer.from(data)]).toString("base64"), `data ${data}`);
  }
  const pruned = new Cell({
    exotic: true,
    bits: new BitString(Buffer.from([1, 1, ...new Array(32).fill(7), 0, 1]), 0, 288),
  });
  assertSame(t, beginCell().storeRef(pruned).endCell().toBoc().toString("base64"), "pruned child");
});
