/**
 * The devnet contracts' own encoders (ingest/devnet/contracts/encode.ts) and decoders (contracts/decode.ts)
 * shadow dex/codecs functions of the same name with faster paths (the chain's CellWriter and byte-level
 * reader). Each must be indistinguishable from the dex/codecs function it shadows: on random records of its
 * codec, the same cell (hash, depth, BOC) and the same decoded record; on cells cut short at any bit or ref,
 * or carrying a bit too many, a failure exactly where dex/codecs fails.
 */
import { Address, beginCell, Cell } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import * as dex from "../../../../dex/codecs/index.ts";
import { fastOf, toTonCell } from "../../../../ingest/devnet/chain/fast-cell.ts";
import * as decoders from "../../../../ingest/devnet/contracts/decode.ts";
import * as encoders from "../../../../ingest/devnet/contracts/encode.ts";
import { arbitraryFor } from "../../dex/codecs/_arbitraries.ts";

type Fn = (x: never) => unknown;
const dexFns = dex as unknown as Record<string, Fn | object>;

/** `encodeStonfiV2PayTo` / `decodeStonfiV2PayTo` → dex/codecs' `stonfiV2PayToCodec`. */
function codecOf(name: string, prefix: "encode" | "decode"): Parameters<typeof arbitraryFor>[0] {
  const stem = name.slice(prefix.length);
  const codec = dexFns[`${stem[0]!.toLowerCase()}${stem.slice(1)}Codec`];
  if (codec === undefined) throw new Error(`no dex/codecs codec for ${name}`);
  return codec as Parameters<typeof arbitraryFor>[0];
}

const same = (a: Cell, b: Cell): boolean =>
  a.hash().equals(b.hash()) && a.depth() === b.depth() && a.toBoc().equals(b.toBoc());

/** A decoded record as text: bigints, addresses (raw form) and cells (hash) written out, key order kept. */
const normal = (record: unknown): string =>
  JSON.stringify(record, (_k, v: unknown) => {
    if (typeof v === "bigint") return `${v}n`;
    if (Address.isAddress(v)) return `address ${v.toRawString()}`;
    if (v instanceof Cell) return `cell ${v.hash().toString("hex")}`;
    return v;
  });

/** The outcome of `fn`: its value, or the fact that it threw. */
function outcome<R>(fn: () => R): { ok: true; value: R } | { ok: false } {
  try {
    return { ok: true, value: fn() };
  } catch {
    return { ok: false };
  }
}

for (const [name, encode] of Object.entries(encoders) as [string, (x: unknown) => Cell][]) {
  test(`contracts/encode.ts ${name} equals dex/codecs' on random records`, (t) => {
    const arb = arbitraryFor(codecOf(name, "encode"));
    if (arb === undefined) return t.fail(`no arbitrary for ${name}`);
    const reference = dexFns[name] as (x: unknown) => Cell;
    fc.assert(
      fc.property(arb, (x) => {
        const expected = outcome(() => reference(x));
        const actual = outcome(() => encode(x));
        // A record dex/codecs cannot encode (e.g. over 1023 bits) must fail here too.
        if (!expected.ok || !actual.ok) return expected.ok === actual.ok;
        return same(actual.value, expected.value);
      }),
      { seed: 20261122, numRuns: 200 },
    );
    t.pass();
  });
}

/** `cell` with only its first `bits` bits and `refs` refs (a truncated body). */
function cut(cell: Cell, bits: number, refs: number): Cell {
  const s = cell.beginParse();
  const b = beginCell().storeBits(s.loadBits(bits));
  for (let i = 0; i < refs; i++) b.storeRef(s.loadRef());
  return b.endCell();
}

for (const [name, decode] of Object.entries(decoders) as [string, (s: unknown) => unknown][]) {
  test(`contracts/decode.ts ${name} equals dex/codecs' on random and truncated cells`, (t) => {
    const codec = codecOf(name, "decode");
    const arb = arbitraryFor(codec);
    if (arb === undefined) return t.fail(`no arbitrary for ${name}`);
    const reference = dexFns[name] as (s: unknown) => unknown;
    const encode = dexFns[`encode${name.slice("decode".length)}`] as (x: unknown) => Cell;
    let compared = 0;
    fc.assert(
      fc.property(arb, fc.nat(), fc.nat(), fc.boolean(), (x, atBit, atRef, viaView) => {
        const full = outcome(() => encode(x));
        if (!full.ok) return true;
        const short = cut(
          full.value,
          atBit % (full.value.bits.length + 1),
          atRef % (full.value.refs.length + 1),
        );
        const long = beginCell().storeSlice(full.value.beginParse()).storeBit(1).endCell();
        for (const cell of [full.value, short, long]) {
          // Bodies reach the contracts as @ton/core cells or as the chain's views of its own cells.
          const input = viaView ? toTonCell(fastOf(cell)!) : cell;
          const expected = outcome(() => reference(cell.beginParse()));
          const actual = outcome(() => decode(input.beginParse()));
          if (expected.ok !== actual.ok) return false;
          if (expected.ok && actual.ok && normal(actual.value) !== normal(expected.value)) return false;
          compared++;
        }
        return true;
      }),
      { seed: 20261123, numRuns: 200 },
    );
    t.true(compared >= 200);
  });
}

test("contracts/decode.ts shadows dex/codecs decoders of the same name, and only those", (t) => {
  const names = Object.keys(decoders);
  t.true(names.length >= 5);
  for (const name of names) t.is(typeof dexFns[name], "function", name);
});
