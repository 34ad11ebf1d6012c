/**
 * Encoders and decoders for the declarative layouts of dex/codecs/layout.ts that nest fields in a ref
 * (`{ ref: Layout }`: the amounts of pay_to, the tail of a swap payload...). dex/codecs builds such a ref
 * with @ton/core's `beginCell()` and parses it with `loadRef().beginParse()`, a bit-by-bit Builder and a
 * materialised BitString per message even when the outer cell goes through the chain's CellWriter and
 * CellReader. Here a layout is split at its ref groups: each run of plain fields still goes through
 * dex/codecs' own `writeLayout`/`readLayout` (so the wire format stays defined there), and only the ref
 * groups are built with a CellWriter and read with a CellReader. The result is the same cell, record and
 * failure as the codec's `store`/`decode`.
 */
import type { Builder, Cell, Slice } from "@ton/core";
import { end, loadHead, loadOp, storeHead } from "../../../dex/codecs/common.ts";
import { type Layout, type LayoutCodec, readLayout, writeLayout } from "../../../dex/codecs/layout.ts";
import { readCell } from "../chain/cell-reader.ts";
import { CellWriter } from "../chain/cell-writer.ts";
import { toTonCell } from "../chain/fast-cell.ts";

type Rec = Record<string, unknown>;
/** A run of plain fields (a sub-layout in wire order), or the parts of one nested ref. */
type Part = { readonly fields: Layout } | { readonly ref: readonly Part[] };

/** Splits `layout` at its ref groups, keeping the wire order. */
function partsOf(layout: Layout): Part[] {
  const parts: Part[] = [];
  let run: Record<string, Layout[string]> | null = null;
  for (const name in layout) {
    const f = layout[name];
    if (f === undefined) continue;
    if (typeof f === "string") {
      if (run === null) {
        run = {};
        parts.push({ fields: run });
      }
      run[name] = f;
    } else {
      run = null;
      parts.push({ ref: partsOf(f.ref) });
    }
  }
  return parts;
}

function writeParts(w: CellWriter, parts: readonly Part[], from: Rec): void {
  for (const part of parts) {
    if ("fields" in part) writeLayout(w as unknown as Builder, part.fields, from);
    else {
      const r = new CellWriter();
      writeParts(r, part.ref, from);
      w.ref(r.end());
    }
  }
}

function readParts(s: Slice, parts: readonly Part[], into: Rec, kind: string, closed: boolean): void {
  for (const part of parts) {
    if ("fields" in part) readLayout(s, part.fields, into, kind, closed);
    else {
      const r = readCell(s.loadRef());
      readParts(r, part.ref, into, kind, closed);
      if (closed) end(r, kind);
    }
  }
}

/** `encodeX` of a layout codec (`toCell(codec.store(x))`), built with CellWriters. */
export function layoutEncoder<T extends { kind: string }>(codec: LayoutCodec<T>): (x: T) => Cell {
  const parts = partsOf(codec.layout);
  return (x) => {
    const w = new CellWriter();
    const rec = x as unknown as Rec;
    if (codec.hasQueryId) storeHead(w as unknown as Builder, codec.op, rec.queryId as bigint);
    else w.uint(codec.op, 32);
    writeParts(w, parts, rec);
    return toTonCell(w.end());
  };
}

/** `codec.decode(readCell(cell))`, the nested refs read with CellReaders too. */
export function layoutDecoder<T extends { kind: string }>(codec: LayoutCodec<T>): (s: Slice) => T {
  const parts = partsOf(codec.layout);
  const { kind, op, closed } = codec;
  return (s) => {
    let rec: Rec;
    // The same key order as dex/codecs' records: kind, then query_id.
    if (codec.hasQueryId) rec = { kind, queryId: loadHead(s, op, kind) };
    else {
      loadOp(s, op, kind);
      rec = { kind };
    }
    readParts(s, parts, rec, kind, closed);
    if (closed) end(s, kind);
    return rec as T;
  };
}
