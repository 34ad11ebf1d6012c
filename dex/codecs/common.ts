// Shared building blocks for the message codecs in dex/codecs/**.
//
// Conventions (shared/reference/contracts.md §0.2):
// * every body starts `op:uint32 query_id:uint64` unless a codec says otherwise;
// * Coins = VarUInteger 16 → bigint; uint64 and wider → bigint; uint8/16/32 → number;
// * MsgAddress → `Address | null` (addr_none = null); `Maybe ^Cell` → `Cell | null`;
// * `Either Cell ^Cell` → `EitherPayload | null` (null = the bit itself is missing).
//
// Decoders throw on malformed input; `decodeBody`/`decodeForwardPayload` in index.ts turn that into a
// `malformed` record. The happy path never throws.
import { type Builder, beginCell, type Cell, type Slice } from "@ton/core";

/** A decode failure inside a codec (wrong op, missing field, trailing data). */
export class CodecError extends Error {
  override readonly name = "CodecError";
  readonly isCodecError = true;
}

/** A codec for one message (or payload) layout. `kind` names the record; `op` is its first 32 bits. */
export interface Codec<T extends { kind: string }> {
  readonly kind: T["kind"];
  readonly op: number;
  decode(s: Slice): T;
  store(x: T): (b: Builder) => void;
}

export function defineCodec<T extends { kind: string }>(
  kind: T["kind"],
  op: number,
  decode: (s: Slice) => T,
  store: (x: T) => (b: Builder) => void,
): Codec<T> {
  return { kind, op, decode, store };
}

/** Builds a cell from a `storeX(x)` writer. */
export function toCell(writer: (b: Builder) => void): Cell {
  const b = beginCell();
  writer(b);
  return b.endCell();
}

/** Reads and checks the 32-bit op. */
export function loadOp(s: Slice, op: number, kind: string): void {
  const got = s.loadUint(32);
  if (got !== op) {
    throw new CodecError(`${kind}: expected op 0x${hex32(op)}, got 0x${hex32(got)}`);
  }
}

/** Reads `op:uint32 query_id:uint64` and returns query_id. */
export function loadHead(s: Slice, op: number, kind: string): bigint {
  loadOp(s, op, kind);
  return s.loadUintBig(64);
}

export function storeHead(b: Builder, op: number, queryId: bigint): Builder {
  return b.storeUint(op, 32).storeUint(queryId, 64);
}

export function hex32(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/** Closes a layout: any bit or ref left over is an error. */
export function end(s: Slice, kind: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new CodecError(`${kind}: ${s.remainingBits} trailing bits and ${s.remainingRefs} trailing refs`);
  }
}

/** Loads a referenced cell and parses it with `f`, requiring the ref to be fully consumed. */
export function loadInRef<T>(s: Slice, kind: string, f: (r: Slice) => T): T {
  const r = s.loadRef().beginParse();
  const out = f(r);
  end(r, kind);
  return out;
}

export function storeInRef(b: Builder, f: (r: Builder) => void): Builder {
  const r = beginCell();
  f(r);
  return b.storeRef(r.endCell());
}

/** `Either Cell ^Cell`: `inRef` is the Either bit; `payload` is the referenced cell or the inline remainder. */
export type EitherPayload = { inRef: boolean; payload: Cell };

/**
 * Reads an `Either Cell ^Cell` that ends the layout. The inline form takes every remaining bit and ref.
 * A body that stops right before the Either bit (seen from non-standard wallets) gives `null`.
 */
export function loadEitherTail(s: Slice, kind: string): EitherPayload | null {
  if (s.remainingBits === 0 && s.remainingRefs === 0) return null;
  if (s.loadBit()) {
    const payload = s.loadRef();
    end(s, kind);
    return { inRef: true, payload };
  }
  const payload = s.asCell();
  s.skip(s.remainingBits);
  while (s.remainingRefs > 0) s.loadRef();
  return { inRef: false, payload };
}

export function storeEitherTail(b: Builder, p: EitherPayload | null): Builder {
  if (p === null) return b;
  if (p.inRef) return b.storeBit(true).storeRef(p.payload);
  return b.storeBit(false).storeSlice(p.payload.beginParse());
}
