/**
 * TraceWindow on its own: the real mainnet traces (test/vectors/mainnet-traces) through the real classifier,
 * whole and block by block, and synthetic windows with a stand-in classifier for the boundaries: a trace
 * split across batches, a late child arriving after its operation left the window, the flush at the end of
 * a finite source.
 */
import test from "ava";
import { classify, type Operation } from "../../../dex/classify/index.ts";
import { type Classifier, TraceWindow } from "../../../processors/core/window.ts";
import { RAW_TX_VERSION, type RawMessage, type RawTransaction } from "../../../schemas/raw-transaction.ts";
import { type LoadedTrace, loadAllTraces } from "../../helpers/traces.ts";

const traces = loadAllTraces();
const isLeftover = (op: Operation) => op.type === "unknown" || op.type === "malformed";
const classifierOf =
  (trace: LoadedTrace): Classifier =>
  (txs) =>
    classify(txs, { jettonMasters: trace.masters });
const blocksOf = (txs: readonly RawTransaction[]): RawTransaction[][] => {
  const mcs = [...new Set(txs.map((tx) => tx.mc_seqno))].sort((a, b) => a - b);
  return mcs.map((mc) => txs.filter((tx) => tx.mc_seqno === mc));
};
const byId = (ops: readonly Operation[]) => [...ops].sort((a, b) => a.id.localeCompare(b.id));

const wholeTrace = test.macro({
  exec(t, trace: LoadedTrace) {
    const window = new TraceWindow(100);
    window.add(trace.txs);
    const expected = classify(trace.txs, { jettonMasters: trace.masters }).filter((o) => !isLeftover(o));
    t.true(expected.length > 0);
    // Every block but the newest is stepped (the newest may still be cut by the batch); nothing leaves.
    const step = window.step(classifierOf(trace));
    t.deepEqual(step.evicted, []);
    t.deepEqual(window.step(classifierOf(trace)).released, [], "nothing more without a later block");
    const flush = window.step(classifierOf(trace), true);
    // Every trace is recorded whole: each operation is complete, so released once, with its whole trace.
    t.deepEqual(byId([...step.released, ...flush.released]), byId(expected));
    t.deepEqual(
      flush.evicted.map((b) => b.mc_seqno),
      blocksOf(trace.txs).map((b) => b[0]!.mc_seqno),
    );
    t.is(flush.evicted.flatMap((b) => b.transactions).length, trace.txs.length);
    t.deepEqual(window.transactions(), []);
    t.deepEqual(window.step(classifierOf(trace), true).released, [], "released once");
  },
  title: (_, trace: LoadedTrace) => `${trace.name}: a whole trace is released complete, once`,
});

const blockByBlock = test.macro({
  exec(t, trace: LoadedTrace) {
    const whole = new TraceWindow(100);
    whole.add(trace.txs);
    const expected = whole.step(classifierOf(trace), true).released;
    const window = new TraceWindow(100);
    const released: Operation[] = [];
    for (const block of blocksOf(trace.txs)) {
      window.add(block);
      released.push(...window.step(classifierOf(trace)).released);
    }
    released.push(...window.step(classifierOf(trace), true).released);
    // Deep-equal to the whole trace's: no field depends on where the batches were cut.
    t.deepEqual(byId(released), byId(expected));
  },
  title: (_, trace: LoadedTrace) => `${trace.name}: one block per batch releases what the whole trace does`,
});

const shallowWindow = test.macro({
  exec(t, trace: LoadedTrace) {
    const expected = new Map(
      classify(trace.txs, { jettonMasters: trace.masters }).map((o) => [o.id, o] as const),
    );
    // Three masterchain blocks: every operation's anchor leaves before its trace completes.
    const window = new TraceWindow(3);
    const released: Operation[] = [];
    for (const block of blocksOf(trace.txs)) {
      window.add(block);
      released.push(...window.step(classifierOf(trace)).released);
    }
    released.push(...window.step(classifierOf(trace), true).released);
    const ids = released.map((o) => o.id);
    t.deepEqual(ids, [...new Set(ids)], "no operation released twice");
    const covered = new Set(released.flatMap((o) => ("tx_hashes" in o ? o.tx_hashes : [])));
    for (const op of released) {
      if (isLeftover(op)) {
        t.false(covered.has(op.tx_hash), "a leftover on a transaction an operation covers is not released");
        continue;
      }
      // What the anchor transaction says does not depend on the window: same id, anchor and parties.
      const full = expected.get(op.id);
      t.truthy(full, op.id);
      // (A vault deposit's pool is read from its parent, the pool's transaction: not an anchor fact.)
      const keys = ["type", "tx_hash", "lt", "query_id", ...(op.type === "swap" ? ["router", "pool"] : [])];
      for (const key of keys) {
        t.deepEqual(
          (op as Record<string, unknown>)[key],
          (full as Record<string, unknown>)[key],
          `${op.type} ${key}`,
        );
      }
    }
    t.true(released.some((o) => !isLeftover(o)));
  },
  title: (_, trace: LoadedTrace) =>
    `${trace.name}: a window shallower than the trace releases each operation once`,
});

for (const trace of traces) {
  test(wholeTrace, trace);
  test(blockByBlock, trace);
  test(shallowWindow, trace);
}

// Synthetic windows. A transaction is named by a letter; `to` names the transactions its messages reach.
const SWAP = 1; // opcode of a message that starts an operation (stand-in classifier below)
const POOL = 2; // opcode of a message the stand-in cannot explain without its parent

function msg(hash: string, opcode: number | null, to = "0:B"): RawMessage {
  return {
    hash,
    source: "0:A",
    destination: to,
    value: "1",
    fwd_fee: "0",
    bounce: false,
    bounced: false,
    created_lt: "1",
    created_at: 1,
    opcode,
    body_boc: "te6ccgEBAQEAAgAAAA==",
  };
}

/** Transaction `name` at block `mc`, received `in` (a message hash + opcode), sending messages `out`. */
function tx(name: string, mc: number, inMsg: [string, number | null], out: string[] = []): RawTransaction {
  return {
    version: RAW_TX_VERSION,
    mc_seqno: mc,
    shard: null,
    block_seqno: null,
    hash: name.repeat(64).slice(0, 64),
    lt: String(mc * 10),
    now: mc,
    account: `0:${name.repeat(64).slice(0, 64).toUpperCase()}`,
    aborted: false,
    compute: { success: true, exit_code: 0 },
    action: null,
    in_msg: msg(inMsg[0], inMsg[1]),
    out_msgs: out.map((h) => msg(h, null)),
  };
}

/**
 * Stand-in classifier: a transaction receiving SWAP anchors a swap over every transaction its messages
 * reach in the window; one receiving POOL whose sender is not in the window is a leftover ("unknown").
 */
const standIn: Classifier = (txs) => {
  const receiver = new Map(txs.filter((t) => t.in_msg !== null).map((t) => [t.in_msg!.hash, t] as const));
  const sent = new Set(txs.flatMap((t) => t.out_msgs.map((m) => m.hash)));
  const ops: Operation[] = [];
  for (const root of txs) {
    if (root.in_msg?.opcode === SWAP) {
      const hashes: string[] = [];
      const queue = [root];
      while (queue.length > 0) {
        const next = queue.shift()!;
        hashes.push(next.hash);
        for (const m of next.out_msgs) if (receiver.has(m.hash)) queue.push(receiver.get(m.hash)!);
      }
      ops.push({ type: "swap", id: `${root.hash}:swap`, tx_hash: root.hash, tx_hashes: hashes } as never);
    } else if (root.in_msg?.opcode === POOL && !sent.has(root.in_msg.hash)) {
      ops.push({ type: "unknown", id: `${root.hash}:unknown`, tx_hash: root.hash, reason: "cut" } as never);
    }
  }
  return ops;
};

const summary = (ops: readonly Operation[]) =>
  ops.map(
    (o) => `${o.type}:${o.tx_hash[0]}${"tx_hashes" in o ? `[${o.tx_hashes.map((h) => h[0]).join("")}]` : ""}`,
  );

test("a trace split across batches is released once its last message is received, whole", (t) => {
  const w = new TraceWindow(24);
  w.add([tx("a", 10, ["01", SWAP], ["12"])]);
  t.deepEqual(w.step(standIn).released, [], "a's message to b is not received yet");
  w.add([tx("b", 11, ["12", POOL], ["23"])]);
  t.deepEqual(w.step(standIn).released, []);
  w.add([tx("c", 12, ["23", null])]);
  t.deepEqual(w.step(standIn).released, [], "block 12 waits for a later block: a batch may end inside it");
  w.add([tx("d", 13, ["34", null])]);
  const step = w.step(standIn);
  t.deepEqual(summary(step.released), ["swap:a[abc]"]);
  t.deepEqual(step.evicted, [], "released before any block leaves the window");
  w.add([tx("e", 14, ["45", null])]);
  t.deepEqual(w.step(standIn).released, [], "not released again while its blocks stay in the window");
  t.is(w.head, 14);
  t.is(w.oldest, 10);
});

test("a step sees the blocks up to its own, whatever else the batch held", (t) => {
  // c (block 12) completes a's trace, but the step of block 10 does not see it: a waits like it would
  // have, had block 12 come in a later batch.
  const w = new TraceWindow(24);
  w.add([tx("a", 10, ["01", SWAP], ["12"]), tx("b", 11, ["12", POOL], ["23"]), tx("c", 12, ["23", null])]);
  const first = w.next(standIn);
  t.deepEqual(first?.released, []);
  t.deepEqual(w.next(standIn)?.released, [], "block 11: c not seen yet");
  t.is(w.next(standIn), null, "block 12 is the newest: it waits");
  t.deepEqual(summary(w.next(standIn, true)?.released ?? []), ["swap:a[abc]"], "the flush steps block 12");
});

test("a block whose end marker was read is stepped at once, without waiting for a later block", (t) => {
  const w = new TraceWindow(24);
  w.add([tx("a", 10, ["01", SWAP], ["12"]), tx("b", 11, ["12", null])]);
  t.deepEqual(w.step(standIn).released, [], "block 11 may still be cut by the batch");
  w.whole(11);
  t.deepEqual(summary(w.step(standIn).released), ["swap:a[ab]"]);
  w.whole(9);
  t.deepEqual(w.step(standIn).released, [], "an older marker changes nothing");
});

test("a late child: the operation leaves with its trace cut, once; the cut part is not a leftover", (t) => {
  const w = new TraceWindow(2);
  w.add([tx("a", 10, ["01", SWAP], ["12"])]);
  t.deepEqual(w.step(standIn).released, []);
  w.add([tx("b", 12, ["12", POOL], ["23"])]);
  t.deepEqual(w.step(standIn).released, [], "block 10's step: b not seen yet, a not leaving (10 > 10 − 2)");
  // b stays: without a the stand-in cannot explain it, but a released operation covers it.
  w.add([tx("c", 15, ["23", null])]);
  const left = w.step(standIn);
  t.deepEqual(summary(left.released), ["swap:a[ab]"], "block 12's step: a left (10 ≤ 12 − 2), incomplete");
  t.deepEqual(
    left.evicted.map((b) => b.mc_seqno),
    [10],
  );
  const flush = w.step(standIn, true);
  t.deepEqual(flush.released, [], "b's leftover is suppressed; c (the late child) releases nothing");
  t.deepEqual(
    flush.evicted.map((b) => b.mc_seqno),
    [12, 15],
  );
});

test("an unexplained transaction no operation covers is released as a leftover when it leaves", (t) => {
  const w = new TraceWindow(2);
  w.add([tx("e", 10, ["0e", POOL])]);
  t.deepEqual(w.step(standIn).released, [], "a later transaction may still explain it");
  w.add([tx("f", 12, ["0f", null])]);
  t.deepEqual(w.step(standIn).released, []);
  w.add([tx("g", 13, ["0g", null])]);
  t.deepEqual(summary(w.step(standIn).released), ["unknown:e"], "block 12's step: e left (10 ≤ 12 − 2)");
});

test("the flush at the end of a finite source releases what still waits, and empties the window", (t) => {
  const w = new TraceWindow(24);
  w.add([tx("a", 10, ["01", SWAP], ["12"]), tx("e", 10, ["0e", POOL])]);
  w.add([tx("b", 11, ["12", POOL], ["23"])]);
  t.deepEqual(w.step(standIn).released, [], "c never comes: incomplete, and nothing is 24 blocks old");
  const flush = w.step(standIn, true);
  t.deepEqual(summary(flush.released), ["swap:a[ab]", "unknown:e"]);
  t.deepEqual(
    flush.evicted.map((b) => [b.mc_seqno, b.transactions.length]),
    [
      [10, 2],
      [11, 1],
    ],
  );
  t.deepEqual(w.transactions(), []);
  t.deepEqual(w.step(standIn, true).released, []);
});

test("operations anchored below releaseFrom (re-read after a restart) are never released", (t) => {
  const w = new TraceWindow(24, 11);
  w.add([tx("a", 10, ["01", SWAP], ["12"]), tx("b", 11, ["12", POOL], ["23"]), tx("c", 12, ["23", null])]);
  w.add([tx("g", 11, ["0g", SWAP])]);
  t.deepEqual(summary(w.step(standIn).released), ["swap:g[g]"], "a (block 10) was released before");
  t.deepEqual(w.step(standIn, true).released, []);
  t.is(new TraceWindow(24, 11).oldest, 11);
  t.throws(() => new TraceWindow(0), { instanceOf: RangeError });
});
