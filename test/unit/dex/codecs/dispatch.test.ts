// decodeBody / decodeForwardPayload: shared-op rules, unknown and malformed input, and a fuzz showing that
// neither ever throws (random bit strings, random refs, truncations of real bodies).
import { beginCell, Cell } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { decodeBody, decodeForwardPayload, encodeBody } from "../../../../dex/codecs/index.ts";
import { STONFI_V2_OP } from "../../../../dex/codecs/stonfi/v2/opcodes.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { readVectorJson, SEED } from "./_helpers.ts";

const head = (op: number, q = 7n) => beginCell().storeUint(op, 32).storeUint(q, 64);

type Case = { name: string; cell: Cell; hint?: { dex?: "v1" | "v2"; pton?: boolean }; kind: string };
const CASES: Case[] = [
  {
    name: "v2 reset_gas, nothing after query_id",
    cell: head(0x29d22935).endCell(),
    kind: "stonfi.v2.reset_gas",
  },
  {
    name: "v2 reset_gas with excesses → pool form",
    cell: head(0x29d22935).storeAddress(null).endCell(),
    kind: "stonfi.v2.reset_gas_pool",
  },
  {
    name: "v2 reset_gas with hint pton",
    cell: head(0x29d22935).endCell(),
    hint: { pton: true },
    kind: "pton.v2.reset_gas",
  },
  { name: "v1 reset_gas", cell: head(0x42a0fb43).endCell(), kind: "stonfi.v1.reset_gas" },
  {
    name: "v1 reset_gas with hint pton",
    cell: head(0x42a0fb43).endCell(),
    hint: { pton: true },
    kind: "pton.v1.reset_gas",
  },
  {
    name: "burn_notification default",
    cell: head(0x7bdd97de).storeCoins(1n).storeAddress(null).storeAddress(null).endCell(),
    kind: "jetton.burn_notification",
  },
  {
    name: "burn_notification with hint v1",
    cell: head(0x7bdd97de).storeCoins(1n).storeAddress(null).storeAddress(null).endCell(),
    hint: { dex: "v1" },
    kind: "stonfi.v1.burn_notification",
  },
  { name: "v1 collect_fees to pool", cell: head(0x1fcb7d3d).endCell(), kind: "stonfi.v1.collect_fees_pool" },
  {
    name: "v1 collect_fees admin form",
    cell: head(0x1fcb7d3d).storeAddress(null).storeAddress(null).endCell(),
    kind: "stonfi.v1.collect_fees",
  },
  {
    name: "v1 set_fees pool form",
    cell: head(0x355423e5).storeUint(1, 24).storeAddress(null).endCell(),
    kind: "stonfi.v1.set_fees_pool",
  },
  {
    name: "v1 set_fees admin form",
    cell: head(0x355423e5)
      .storeUint(1, 24)
      .storeAddress(null)
      .storeRef(beginCell().storeUint(0, 4))
      .endCell(),
    kind: "stonfi.v1.set_fees",
  },
];

const shared = test.macro({
  exec(t, c: Case) {
    const d = decodeBody(c.cell, c.hint);
    t.is(d.kind as string, c.kind);
    if (d.kind !== "unknown" && d.kind !== "malformed") t.true(encodeBody(d).equals(c.cell));
  },
  title: (_p, c: Case) => `shared op: ${c.name}`,
});
for (const c of CASES) test(shared, c);

test("exit-code payloads: 32 bits, family by hint, else by value", (t) => {
  const cell = (code: number) => beginCell().storeUint(code, 32).endCell();
  t.deepEqual(decodeForwardPayload(cell(STONFI_EXIT_CODE.swap_ok)), {
    kind: "stonfi.v1.exit_code_payload",
    exitCode: STONFI_EXIT_CODE.swap_ok,
  });
  t.deepEqual(decodeForwardPayload(cell(0)), { kind: "stonfi.v1.exit_code_payload", exitCode: 0 });
  t.deepEqual(decodeForwardPayload(cell(STONFI_EXIT_CODE.transfer_bounce_low_gas)), {
    kind: "stonfi.v2.exit_code_payload",
    exitCode: STONFI_EXIT_CODE.transfer_bounce_low_gas,
  });
  t.deepEqual(decodeForwardPayload(cell(STONFI_EXIT_CODE.transfer_bounce_locked), { dex: "v1" }), {
    kind: "stonfi.v1.exit_code_payload",
    exitCode: STONFI_EXIT_CODE.transfer_bounce_locked,
  });
  t.deepEqual(decodeForwardPayload(cell(STONFI_EXIT_CODE.swap_ok), { dex: "v2" }), {
    kind: "stonfi.v2.exit_code_payload",
    exitCode: STONFI_EXIT_CODE.swap_ok,
  });
});

test("unknown op, empty and short cells give `unknown` with a reason", (t) => {
  t.deepEqual(decodeBody(head(0x12345678).endCell()), {
    kind: "unknown",
    op: 0x12345678,
    reason: "unknown op 0x12345678",
  });
  t.deepEqual(decodeBody(Cell.EMPTY), { kind: "unknown", op: null, reason: "empty cell" });
  t.is(decodeBody(beginCell().storeUint(1, 31).endCell()).kind, "unknown");
  t.deepEqual(decodeForwardPayload(Cell.EMPTY), { kind: "unknown", op: null, reason: "empty cell" });
  t.is(decodeForwardPayload(beginCell().storeUint(0xabcdef01, 32).storeBit(1).endCell()).kind, "unknown");
});

test("a known op with a truncated or wrong body gives `malformed` naming the family", (t) => {
  const d = decodeBody(head(STONFI_V2_OP.pay_to).storeAddress(null).endCell());
  t.is(d.kind, "malformed");
  if (d.kind === "malformed") {
    t.is(d.family, "stonfi.v2.pay_to");
    t.is(d.op, STONFI_V2_OP.pay_to);
    t.true(d.reason.length > 0);
  }
  // a v2 swap payload where a message body is expected: no query_id/addresses in the right places
  const p = decodeForwardPayload(beginCell().storeUint(STONFI_V2_OP.swap, 32).storeUint(3, 2).endCell());
  t.is(p.kind, "malformed");
});

const randomCell: fc.Arbitrary<Cell> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...Object.values(STONFI_V2_OP), 0x0f8a7ea5, 0x25938561, 0xf93bb43f),
      fc.integer({ min: 0, max: 0xffffffff }),
    ),
    fc.array(fc.boolean(), { maxLength: 900 }),
    fc.array(fc.array(fc.boolean(), { maxLength: 300 }), { maxLength: 4 }),
    fc.boolean(),
  )
  .map(([op, bits, refs, withOp]) => {
    const b = beginCell();
    if (withOp) b.storeUint(op, 32);
    for (const bit of bits.slice(0, withOp ? 991 : 1023)) b.storeBit(bit);
    for (const r of refs) {
      const c = beginCell();
      for (const bit of r) c.storeBit(bit);
      b.storeRef(c.endCell());
    }
    return b.endCell();
  });

test("fuzz: random cells never make the decoders throw", (t) => {
  fc.assert(
    fc.property(randomCell, fc.constantFrom({}, { dex: "v1" as const }, { pton: true }), (cell, hint) => {
      const d = decodeBody(cell, hint);
      const p = decodeForwardPayload(cell);
      return typeof d.kind === "string" && typeof p.kind === "string";
    }),
    { seed: SEED, numRuns: 400 },
  );
  t.pass();
});

test("fuzz: every truncation of every vector body decodes without throwing", (t) => {
  const vectors = readVectorJson<{ body_boc: string }[]>("messages/stonfi-messages.json");
  let malformed = 0;
  for (const v of vectors) {
    const cell = Cell.fromBase64(v.body_boc);
    for (let bits = 0; bits < cell.bits.length; bits += 7) {
      const s = cell.beginParse();
      const cut = beginCell().storeBits(s.loadBits(bits)).endCell();
      const d = decodeBody(cut);
      t.true(d.kind === "unknown" || d.kind === "malformed" || bits >= 96, `${bits} bits gave ${d.kind}`);
      if (d.kind === "malformed") malformed++;
      decodeForwardPayload(cut);
    }
  }
  t.true(malformed > 0);
});
