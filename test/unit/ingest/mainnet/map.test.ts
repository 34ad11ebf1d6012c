/**
 * toncenter v3 Transaction → RawTransaction on the wire shapes of ton-index-go (ingest/mainnet/wire.ts): hashes
 * base64 → hex, shard ids padded to 16 hex digits, `created_at` from its string form, `0x%08x` op codes, a
 * skipped compute phase, the action phase, out-messages in creation order, and errors naming the field.
 */
import test from "ava";
import { rawTransactionFromV3, shardOf } from "../../../../ingest/mainnet/map.ts";
import { v3Transaction } from "../../../../ingest/mainnet/wire.ts";
import { loadTrace } from "../../../helpers/traces.ts";

const ACCOUNT = `0:${"AB".repeat(32)}`;
const OTHER = `0:${"CD".repeat(32)}`;
const b64 = (byte: number) => Buffer.alloc(32, byte).toString("base64");
const hex = (byte: number) => Buffer.alloc(32, byte).toString("hex");
// A real body (the v2 trace's external message) and its op code.
const body = loadTrace("v2-jetton-to-jetton.json").file.transactions[0]!.in_msg!.body_boc;

const message = (over: Record<string, unknown>) => ({
  hash: b64(1),
  source: ACCOUNT,
  destination: OTHER,
  value: "1000",
  fwd_fee: "5",
  created_lt: "20",
  created_at: "1700000000",
  opcode: "0x0f8a7ea5",
  bounce: true,
  bounced: false,
  message_content: { hash: b64(9), body, decoded: null },
  init_state: null,
  ...over,
});

const wire = (over: Record<string, unknown> = {}) =>
  v3Transaction.parse({
    account: ACCOUNT,
    hash: b64(2),
    lt: "19",
    now: 1700000000,
    mc_block_seqno: 40,
    trace_id: b64(3),
    prev_trans_hash: b64(4),
    prev_trans_lt: "7",
    orig_status: "active",
    end_status: "active",
    description: {
      type: "ord",
      aborted: false,
      compute_ph: { skipped: false, success: true, exit_code: 0 },
      action: { success: true, result_code: 0 },
    },
    block_ref: { workchain: 0, shard: "6000000000000000", seqno: 55 },
    in_msg: message({
      hash: b64(5),
      source: null,
      value: null,
      fwd_fee: null,
      created_lt: null,
      created_at: null,
      bounce: null,
      bounced: null,
      opcode: "0xe061bafe",
    }),
    out_msgs: [
      message({ hash: b64(6), created_lt: "21" }),
      message({ hash: b64(7), created_lt: "20", init_state: { hash: b64(8), body, decoded: null } }),
    ],
    ...over,
  });

test("a v3 transaction maps field by field", (t) => {
  const { tx, traceId } = rawTransactionFromV3(wire());
  t.is(traceId, b64(3));
  t.is(tx.hash, hex(2));
  t.is(tx.shard, "0:6000000000000000");
  t.is(tx.block_seqno, 55);
  t.is(tx.mc_seqno, 40);
  t.deepEqual(tx.compute, { success: true, exit_code: 0 });
  t.deepEqual(tx.action, { success: true, result_code: 0 });
  t.is(tx.prev_trans_hash, hex(4));
  t.is(tx.prev_trans_lt, "7");
  t.is(tx.orig_status, "active");
  t.deepEqual(tx.in_msg, {
    hash: hex(5),
    source: null,
    destination: OTHER,
    value: null,
    fwd_fee: null,
    bounce: null,
    bounced: null,
    created_lt: null,
    created_at: null,
    opcode: 0xe061bafe,
    body_boc: body,
  });
  // Creation order: created_lt 20 before 21; the StateInit kept.
  t.deepEqual(
    tx.out_msgs.map((m) => [m.hash, m.created_lt, m.created_at, m.opcode, m.init_boc]),
    [
      [hex(7), "20", 1700000000, 0x0f8a7ea5, body],
      [hex(6), "21", 1700000000, 0x0f8a7ea5, undefined],
    ],
  );
});

test("a skipped compute phase, no action phase, a tick-tock transaction without messages", (t) => {
  const { tx, traceId } = rawTransactionFromV3(
    wire({
      description: { type: "tick_tock", compute_ph: { skipped: true, reason: "no_state" } },
      in_msg: null,
      out_msgs: [],
      trace_id: undefined,
      block_ref: { workchain: -1, shard: "8000000000000000", seqno: 40 },
    }),
  );
  t.deepEqual(tx.compute, { success: false, exit_code: null });
  t.is(tx.action, null);
  t.is(tx.aborted, false);
  t.is(tx.in_msg, null);
  t.is(traceId, null);
  t.is(tx.shard, "-1:8000000000000000");
});

test("shard ids are padded to 16 hex digits", (t) => {
  t.is(shardOf(0, "800000000000000"), "0:0800000000000000");
  t.is(shardOf(0, "e000000000000000"), "0:E000000000000000");
});

test("a message without a body, or an unknown status, is an error naming it", (t) => {
  t.throws(() => rawTransactionFromV3(wire({ out_msgs: [message({ message_content: null })] })), {
    message: /message .* has no message_content\.body/,
  });
  t.throws(() => rawTransactionFromV3(wire({ orig_status: "deleted" })), { message: /\/orig_status: / });
});
