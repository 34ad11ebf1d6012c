/**
 * Robustness (seeded, reproducible): the classifier never throws and always returns operations of the
 * documented schema, whatever happens to the recorded traces — truncated cells, flipped bits, wrong op
 * codes, corrupt BOCs, bounced messages, dropped transactions, unrelated traffic mixed in. What it cannot
 * explain comes back as `unknown` / `malformed` entries with a reason.
 */
import { createHash } from "node:crypto";
import { beginCell, Cell } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { classify } from "../../../../dex/classify/index.ts";
import { operationToJson } from "../../../../dex/classify/json.ts";
import { operationJson } from "../../../../schemas/operations.ts";
import type { RawMessage, RawTransaction } from "../../../../schemas/raw-transaction.ts";
import { loadAllTraces } from "../../../helpers/traces.ts";

const SEED = 0x70d3;
const traces = loadAllTraces();
const STONFI_OPS = [
  0x25938561, 0xf93bb43f, 0x6664de2a, 0x657b54f5, 0x63381632, 0x0490f09b, 0x7362d09c, 0x0f8a7ea5, 0x178d4519,
  0x01f3835d,
];

type Mutation =
  | { kind: "truncate"; keepBits: number }
  | { kind: "flip_bit"; bit: number }
  | { kind: "wrong_op"; op: number }
  | { kind: "corrupt_boc"; byte: number }
  | { kind: "bounce" };

function mutateBody(body: Cell, m: Mutation): string {
  const bits = body.bits;
  const keep = (n: number) => beginCell().storeBits(bits.substring(0, Math.min(n, bits.length)));
  switch (m.kind) {
    case "truncate":
      return keep(m.keepBits % (bits.length + 1))
        .endCell()
        .toBoc()
        .toString("base64");
    case "flip_bit": {
      if (bits.length === 0) return body.toBoc().toString("base64");
      const i = m.bit % bits.length;
      const b = beginCell();
      for (let k = 0; k < bits.length; k++) b.storeBit(k === i ? !bits.at(k) : bits.at(k));
      for (const r of body.refs) b.storeRef(r);
      return b.endCell().toBoc().toString("base64");
    }
    case "wrong_op": {
      const b = beginCell().storeUint(m.op >>> 0, 32);
      if (bits.length > 32) b.storeBits(bits.substring(32, bits.length - 32));
      for (const r of body.refs) b.storeRef(r);
      return b.endCell().toBoc().toString("base64");
    }
    default:
      return body.toBoc().toString("base64");
  }
}

function applyMutation(txs: RawTransaction[], target: string, m: Mutation): RawTransaction[] {
  const edit = (msg: RawMessage): RawMessage => {
    if (msg.hash !== target) return msg;
    if (m.kind === "bounce") return { ...msg, bounced: true };
    if (m.kind === "corrupt_boc") {
      const bytes = Buffer.from(msg.body_boc, "base64");
      const i = m.byte % bytes.length;
      bytes[i] = (bytes[i] ?? 0) ^ 0xff;
      return { ...msg, body_boc: bytes.toString("base64") };
    }
    let body: Cell;
    try {
      body = Cell.fromBase64(msg.body_boc);
    } catch {
      return msg; // already corrupted by an earlier mutation
    }
    return { ...msg, body_boc: mutateBody(body, m) };
  };
  return txs.map((t) => ({ ...t, in_msg: t.in_msg ? edit(t.in_msg) : null, out_msgs: t.out_msgs.map(edit) }));
}

/** A transaction of some other contract with a random body. */
function noiseTx(seed: number, bytes: Uint8Array): RawTransaction {
  const h = (s: string) => createHash("sha256").update(`${seed}:${s}`).digest("hex");
  const body = beginCell()
    .storeBuffer(Buffer.from(bytes.slice(0, 127)))
    .endCell()
    .toBoc()
    .toString("base64");
  const account = `0:${h("acc").toUpperCase()}`;
  const msg: RawMessage = {
    hash: h("msg"),
    source: `0:${h("src").toUpperCase()}`,
    destination: account,
    value: "1",
    fwd_fee: "1",
    bounce: true,
    bounced: false,
    created_lt: "1",
    created_at: 1,
    opcode: bytes.length >= 4 ? Buffer.from(bytes).readUInt32BE(0) : null,
    body_boc: body,
  };
  return {
    version: "raw-tx.v1",
    mc_seqno: 1,
    shard: null,
    block_seqno: null,
    hash: h("tx"),
    lt: String(seed),
    now: 1,
    account,
    aborted: false,
    compute: { success: true, exit_code: 0 },
    action: null,
    in_msg: msg,
    out_msgs: [],
  };
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), keepBits: fc.nat(1100) }),
  fc.record({ kind: fc.constant("flip_bit" as const), bit: fc.nat(1100) }),
  fc.record({
    kind: fc.constant("wrong_op" as const),
    op: fc.oneof(fc.constantFrom(...STONFI_OPS), fc.nat(0xffffffff)),
  }),
  fc.record({ kind: fc.constant("corrupt_boc" as const), byte: fc.nat(400) }),
  fc.record({ kind: fc.constant("bounce" as const) }),
);

function assertWellFormed(txs: RawTransaction[]): { entries: number } {
  const ops = classify(txs);
  let entries = 0;
  for (const op of ops) {
    const parsed = operationJson.safeParse(operationToJson(op));
    if (!parsed.success) throw new Error(`schema violation in ${op.id}: ${parsed.error.message}`);
    if (op.type === "unknown" || op.type === "malformed") {
      if (op.reason.length === 0) throw new Error(`${op.id} has no reason`);
      // The per-stage safety net must stay unused: bad input is data, not a classifier bug.
      if (op.reason.startsWith("classifier stage")) throw new Error(op.reason);
      entries++;
    }
  }
  return { entries };
}

test("mutated traces never make the classifier throw", (t) => {
  let entries = 0;
  let runs = 0;
  fc.assert(
    fc.property(
      fc.nat(traces.length - 1),
      fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 3 }),
      (traceIndex, mutations, drops) => {
        const trace = traces[traceIndex]!;
        const hashes = [
          ...new Set(trace.txs.flatMap((x) => [x.in_msg, ...x.out_msgs].flatMap((m) => (m ? [m.hash] : [])))),
        ];
        let txs = trace.txs;
        for (const [pick, m] of mutations) txs = applyMutation(txs, hashes[pick % hashes.length]!, m);
        const dropped = new Set(drops.map((d) => txs[d % txs.length]!.hash));
        entries += assertWellFormed(txs.filter((x) => !dropped.has(x.hash))).entries;
        runs++;
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
  t.log(`${runs} mutated batches, ${entries} unknown/malformed entries`);
  t.true(entries > 0, "corruption is reported, not swallowed");
});

test("unrelated traffic mixed into a trace yields nothing extra", (t) => {
  fc.assert(
    fc.property(
      fc.nat(traces.length - 1),
      fc.array(fc.uint8Array({ maxLength: 140 }), { maxLength: 20 }),
      (i, noise) => {
        const trace = traces[i]!;
        const clean = classify(trace.txs).length;
        const mixed = [...noise.map((bytes, k) => noiseTx(k + 1, bytes)), ...trace.txs];
        const ops = classify(mixed);
        return (
          ops.length >= clean &&
          ops.filter((o) => o.type === "swap").length ===
            classify(trace.txs).filter((o) => o.type === "swap").length
        );
      },
    ),
    { seed: SEED, numRuns: 100 },
  );
  t.pass();
});

test("a bounced core STON.fi message or a corrupt pay_to becomes an entry with a reason", (t) => {
  const trace = traces.find((x) =>
    x.txs.some((tx) => tx.in_msg?.opcode === 0xf93bb43f || tx.in_msg?.opcode === 0x657b54f5),
  )!;
  const payTo = trace.txs.find((tx) => tx.in_msg?.opcode === 0xf93bb43f || tx.in_msg?.opcode === 0x657b54f5)!
    .in_msg!;
  const broken = applyMutation(trace.txs, payTo.hash, { kind: "truncate", keepBits: 100 });
  const ops = classify(broken);
  const entry = ops.find((o) => o.type === "malformed" && o.msg_hash === payTo.hash);
  t.truthy(entry, JSON.stringify(ops.map(operationToJson)));
  t.regex(entry && "reason" in entry ? entry.reason : "", /pay_to/);
  const swap = ops.find((o) => o.type === "swap");
  t.true(swap === undefined || (swap.type === "swap" && swap.success !== true));
});
