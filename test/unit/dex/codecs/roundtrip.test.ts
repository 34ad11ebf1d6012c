// Seeded fast-check round-trips for EVERY codec: record → encode → decode deep-equals the record, the
// re-encoded cell is identical, the dispatch API (decodeBody / decodeForwardPayload + encodeBody /
// encodeForwardPayload) agrees, and closed layouts reject trailing data while open ones ignore it.
import { beginCell, type Cell } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import type { Codec } from "../../../../dex/codecs/common.ts";
import {
  type DecodeHint,
  decodeBody,
  decodeForwardPayload,
  encodeBody,
  encodeForwardPayload,
  type KnownBody,
  type KnownPayload,
} from "../../../../dex/codecs/index.ts";
import { BODY_CODECS, PAYLOAD_CODECS } from "../../../../dex/codecs/registry.ts";
import { arbitraryFor, isLayoutCodec } from "./_arbitraries.ts";
import { norm, SEED } from "./_helpers.ts";

const NUM_RUNS = 40;

/** Hints needed where two kinds share op and layout (rules in dex/codecs/index.ts). */
const HINTS: Record<string, DecodeHint> = {
  "stonfi.v1.burn_notification": { dex: "v1" },
  "pton.v1.reset_gas": { pton: true },
  "pton.v2.reset_gas": { pton: true },
  "stonfi.v1.exit_code_payload": { dex: "v1" },
  "stonfi.v2.exit_code_payload": { dex: "v2" },
};

type AnyCodec = Codec<KnownBody> | Codec<KnownPayload>;
const toCell = (c: AnyCodec, x: unknown): Cell => {
  const b = beginCell();
  (c.store as (x: unknown) => (b: ReturnType<typeof beginCell>) => void)(x)(b);
  return b.endCell();
};

const roundTrip = test.macro({
  exec(t, codec: AnyCodec, isPayload: boolean) {
    const arb = arbitraryFor(codec);
    if (arb === undefined) {
      t.fail(`no arbitrary for ${codec.kind}`);
      return;
    }
    const hint = HINTS[codec.kind] ?? {};
    fc.assert(
      fc.property(arb, (x) => {
        const cell = toCell(codec, x);
        const y = codec.decode(cell.beginParse());
        const viaApi = isPayload ? decodeForwardPayload(cell, hint) : decodeBody(cell, hint);
        const again = isPayload ? encodeForwardPayload(y as KnownPayload) : encodeBody(y as KnownBody);
        // ava assertions return booleans, so fast-check sees a failure and reports the seed and counterexample.
        return (
          t.deepEqual(norm(y), norm(x)) &&
          t.true(toCell(codec, y).equals(cell)) &&
          t.deepEqual(norm(viaApi), norm(x)) &&
          t.true(again.equals(cell))
        );
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  },
  title: (_p, codec: AnyCodec) => `round-trip ${codec.kind}`,
});

for (const c of BODY_CODECS) test(roundTrip, c as Codec<KnownBody>, false);
for (const c of PAYLOAD_CODECS) test(roundTrip, c as Codec<KnownPayload>, true);

const trailing = test.macro({
  exec(t, codec: AnyCodec) {
    if (!isLayoutCodec(codec)) {
      t.pass();
      return;
    }
    const arb = arbitraryFor(codec);
    if (arb === undefined) {
      t.fail(`no arbitrary for ${codec.kind}`);
      return;
    }
    fc.assert(
      fc.property(arb, (x) => {
        const cell = toCell(codec, x);
        if (cell.bits.length >= 1023) return true;
        const longer = beginCell().storeSlice(cell.beginParse()).storeBit(true).endCell();
        if (codec.closed) return t.throws(() => codec.decode(longer.beginParse())) !== undefined;
        return t.deepEqual(norm(codec.decode(longer.beginParse())), norm(x));
      }),
      { seed: SEED + 1, numRuns: 10 },
    );
  },
  title: (_p, codec: AnyCodec) => `trailing data ${codec.kind}`,
});

for (const c of [...BODY_CODECS, ...PAYLOAD_CODECS]) test(trailing, c as AnyCodec);
