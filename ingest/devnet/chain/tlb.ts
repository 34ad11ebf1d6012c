/**
 * The block.tlb serialisers the chain core needs, written on the FastCell writer: field for field what
 * @ton/core's `storeMessage`, `storeStateInit`, `storeTransactionDescription` (generic) and
 * `Dictionary.store` write, so every cell and hash is unchanged (the golden digest in bench/devnet.ts's
 * notes and test/unit/ingest/devnet/fast-cell.test.ts check it). Rare shapes the devnet never builds
 * (libraries in a StateInit, extra currencies) fall back to @ton/core for that one cell.
 * Source: https://github.com/ton-blockchain/ton/blob/master/crypto/block/block.tlb
 */
import {
  type Address,
  beginCell,
  type Cell,
  type CommonMessageInfo,
  type CurrencyCollection,
  type Message,
  type StateInit,
  type StorageUsed,
  storeCurrencyCollection,
  storeStateInit,
  type TransactionActionPhase,
  type TransactionBouncePhase,
  type TransactionComputePhase,
  type TransactionDescriptionGeneric,
} from "@ton/core";
import { ActionPhase } from "./action-phase.ts";
import { CellWriter } from "./cell-writer.ts";
import { type AnyCell, bitsOf, type FastCell, fastOf, keyBytes, refCountOf } from "./fast-cell.ts";

const stateInits = new WeakMap<StateInit, AnyCell>();

/** `StateInit` as its own cell, cached per (immutable) StateInit object. */
export function stateInitCell(init: StateInit): AnyCell {
  let cell = stateInits.get(init);
  if (cell === undefined) {
    cell = init.libraries ? beginCell().store(storeStateInit(init)).endCell() : writeStateInit(init);
    stateInits.set(init, cell);
  }
  return cell;
}

function writeStateInit(init: StateInit): FastCell {
  const w = new CellWriter();
  const { splitDepth, special } = init;
  if (splitDepth !== null && splitDepth !== undefined) w.bit(1).uint(splitDepth, 5);
  else w.bit(0);
  if (special !== null && special !== undefined) w.bit(1).bit(special.tick).bit(special.tock);
  else w.bit(0);
  return w.maybeRef(init.code).maybeRef(init.data).bit(0).end();
}

function writeCurrency(w: CellWriter, c: CurrencyCollection): void {
  if (c.other) {
    // Extra currencies: never sent on the devnet; @ton/core writes the dictionary.
    w.append(beginCell().store(storeCurrencyCollection(c)).endCell());
    return;
  }
  w.coins(c.coins).bit(0);
}

function writeInfo(w: CellWriter, info: CommonMessageInfo): void {
  if (info.type === "internal") {
    w.bit(0).bit(info.ihrDisabled).bit(info.bounce).bit(info.bounced);
    w.address(info.src).address(info.dest);
    writeCurrency(w, info.value);
    w.coins(info.ihrFee).coins(info.forwardFee).big(info.createdLt, 64).uint(info.createdAt, 32);
  } else if (info.type === "external-in") {
    w.bit(1).bit(0).address(info.src).address(info.dest).coins(info.importFee);
  } else {
    w.bit(1).bit(1).address(info.src).address(info.dest).big(info.createdLt, 64).uint(info.createdAt, 32);
  }
}

/** `Message X`: init and body inline when they fit, in a ref otherwise (@ton/core's rule). */
export function writeMessage(message: Message): FastCell {
  const w = new CellWriter();
  writeInfo(w, message.info);
  const body = message.body;
  if (message.init) {
    w.bit(1);
    const init = stateInitCell(message.init);
    if (1023 - w.bits - 2 < bitsOf(init) + bitsOf(body)) w.bit(1).ref(init);
    else w.bit(0).append(init);
  } else {
    w.bit(0);
  }
  // A ref to the body's FastCell (content-equal, so the same hash and BOC): the size count and the BOC
  // walks of this message then find it, and the cells under it, without a lookup per @ton/core cell.
  if (1023 - w.bits - 1 < bitsOf(body) || w.refCount + refCountOf(body) > 4)
    w.bit(1).ref(fastOf(body) ?? body);
  else w.bit(0).append(body);
  return w.end();
}

/** What `internal({ to, value, bounce, body, init })` gives to `storeMessageRelaxed`. */
export type RelaxedInternal = { to: Address; value: bigint; bounce: boolean; body: Cell; init?: StateInit };

/**
 * `MessageRelaxed` of an internal message as @ton/core's `storeMessageRelaxed(internal(...))` writes it:
 * addr_none source, zero fees and times; init inline when it fits, the body inline when it fits and is
 * ordinary (the relaxed rules differ slightly from `storeMessage`'s).
 */
export function writeRelaxedInternal(m: RelaxedInternal): FastCell {
  const w = new CellWriter().bit(0).bit(1).bit(m.bounce).bit(0).address(null).address(m.to);
  w.coins(m.value).bit(0).coins(0n).coins(0n).uint(0, 64).uint(0, 32);
  if (m.init) {
    const init = stateInitCell(m.init);
    if (1023 - w.bits - 1 - 2 >= bitsOf(init)) w.bit(1).bit(0).append(init);
    else w.bit(1).bit(1).ref(init);
  } else {
    w.bit(0);
  }
  const body = m.body;
  if (1023 - w.bits - 1 >= bitsOf(body) && w.refCount + refCountOf(body) <= 4 && !body.isExotic) {
    w.bit(0).append(body);
  } else {
    w.bit(1).ref(body);
  }
  return w.end();
}

function writeStorageUsed(w: CellWriter, s: StorageUsed): void {
  w.varUint(s.cells, 3).varUint(s.bits, 3);
}

/**
 * The compute phase's `^[ gas_used gas_limit gas_credit mode exit_code exit_arg vm_steps hashes ]` cell is
 * the same for most devnet transactions (flat gas, zero hashes): the cells of recent distinct contents are
 * kept and found by comparing the fields (no key string per transaction).
 */
type VmPhase = Extract<TransactionComputePhase, { type: "vm" }>;
const vmCells: { phase: VmPhase; cell: FastCell }[] = [];
const VM_CELLS = 16;

const sameVm = (a: VmPhase, b: VmPhase): boolean =>
  a.gasUsed === b.gasUsed &&
  a.gasLimit === b.gasLimit &&
  (a.gasCredit ?? null) === (b.gasCredit ?? null) &&
  a.mode === b.mode &&
  a.exitCode === b.exitCode &&
  (a.exitArg ?? null) === (b.exitArg ?? null) &&
  a.vmSteps === b.vmSteps &&
  a.vmInitStateHash === b.vmInitStateHash &&
  a.vmFinalStateHash === b.vmFinalStateHash;

function vmCell(c: VmPhase): FastCell {
  for (const hit of vmCells) if (sameVm(hit.phase, c)) return hit.cell;
  const vm = new CellWriter().varUint(c.gasUsed, 3).varUint(c.gasLimit, 3);
  if (c.gasCredit !== undefined && c.gasCredit !== null) vm.bit(1).varUint(c.gasCredit, 2);
  else vm.bit(0);
  vm.uint(c.mode, 8).int(c.exitCode, 32);
  if (c.exitArg !== undefined && c.exitArg !== null) vm.bit(1).int(c.exitArg, 32);
  else vm.bit(0);
  const cell = vm.uint(c.vmSteps, 32).big(c.vmInitStateHash, 256).big(c.vmFinalStateHash, 256).end();
  // A copy of the fields: the phase object belongs to the transaction.
  if (vmCells.length >= VM_CELLS) vmCells.shift();
  vmCells.push({ phase: { ...c }, cell });
  return cell;
}

function writeCompute(w: CellWriter, c: TransactionComputePhase): void {
  if (c.type === "skipped") {
    w.bit(0).uint(c.reason === "no-state" ? 0 : c.reason === "bad-state" ? 1 : 2, 2);
    return;
  }
  w.bit(1).bit(c.success).bit(c.messageStateUsed).bit(c.accountActivated).coins(c.gasFees).ref(vmCell(c));
}

function writeStatusChange(w: CellWriter, change: "unchanged" | "frozen" | "deleted"): void {
  if (change === "unchanged") w.bit(0);
  else w.bit(1).bit(change === "deleted");
}

function maybeCoins(w: CellWriter, v: bigint | null | undefined): void {
  if (v !== null && v !== undefined) w.bit(1).coins(v);
  else w.bit(0);
}

function actionCell(a: TransactionActionPhase): FastCell {
  const w = new CellWriter().bit(a.success).bit(a.valid).bit(a.noFunds);
  writeStatusChange(w, a.statusChange);
  maybeCoins(w, a.totalFwdFees);
  maybeCoins(w, a.totalActionFees);
  w.int(a.resultCode, 32);
  if (a.resultArg !== null && a.resultArg !== undefined) w.bit(1).int(a.resultArg, 32);
  else w.bit(0);
  w.uint(a.totalActions, 16).uint(a.specActions, 16).uint(a.skippedActions, 16).uint(a.messagesCreated, 16);
  // The devnet's own phases hold the hash as a key: its bytes are written without a bigint.
  if (a instanceof ActionPhase) w.bytes(keyBytes(a.actionListKey));
  else w.hash256(a.actionListHash);
  writeStorageUsed(w, a.totalMessageSize);
  return w.end();
}

function writeBounce(w: CellWriter, b: TransactionBouncePhase): void {
  if (b.type === "ok") {
    w.bit(1);
    writeStorageUsed(w, b.messageSize);
    w.coins(b.messageFees).coins(b.forwardFees);
  } else if (b.type === "negative-funds") {
    w.bit(0).bit(0);
  } else {
    w.bit(0).bit(1);
    writeStorageUsed(w, b.messageSize);
    w.coins(b.requiredForwardFees);
  }
}

/** `trans_ord$0000` (the only description the devnet produces). */
export function descriptionCell(d: TransactionDescriptionGeneric): FastCell {
  const w = new CellWriter().uint(0, 4).bit(d.creditFirst);
  if (d.storagePhase) {
    const s = d.storagePhase;
    w.bit(1).coins(s.storageFeesCollected);
    if (s.storageFeesDue === null || s.storageFeesDue === undefined) w.bit(0);
    else w.bit(1).coins(s.storageFeesDue);
    writeStatusChange(w, s.statusChange);
  } else w.bit(0);
  if (d.creditPhase) {
    const due = d.creditPhase.dueFeesColelcted;
    w.bit(1);
    if (due === null || due === undefined) w.bit(0);
    else w.bit(1).coins(due);
    writeCurrency(w, d.creditPhase.credit);
  } else w.bit(0);
  writeCompute(w, d.computePhase);
  if (d.actionPhase) w.bit(1).ref(actionCell(d.actionPhase));
  else w.bit(0);
  w.bit(d.aborted);
  if (d.bouncePhase) {
    w.bit(1);
    writeBounce(w, d.bouncePhase);
  } else w.bit(0);
  return w.bit(d.destroyed).end();
}

/**
 * `HashmapE n ^X` with keys 0..values.length-1, as @ton/core's `Dictionary.store` with `Values.Cell()`:
 * the same tree and the same choice among short, long and same labels. The tree's shape and labels depend
 * only on the key width and the number of keys, so they are worked out once per (width, count) and each
 * dictionary only copies the label bits and hangs its values.
 */
export function writeRefDict(w: CellWriter, keyBits: number, values: readonly AnyCell[]): void {
  if (values.length === 0) {
    w.bit(0);
    return;
  }
  w.bit(1).ref(buildEdge(dictShape(keyBits, values.length), values));
}

/** An edge of the dictionary tree: its label (bits only), then a leaf's value or the two subtrees. */
type Edge = { label: FastCell; leaf: number; left: Edge | null; right: Edge | null };

/** Per key width, the shapes by key count (arrays: no key string per dictionary written). */
const shapes: Edge[][] = [];

function dictShape(keyBits: number, count: number): Edge {
  let byCount = shapes[keyBits];
  if (byCount === undefined) {
    byCount = [];
    shapes[keyBits] = byCount;
  }
  let shape = byCount[count];
  if (shape === undefined) {
    const entries = Array.from(
      { length: count },
      (_, k) => [k.toString(2).padStart(keyBits, "0"), k] as const,
    );
    shape = edgeShape(entries, keyBits, 0);
    byCount[count] = shape;
  }
  return shape;
}

function buildEdge(edge: Edge, values: readonly AnyCell[]): FastCell {
  const w = new CellWriter().append(edge.label);
  if (edge.left === null || edge.right === null) return w.ref(values[edge.leaf]!).end();
  return w.ref(buildEdge(edge.left, values)).ref(buildEdge(edge.right, values)).end();
}

/** Entries: (binary key, value index). */
type Entries = readonly (readonly [string, number])[];

function commonPrefix(keys: readonly string[], start: number): string {
  let r = keys[0]!.slice(start);
  for (let i = 1; i < keys.length; i++) {
    const s = keys[i]!;
    while (s.indexOf(r, start) !== start) {
      r = r.substring(0, r.length - 1);
      if (r === "") return r;
    }
  }
  return r;
}

function edgeShape(entries: Entries, keyLength: number, prefixLen: number): Edge {
  const label = commonPrefix(
    entries.map(([k]) => k),
    prefixLen,
  );
  const labelWriter = new CellWriter();
  writeLabel(labelWriter, label, keyLength);
  const labelCell = labelWriter.end();
  const at = prefixLen + label.length;
  if (entries.length === 1) return { label: labelCell, leaf: entries[0]![1], left: null, right: null };
  const left = entries.filter(([k]) => k[at] === "0");
  const right = entries.filter(([k]) => k[at] !== "0");
  const rest = keyLength - label.length - 1;
  return {
    label: labelCell,
    leaf: -1,
    left: edgeShape(left, rest, at + 1),
    right: edgeShape(right, rest, at + 1),
  };
}

function writeLabel(w: CellWriter, label: string, keyLength: number): void {
  const lenBits = Math.ceil(Math.log2(keyLength + 1));
  const shortLen = 2 + 2 * label.length;
  const longLen = 2 + lenBits + label.length;
  let kind = longLen < shortLen ? "long" : "short";
  const same = label.length <= 1 || [...label].every((c) => c === label[0]);
  if (same && 3 + lenBits < Math.min(shortLen, longLen)) kind = "same";
  if (kind === "short") {
    w.bit(0);
    for (let i = 0; i < label.length; i++) w.bit(1);
    w.bit(0);
    writeBits(w, label);
  } else if (kind === "long") {
    w.bit(1).bit(0).uint(label.length, lenBits);
    writeBits(w, label);
  } else {
    w.bit(1)
      .bit(1)
      .bit(label[0] === "1")
      .uint(label.length, lenBits);
  }
}

function writeBits(w: CellWriter, bits: string): void {
  for (let i = 0; i < bits.length; i++) w.bit(bits[i] === "1");
}
