// A tiny declarative layer for the many flat STON.fi layouts: a `Layout` lists the fields in wire order
// (object key order), and the record type is derived from it, so the type and the codec cannot drift.
//
//   leaf      wire type                    TS value
//   "addr"    MsgAddress (std or none)     Address | null     (loadMaybeAddress / storeAddress)
//   "coins"   VarUInteger 16               bigint             (loadCoins / storeCoins)
//   "u8".."u32" uintN                      number             (loadUint / storeUint)
//   "u64","u128" uintN                     bigint             (loadUintBig / storeUint)
//   "bool"    uint1 / Bool                 boolean
//   "ref"     ^Cell                        Cell
//   "maybeRef" Maybe ^Cell                 Cell | null
//   { ref: Layout }  ^[ ... ]              the nested fields, flattened into the record
//
// Layouts with conditional fields (v1 has_ref, Either payloads, set_params variants) are hand-written.
import { type Address, type Builder, beginCell, type Cell, type Slice } from "@ton/core";
import { type Codec, end, loadHead, loadOp, storeHead, toCell } from "./common.ts";

export type Leaf = "addr" | "coins" | "u8" | "u16" | "u32" | "u64" | "u128" | "bool" | "ref" | "maybeRef";
export type RefGroup = { readonly ref: Layout };
export type Layout = { readonly [field: string]: Leaf | RefGroup };

type LeafValue<L extends Leaf> = L extends "addr"
  ? Address | null
  : L extends "coins" | "u64" | "u128"
    ? bigint
    : L extends "u8" | "u16" | "u32"
      ? number
      : L extends "bool"
        ? boolean
        : L extends "ref"
          ? Cell
          : Cell | null;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

type Own<S extends Layout> = {
  -readonly [K in keyof S as S[K] extends Leaf ? K : never]: S[K] extends Leaf ? LeafValue<S[K]> : never;
};
type Nested<S extends Layout> = UnionToIntersection<
  { [K in keyof S]: S[K] extends RefGroup ? Fields<S[K]["ref"]> : Record<never, never> }[keyof S]
>;
export type Fields<S extends Layout> = Own<S> & Nested<S>;
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A message body record: `op query_id` then the layout. */
export type Msg<K extends string, S extends Layout> = Simplify<{ kind: K; queryId: bigint } & Fields<S>>;
/** A forward-payload record: `op` then the layout (no query_id). */
export type PayloadMsg<K extends string, S extends Layout> = Simplify<{ kind: K } & Fields<S>>;

/** A codec built from a layout; `layout` and `hasQueryId` let tests derive arbitraries from it. */
export interface LayoutCodec<T extends { kind: string }> extends Codec<T> {
  readonly layout: Layout;
  readonly hasQueryId: boolean;
  /** true = trailing bits/refs are an error (the contract builds or checks the exact layout). */
  readonly closed: boolean;
}

type Rec = Record<string, unknown>;

function readLeaf(s: Slice, leaf: Leaf): unknown {
  switch (leaf) {
    case "addr":
      return s.loadMaybeAddress();
    case "coins":
      return s.loadCoins();
    case "u8":
      return s.loadUint(8);
    case "u16":
      return s.loadUint(16);
    case "u32":
      return s.loadUint(32);
    case "u64":
      return s.loadUintBig(64);
    case "u128":
      return s.loadUintBig(128);
    case "bool":
      return s.loadBit();
    case "ref":
      return s.loadRef();
    case "maybeRef":
      return s.loadMaybeRef();
  }
}

const BITS: Partial<Record<Leaf, number>> = { u8: 8, u16: 16, u32: 32, u64: 64, u128: 128 };

function writeLeaf(b: Builder, leaf: Leaf, v: unknown): void {
  if (leaf === "addr") b.storeAddress(v as Address | null);
  else if (leaf === "coins") b.storeCoins(v as bigint);
  else if (leaf === "bool") b.storeBit(v as boolean);
  else if (leaf === "ref") b.storeRef(v as Cell);
  else if (leaf === "maybeRef") b.storeMaybeRef(v as Cell | null);
  else b.storeUint(v as number | bigint, BITS[leaf] ?? 0);
}

export function readLayout(s: Slice, layout: Layout, into: Rec, kind: string, closed: boolean): void {
  for (const name in layout) {
    const f = layout[name];
    if (f === undefined) continue;
    if (typeof f === "string") {
      into[name] = readLeaf(s, f);
    } else {
      const r = s.loadRef().beginParse();
      readLayout(r, f.ref, into, kind, closed);
      if (closed) end(r, kind);
    }
  }
}

export function writeLayout(b: Builder, layout: Layout, from: Rec): void {
  for (const name in layout) {
    const f = layout[name];
    if (f === undefined) continue;
    if (typeof f === "string") {
      writeLeaf(b, f, from[name]);
    } else {
      const r = beginCell();
      writeLayout(r, f.ref, from);
      b.storeRef(r.endCell());
    }
  }
}

/** A message codec: `op:uint32 query_id:uint64` followed by `layout`. */
export function messageCodec<K extends string, S extends Layout>(
  kind: K,
  op: number,
  layout: S,
  closed: boolean,
): LayoutCodec<Msg<K, S>> {
  const decode = (s: Slice): Msg<K, S> => {
    const rec: Rec = { kind, queryId: loadHead(s, op, kind) };
    readLayout(s, layout, rec, kind, closed);
    if (closed) end(s, kind);
    return rec as Msg<K, S>;
  };
  const store = (x: Msg<K, S>) => (b: Builder) => {
    storeHead(b, op, x.queryId);
    writeLayout(b, layout, x as Rec);
  };
  return { kind: kind as Msg<K, S>["kind"], op, decode, store, layout, hasQueryId: true, closed };
}

/** A forward-payload codec: `op:uint32` followed by `layout` (no query_id). */
export function payloadCodec<K extends string, S extends Layout>(
  kind: K,
  op: number,
  layout: S,
  closed: boolean,
): LayoutCodec<PayloadMsg<K, S>> {
  const decode = (s: Slice): PayloadMsg<K, S> => {
    loadOp(s, op, kind);
    const rec: Rec = { kind };
    readLayout(s, layout, rec, kind, closed);
    if (closed) end(s, kind);
    return rec as PayloadMsg<K, S>;
  };
  const store = (x: PayloadMsg<K, S>) => (b: Builder) => {
    b.storeUint(op, 32);
    writeLayout(b, layout, x as Rec);
  };
  return { kind: kind as PayloadMsg<K, S>["kind"], op, decode, store, layout, hasQueryId: false, closed };
}

/** `encodeX(x)` for any codec. */
export function encoder<T extends { kind: string }>(c: Codec<T>): (x: T) => Cell {
  return (x) => toCell(c.store(x));
}
