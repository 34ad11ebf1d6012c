/**
 * The devnet contracts encode bodies with dex/codecs writers run on the chain's CellWriter
 * (`fastEncode`): on random records of every body and forward-payload codec, the cell must equal
 * `toCell(writer)` on @ton/core's Builder, bit for bit (hash, depth, BOC).
 */
import type { Builder, Cell } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { toCell } from "../../../../dex/codecs/common.ts";
import * as dex from "../../../../dex/codecs/index.ts";
import { BODY_CODECS, PAYLOAD_CODECS } from "../../../../dex/codecs/registry.ts";
import { fastEncode } from "../../../../ingest/devnet/chain/cell-writer.ts";
import * as encoders from "../../../../ingest/devnet/contracts/encode.ts";
import { arbitraryFor } from "../../dex/codecs/_arbitraries.ts";

type AnyCodec = { kind: string; store(x: unknown): (b: Builder) => void };
const codecs = [...BODY_CODECS, ...PAYLOAD_CODECS] as unknown as AnyCodec[];

const same = (a: Cell, b: Cell): boolean =>
  a.hash().equals(b.hash()) && a.depth() === b.depth() && a.toBoc().equals(b.toBoc());

for (const codec of codecs) {
  test(`fastEncode equals @ton/core's Builder for ${codec.kind}`, (t) => {
    const arb = arbitraryFor(codec as never);
    if (arb === undefined) {
      t.fail(`no arbitrary for ${codec.kind}`);
      return;
    }
    fc.assert(
      fc.property(arb, (x) => {
        let expected: Cell;
        try {
          expected = toCell(codec.store(x));
        } catch {
          // A record @ton/core cannot encode either (e.g. more than 1023 bits): not compared.
          return true;
        }
        return same(fastEncode(codec.store(x)), expected);
      }),
      { seed: 20261122, numRuns: 150 },
    );
    t.pass();
  });
}

test("contracts/encode.ts shadows dex/codecs encoders of the same name, and only those", (t) => {
  const names = Object.keys(encoders);
  t.true(names.length >= 30);
  for (const name of names) t.is(typeof (dex as Record<string, unknown>)[name], "function", name);
});
