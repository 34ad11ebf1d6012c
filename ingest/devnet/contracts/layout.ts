/**
 * Encoders and decoders for the declarative layouts of dex/codecs/layout.ts, compiled once per codec.
 * dex/codecs interprets a layout on every message (`readLayout`/`writeLayout` walk its keys and switch on
 * each leaf's name), builds a nested ref (`{ ref: Layout }`: the amounts of pay_to, the tail of a swap
 * payload...) with @ton/core's bit-by-bit `beginCell()` and parses it with `loadRef().beginParse()`, a
 * materialised BitString per message. Here a layout becomes a list of field steps up front, each one call
 * of the same Slice/Builder method dex/codecs' `readLeaf`/`writeLeaf` makes for that leaf, so the wire
 * format, the records (same keys in the same order) and the failures stay dex/codecs'; ref groups are
 * built with a CellWriter and read with a CellReader. test/unit/ingest/devnet/contracts-codecs.test.ts
 * compares every codec compiled here with dex/codecs on random, truncated and over-long cells.
 */
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { end, loadHead, loadOp, storeHead } from "../../../dex/codecs/common.ts";
import type { Layout, LayoutCodec, Leaf } from "../../../dex/codecs/layout.ts";
import { readCell } from "../chain/cell-reader.ts";
import { CellWriter } from "../chain/cell-writer.ts";
import { toTonCell } from "../chain/fast-cell.ts";

type Rec = Record<string, unknown>;
type ReadStep = (s: Slice, into: Rec) => void;
type WriteStep = (w: CellWriter, from: Rec) => void;

/** Reads one leaf into `into[name]`: the Slice call of dex/codecs' `readLeaf` for that leaf. */
function leafReader(name: string, leaf: Leaf): ReadStep {
  switch (leaf) {
    case "addr":
      return (s, into) => {
        into[name] = s.loadMaybeAddress();
      };
    case "coins":
      return (s, into) => {
        into[name] = s.loadCoins();
      };
    case "u8":
    case "u16":
    case "u32": {
      const bits = Number(leaf.slice(1));
      return (s, into) => {
        into[name] = s.loadUint(bits);
      };
    }
    case "u64":
    case "u128": {
      const bits = Number(leaf.slice(1));
      return (s, into) => {
        into[name] = s.loadUintBig(bits);
      };
    }
    case "bool":
      return (s, into) => {
        into[name] = s.loadBit();
      };
    case "ref":
      return (s, into) => {
        into[name] = s.loadRef();
      };
    case "maybeRef":
      return (s, into) => {
        into[name] = s.loadMaybeRef();
      };
  }
}

/** Writes one leaf from `from[name]`: the Builder call of dex/codecs' `writeLeaf` for that leaf. */
function leafWriter(name: string, leaf: Leaf): WriteStep {
  switch (leaf) {
    case "addr":
      return (w, from) => w.storeAddress(from[name] as Address | null);
    case "coins":
      return (w, from) => w.storeCoins(from[name] as bigint);
    case "bool":
      return (w, from) => w.storeBit(from[name] as boolean);
    case "ref":
      return (w, from) => w.storeRef(from[name] as Cell);
    case "maybeRef":
      return (w, from) => w.storeMaybeRef(from[name] as Cell | null);
    default: {
      const bits = Number(leaf.slice(1));
      return (w, from) => w.storeUint(from[name] as number | bigint, bits);
    }
  }
}

/** The read steps of `layout` in wire order; a closed layout's ref groups must be read to their end. */
function readSteps(layout: Layout, kind: string, closed: boolean): ReadStep[] {
  const steps: ReadStep[] = [];
  for (const name in layout) {
    const f = layout[name];
    if (f === undefined) continue;
    if (typeof f === "string") steps.push(leafReader(name, f));
    else {
      const inner = readSteps(f.ref, kind, closed);
      steps.push((s, into) => {
        const r = readCell(s.loadRef());
        for (const step of inner) step(r, into);
        if (closed) end(r, kind);
      });
    }
  }
  return steps;
}

/** The write steps of `layout` in wire order, each ref group built with its own CellWriter. */
function writeSteps(layout: Layout): WriteStep[] {
  const steps: WriteStep[] = [];
  for (const name in layout) {
    const f = layout[name];
    if (f === undefined) continue;
    if (typeof f === "string") steps.push(leafWriter(name, f));
    else {
      const inner = writeSteps(f.ref);
      steps.push((w, from) => {
        const r = new CellWriter();
        for (const step of inner) step(r, from);
        w.ref(r.end());
      });
    }
  }
  return steps;
}

/** `encodeX` of a layout codec (`toCell(codec.store(x))`), built with CellWriters. */
export function layoutEncoder<T extends { kind: string }>(codec: LayoutCodec<T>): (x: T) => Cell {
  const steps = writeSteps(codec.layout);
  const { op, hasQueryId } = codec;
  return (x) => {
    const w = new CellWriter();
    const rec = x as unknown as Rec;
    if (hasQueryId) storeHead(w as unknown as Builder, op, rec.queryId as bigint);
    else w.uint(op, 32);
    for (const step of steps) step(w, rec);
    return toTonCell(w.end());
  };
}

/** `codec.decode(s)`, the nested refs read with CellReaders. */
export function layoutDecoder<T extends { kind: string }>(codec: LayoutCodec<T>): (s: Slice) => T {
  const { kind, op, closed, hasQueryId } = codec;
  const steps = readSteps(codec.layout, kind, closed);
  return (s) => {
    let rec: Rec;
    // The same key order as dex/codecs' records: kind, then query_id.
    if (hasQueryId) rec = { kind, queryId: loadHead(s, op, kind) };
    else {
      loadOp(s, op, kind);
      rec = { kind };
    }
    for (const step of steps) step(s, rec);
    if (closed) end(s, kind);
    return rec as T;
  };
}
