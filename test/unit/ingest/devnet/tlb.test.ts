/**
 * The chain's block.tlb writers (ingest/devnet/chain/tlb.ts) must give the cells @ton/core's serialisers
 * give: messages (inline and ref init/body), relaxed wallet messages, transaction descriptions, and
 * `HashmapE 15 ^Message` dictionaries, on seeded random inputs.
 */
import {
  Address,
  beginCell,
  type Cell,
  Dictionary,
  external,
  internal,
  type Message,
  type StateInit,
  storeMessage,
  storeMessageRelaxed,
  storeStateInit,
  storeTransactionDescription,
  type TransactionDescriptionGeneric,
} from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { ActionPhase } from "../../../../ingest/devnet/chain/action-phase.ts";
import { CellWriter } from "../../../../ingest/devnet/chain/cell-writer.ts";
import { hashOf } from "../../../../ingest/devnet/chain/fast-cell.ts";
import {
  descriptionCell,
  stateInitCell,
  writeMessage,
  writeRefDict,
  writeRelaxedInternal,
} from "../../../../ingest/devnet/chain/tlb.ts";
import { walletTransferBody } from "../../../../ingest/devnet/chain/wallet.ts";

const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((h) => new Address(0, Buffer.from(h)));
const coins = fc.oneof(fc.constant(0n), fc.bigInt(0n, 10n ** 12n), fc.bigInt(0n, (1n << 120n) - 1n));
/** Bodies from empty to nearly full, with 0–4 refs, so both the inline and the ref branch are taken. */
const body: fc.Arbitrary<Cell> = fc
  .record({ bits: fc.integer({ min: 0, max: 1023 }), refs: fc.integer({ min: 0, max: 4 }), seed: fc.nat() })
  .map(({ bits, refs, seed }) => {
    const b = beginCell();
    for (let i = 0; i < bits; i++) b.storeBit(((seed >> (i % 31)) ^ i) & 1);
    for (let i = 0; i < refs; i++)
      b.storeRef(
        beginCell()
          .storeUint(seed + i, 32)
          .endCell(),
      );
    return b.endCell();
  });
const init: fc.Arbitrary<StateInit | undefined> = fc.option(
  fc.record({ code: body, data: fc.option(body, { nil: undefined }) }),
  { nil: undefined },
);

const tonCell = (m: Message) => beginCell().store(storeMessage(m)).endCell();

test("writeMessage equals storeMessage for internal and external-in messages", (t) => {
  fc.assert(
    fc.property(
      address,
      address,
      coins,
      body,
      init,
      fc.boolean(),
      fc.bigInt(0n, (1n << 64n) - 1n),
      (src, dest, value, b, i, bounce, lt) => {
        const m: Message = {
          info: {
            type: "internal",
            ihrDisabled: true,
            bounce,
            bounced: !bounce,
            src,
            dest,
            value: { coins: value },
            ihrFee: 0n,
            forwardFee: value / 3n,
            createdLt: lt,
            createdAt: Number(lt % 2n ** 32n),
          },
          init: i ?? null,
          body: b,
        };
        const ext = external({ to: dest, body: b, init: i ?? null });
        return (
          hashOf(writeMessage(m)).equals(tonCell(m).hash()) &&
          hashOf(writeMessage(ext)).equals(tonCell(ext).hash())
        );
      },
    ),
    { seed: 31, numRuns: 300 },
  );
  t.pass();
});

test("writeRelaxedInternal and walletTransferBody equal @ton/core's relaxed messages", (t) => {
  fc.assert(
    fc.property(
      address,
      coins,
      body,
      init,
      fc.boolean(),
      fc.integer({ min: 0, max: 255 }),
      (to, value, b, i, bounce, mode) => {
        const relaxed = internal({ to, value, bounce, body: b, init: i });
        const expected = beginCell().store(storeMessageRelaxed(relaxed)).endCell();
        const ours = writeRelaxedInternal({ to, value, bounce, body: b, ...(i ? { init: i } : {}) });
        const walletBody = beginCell()
          .storeUint(7, 32)
          .storeUint(99, 32)
          .storeUint(mode, 8)
          .storeRef(expected)
          .endCell();
        return (
          hashOf(ours).equals(expected.hash()) &&
          walletTransferBody(7, 99, [{ to, value, bounce, body: b, ...(i ? { init: i } : {}), mode }]).equals(
            walletBody,
          )
        );
      },
    ),
    { seed: 32, numRuns: 300 },
  );
  t.pass();
});

test("stateInitCell equals storeStateInit", (t) => {
  fc.assert(
    fc.property(init, (i) => {
      const s = i ?? { code: null, data: null };
      return hashOf(stateInitCell(s)).equals(beginCell().store(storeStateInit(s)).endCell().hash());
    }),
    { seed: 33, numRuns: 100 },
  );
  t.true(
    hashOf(stateInitCell({ splitDepth: 3, special: { tick: true, tock: false } })).equals(
      beginCell()
        .store(storeStateInit({ splitDepth: 3, special: { tick: true, tock: false } }))
        .endCell()
        .hash(),
    ),
  );
});

const storage = fc.record({
  storageFeesCollected: coins,
  storageFeesDue: fc.option(coins, { nil: undefined }),
  statusChange: fc.constantFrom("unchanged" as const, "frozen" as const, "deleted" as const),
});
const compute = fc.oneof(
  fc.record({
    type: fc.constant("skipped" as const),
    reason: fc.constantFrom("no-state" as const, "bad-state" as const, "no-gas" as const),
  }),
  fc.record({
    type: fc.constant("vm" as const),
    success: fc.boolean(),
    messageStateUsed: fc.boolean(),
    accountActivated: fc.boolean(),
    gasFees: coins,
    gasUsed: fc.bigInt(0n, 10n ** 7n),
    gasLimit: fc.bigInt(0n, 10n ** 7n),
    gasCredit: fc.option(fc.bigInt(0n, 60000n), { nil: undefined }),
    mode: fc.integer({ min: 0, max: 255 }),
    exitCode: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    exitArg: fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { nil: undefined }),
    vmSteps: fc.nat(),
    vmInitStateHash: fc.bigInt(0n, (1n << 256n) - 1n),
    vmFinalStateHash: fc.bigInt(0n, (1n << 256n) - 1n),
  }),
);
const used = fc.record({ cells: fc.bigInt(0n, 1000n), bits: fc.bigInt(0n, 100000n) });
const action = fc.record({
  success: fc.boolean(),
  valid: fc.boolean(),
  noFunds: fc.boolean(),
  statusChange: fc.constantFrom("unchanged" as const, "frozen" as const, "deleted" as const),
  totalFwdFees: fc.option(coins, { nil: undefined }),
  totalActionFees: fc.option(coins, { nil: undefined }),
  resultCode: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  resultArg: fc.option(fc.integer({ min: -100, max: 100 }), { nil: undefined }),
  totalActions: fc.integer({ min: 0, max: 65535 }),
  specActions: fc.integer({ min: 0, max: 65535 }),
  skippedActions: fc.integer({ min: 0, max: 65535 }),
  messagesCreated: fc.integer({ min: 0, max: 65535 }),
  actionListHash: fc.bigInt(0n, (1n << 256n) - 1n),
  totalMessageSize: used,
});
const bounce = fc.oneof(
  fc.record({ type: fc.constant("negative-funds" as const) }),
  fc.record({ type: fc.constant("no-funds" as const), messageSize: used, requiredForwardFees: coins }),
  fc.record({ type: fc.constant("ok" as const), messageSize: used, messageFees: coins, forwardFees: coins }),
);

test("descriptionCell equals storeTransactionDescription (generic)", (t) => {
  fc.assert(
    fc.property(
      fc.record({
        creditFirst: fc.boolean(),
        storagePhase: fc.option(storage, { nil: undefined }),
        creditPhase: fc.option(
          fc.record({ dueFeesColelcted: fc.option(coins, { nil: undefined }), credit: fc.record({ coins }) }),
          { nil: undefined },
        ),
        computePhase: compute,
        actionPhase: fc.option(action, { nil: undefined }),
        aborted: fc.boolean(),
        bouncePhase: fc.option(bounce, { nil: undefined }),
        destroyed: fc.boolean(),
      }),
      (d) => {
        const description = { type: "generic", ...d } as TransactionDescriptionGeneric;
        const expected = beginCell().store(storeTransactionDescription(description)).endCell();
        return hashOf(descriptionCell(description)).equals(expected.hash());
      },
    ),
    { seed: 34, numRuns: 300 },
  );
  t.pass();
});

test("descriptionCell is unchanged by its caches and by the devnet's ActionPhase (list hash as a key)", (t) => {
  fc.assert(
    fc.property(compute, action, fc.boolean(), (computePhase, plain, asKey) => {
      // The same phase as the devnet builds it: the list hash held as a hash key, made a bigint on reads.
      const key = Buffer.from(plain.actionListHash.toString(16).padStart(64, "0"), "hex").toString("latin1");
      const fees = plain.totalFwdFees ?? 0n;
      const ours = new ActionPhase(
        plain.success,
        plain.noFunds,
        fees,
        plain.resultCode,
        plain.totalActions,
        plain.skippedActions,
        plain.messagesCreated,
        key,
        plain.totalMessageSize,
      );
      const same = {
        ...plain,
        valid: true,
        statusChange: "unchanged" as const,
        totalFwdFees: fees,
        totalActionFees: fees,
        resultArg: undefined,
        specActions: 0,
      };
      if (ours.actionListHash !== plain.actionListHash) return false;
      const description = {
        type: "generic",
        creditFirst: true,
        computePhase,
        actionPhase: asKey ? ours : same,
        aborted: false,
        destroyed: false,
      } as TransactionDescriptionGeneric;
      const reference = { ...description, actionPhase: same };
      const expected = beginCell().store(storeTransactionDescription(reference)).endCell().hash();
      // Twice: the second run finds its compute-phase cell in the cache.
      return [1, 2].every(() => hashOf(descriptionCell(description)).equals(expected));
    }),
    { seed: 35, numRuns: 300 },
  );
  t.pass();
});

test("writeRefDict reuses a dictionary shape for new values and other key widths", (t) => {
  // A second and third round per (width, count): the shape is cached by then, only the values differ.
  for (const round of [1, 2, 3]) {
    for (const keyBits of [4, 8, 15, 32]) {
      for (let n = 0; n <= Math.min(2 ** keyBits, 20); n++) {
        const values = Array.from({ length: n }, (_, i) =>
          beginCell()
            .storeUint(i * 31 + round, 16)
            .endCell(),
        );
        const dict = Dictionary.empty(Dictionary.Keys.Uint(keyBits), Dictionary.Values.Cell());
        for (const [i, v] of values.entries()) dict.set(i, v);
        const w = new CellWriter();
        writeRefDict(w, keyBits, values);
        t.true(
          hashOf(w.end()).equals(beginCell().storeDict(dict).endCell().hash()),
          `round ${round}, ${keyBits}-bit keys, n = ${n}`,
        );
      }
    }
  }
});

test("writeRefDict equals Dictionary.store with 15-bit keys 0..n-1", (t) => {
  for (let n = 0; n <= 40; n++) {
    const values = Array.from({ length: n }, (_, i) =>
      beginCell()
        .storeUint(i * 7919, 32)
        .endCell(),
    );
    const dict = Dictionary.empty(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    for (const [i, v] of values.entries()) dict.set(i, v);
    const w = new CellWriter();
    writeRefDict(w, 15, values);
    t.true(hashOf(w.end()).equals(beginCell().storeDict(dict).endCell().hash()), `n = ${n}`);
  }
});
