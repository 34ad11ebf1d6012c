/**
 * rawTransactionFromTonCore on @ton/core Transactions rebuilt from recorded mainnet transactions:
 * storeTransaction → BOC → loadTransaction → RawTransaction must give back the recorded messages.
 */
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  type DictionaryValue,
  loadMessage,
  loadStateInit,
  loadTransaction,
  type Message,
  storeMessage,
  storeTransaction,
  type Transaction,
} from "@ton/core";
import test from "ava";
import { rawTransactionFromTonCore } from "../../../schemas/from-ton-core.ts";
import {
  parseRawTransaction,
  type RawMessage,
  type RawTransaction,
} from "../../../schemas/raw-transaction.ts";
import { loadAllTraces } from "../../helpers/traces.ts";

function toMessage(m: RawMessage): Message {
  const body = Cell.fromBase64(m.body_boc);
  const init = m.init_boc ? loadStateInit(Cell.fromBase64(m.init_boc).beginParse()) : undefined;
  if (m.source === null) {
    return {
      info: { type: "external-in", dest: Address.parseRaw(m.destination!), importFee: 0n },
      body,
      init,
    };
  }
  if (m.destination === null) {
    const info = {
      type: "external-out" as const,
      src: Address.parseRaw(m.source),
      createdLt: BigInt(m.created_lt!),
      createdAt: m.created_at!,
    };
    return { info, body, init };
  }
  return {
    info: {
      type: "internal",
      ihrDisabled: true,
      bounce: m.bounce!,
      bounced: m.bounced!,
      src: Address.parseRaw(m.source),
      dest: Address.parseRaw(m.destination),
      value: { coins: BigInt(m.value!) },
      ihrFee: 0n,
      forwardFee: BigInt(m.fwd_fee!),
      createdLt: BigInt(m.created_lt!),
      createdAt: m.created_at!,
    },
    body,
    init,
  };
}

const messageValue: DictionaryValue<Message> = {
  serialize: (src, b) => {
    b.storeRef(beginCell().store(storeMessage(src)));
  },
  parse: (s) => loadMessage(s.loadRef().beginParse()),
};

function toTonCore(tx: RawTransaction): Transaction {
  const outs = Dictionary.empty(Dictionary.Keys.Uint(15), messageValue);
  for (const [i, m] of tx.out_msgs.entries()) outs.set(i, toMessage(m));
  const built: Omit<Transaction, "raw" | "hash"> = {
    address: BigInt(`0x${tx.account.split(":")[1]}`),
    lt: BigInt(tx.lt),
    prevTransactionHash: 0n,
    prevTransactionLt: 0n,
    now: tx.now,
    outMessagesCount: tx.out_msgs.length,
    oldStatus: "active",
    endStatus: "active",
    inMessage: tx.in_msg ? toMessage(tx.in_msg) : undefined,
    outMessages: outs,
    totalFees: { coins: 0n },
    stateUpdate: { oldHash: Buffer.alloc(32), newHash: Buffer.alloc(32) },
    description: {
      type: "generic",
      creditFirst: false,
      computePhase: {
        type: "vm",
        success: tx.compute.success,
        messageStateUsed: false,
        accountActivated: false,
        gasFees: 0n,
        gasUsed: 0n,
        gasLimit: 0n,
        mode: 0,
        exitCode: tx.compute.exit_code ?? 0,
        vmSteps: 0,
        vmInitStateHash: 0n,
        vmFinalStateHash: 0n,
      },
      actionPhase: {
        success: true,
        valid: true,
        noFunds: false,
        statusChange: "unchanged",
        resultCode: 0,
        totalActions: tx.out_msgs.length,
        specActions: 0,
        skippedActions: 0,
        messagesCreated: tx.out_msgs.length,
        actionListHash: 0n,
        totalMessageSize: { cells: 0n, bits: 0n },
      },
      aborted: tx.aborted,
      destroyed: false,
    },
  };
  const cell = beginCell()
    .store(storeTransaction(built as Transaction))
    .endCell();
  return loadTransaction(Cell.fromBoc(cell.toBoc())[0]!.beginParse());
}

const block = { mc_seqno: 1, workchain: 0, shard: -(2n ** 63n), block_seqno: 7 };

test("a rebuilt mainnet transaction maps back to the recorded RawTransaction", (t) => {
  let sameHashes = 0;
  let messages = 0;
  for (const trace of loadAllTraces()) {
    for (const recorded of trace.txs) {
      const tx = toTonCore(recorded);
      const raw = rawTransactionFromTonCore(tx, block);
      const valid = parseRawTransaction(raw);
      t.true(valid.ok, valid.ok ? "" : valid.errors.join("; "));
      t.is(raw.hash, tx.hash().toString("hex"));
      t.is(raw.shard, "0:8000000000000000");
      t.is(raw.account, recorded.account);
      t.is(raw.lt, recorded.lt);
      t.deepEqual(raw.action, { success: true, result_code: 0 });
      t.is(raw.boc, tx.raw.toBoc().toString("base64"));
      const pairs: Array<[RawMessage | null, RawMessage | null]> = [
        [raw.in_msg, recorded.in_msg],
        ...raw.out_msgs.map((m, i) => [m, recorded.out_msgs[i] ?? null] as [RawMessage, RawMessage | null]),
      ];
      for (const [got, want] of pairs) {
        if (!got || !want) {
          t.is(got, want);
          continue;
        }
        const { hash, body_boc, init_boc, ...fields } = got;
        const { hash: wantHash, body_boc: wantBody, init_boc: wantInit, ...wantFields } = want;
        t.deepEqual(fields, wantFields);
        t.true(Cell.fromBase64(body_boc).equals(Cell.fromBase64(wantBody)));
        t.is(init_boc === undefined, wantInit === undefined);
        // The hash is the stored cell's; it equals the explorer's when @ton/core lays the message out the same way.
        t.is(
          hash,
          beginCell()
            .store(storeMessage(toMessage(want)))
            .endCell()
            .hash()
            .toString("hex"),
        );
        messages++;
        if (hash === wantHash) sameHashes++;
      }
    }
  }
  t.true(messages > 100);
  t.log(`${sameHashes}/${messages} message hashes equal the recorded mainnet hashes`);
  t.true(sameHashes > messages / 2);
});
