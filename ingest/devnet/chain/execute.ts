/**
 * Executes one inbound message on one account and records the result as a real @ton/core `Transaction`
 * (serialised with `storeTransaction`, so its hash is a real cell hash). Returns null for an external
 * message that the account does not accept: TON records no transaction for those.
 */
import {
  type Address,
  beginCell,
  type Cell,
  contractAddress,
  type Message,
  type TransactionBouncePhase,
  type TransactionDescriptionGeneric,
} from "@ton/core";
import { CellWriter } from "./cell-writer.ts";
import { type FastCell, hexOfKey, keyBytes } from "./fast-cell.ts";
import { messageCell } from "./messages.ts";
import { actionPhaseOf, runActions, runBounce, runCompute } from "./phases.ts";
import type { CodeRegistry } from "./registry.ts";
import { descriptionCell, writeRefDict } from "./tlb.ts";
import type { TruthEvent } from "./truth.ts";
import { Account, type AccountStatus, type ContractInstance, kindOf } from "./types.ts";

export type ExecuteInput = {
  account: Account | undefined;
  address: Address;
  message: Message;
  lt: bigint;
  now: number;
  registry: CodeRegistry;
};

export type Executed = {
  /** The account afterwards; undefined when it still does not exist (e.g. a bounce from nowhere). */
  account: Account | undefined;
  /** The serialised transaction. */
  cell: FastCell;
  /** The cell's hash as hex (made once: the record and the account's `lastTxHash` both need it). */
  hashHex: string;
  lt: bigint;
  now: number;
  address: Address;
  inMessage: Message;
  outMessages: Message[];
  description: TransactionDescriptionGeneric;
  /** Ground-truth events of the handler; empty unless the transaction committed. */
  events: TruthEvent[];
  /** The account before the transaction: its status, and its last transaction (null key, lt 0: none). */
  prev: { status: AccountStatus | "non-existing"; txKey: string | null; txLt: bigint };
};

/** A StateInit deploys only onto an account without code, and only if it hashes to the address. */
function resolveContract(
  account: Account | undefined,
  message: Message,
  address: Address,
  registry: CodeRegistry,
): { contract: ContractInstance | null; activated: boolean } {
  if (account?.contract) return { contract: account.contract, activated: false };
  const init = message.init;
  if (!init?.code || !contractAddress(address.workChain, init).equals(address)) {
    return { contract: null, activated: false };
  }
  const factory = registry.factory(init.code);
  return { contract: factory({ code: init.code, data: init.data ?? null, address }), activated: true };
}

/** The state-hash stand-in's key (./fast-cell.ts `FastCell.key`) for an account that does not exist. */
const NO_ACCOUNT_KEY = new CellWriter().bit(0).end().key;
/** `storeStringRefTail(kind)`: one cell per contract kind, built once by @ton/core. */
const kindCells = new Map<string, Cell>();

/** The account's state-hash stand-in, made once per account object (./types.ts `Account.stateKey`). */
function stateKeyOf(account: Account): string {
  account.stateKey ??= stateKey(account);
  return account.stateKey;
}

function kindCell(kind: string): Cell {
  let cell = kindCells.get(kind);
  if (cell === undefined) {
    cell = beginCell().storeStringTail(kind).endCell();
    kindCells.set(kind, cell);
  }
  return cell;
}

/** Stand-in for the account state hash: status, kind, balance and the handler's state cell if it has one. */
function stateKey(account: Account): string {
  return new CellWriter()
    .bit(1)
    .bit(account.status === "active")
    .coins(account.balance)
    .ref(kindCell(kindOf(account)))
    .maybeRef(account.contract ? account.contract.memoStateRoot() : null)
    .end().key;
}

/** The storage phase of every devnet transaction (no storage fees are charged): one shared, frozen object. */
const NO_STORAGE_FEES = Object.freeze({ storageFeesCollected: 0n, statusChange: "unchanged" as const });

type Outcome = {
  balance: bigint;
  fees: bigint;
  ok: boolean;
  contract: ContractInstance | null;
  outMessages: Message[];
  description: TransactionDescriptionGeneric;
  events: TruthEvent[];
};

/** Credit → compute → action → bounce; null when an external message is not accepted. */
function run(input: ExecuteInput): Outcome | null {
  const { account, address, message, lt, now } = input;
  const internal = message.info.type === "internal" ? message.info : null;
  const value = internal?.value.coins ?? 0n;
  const { contract, activated } = resolveContract(account, message, address, input.registry);
  if (!internal && contract?.receiveExternal === undefined) return null;
  let balance = (account?.balance ?? 0n) + value;
  // The context doubles as the origin of the messages sent (address, lt, now): one object fewer.
  const ctx = { now, lt, address, balance };
  const compute = runCompute(contract, activated, message, ctx);
  if (!internal && !compute.success) return null;
  balance -= compute.gasFee;
  const carry = value > compute.gasFee ? value - compute.gasFee : 0n;
  const actions = compute.run ? runActions(compute.run.outMessages, balance, carry, ctx) : null;
  const ok = compute.run !== null && actions?.ok === true;
  let outMessages = ok ? actions!.messages : [];
  let fees = compute.gasFee + (ok ? actions!.fwdFees : 0n);
  if (ok) balance = actions!.balance;
  let bouncePhase: TransactionBouncePhase | undefined;
  if (!ok && internal?.bounce) {
    const bounce = runBounce(message, compute.gasFee, ctx);
    bouncePhase = bounce.phase;
    if (bounce.message && bounce.phase.type === "ok") {
      outMessages = [bounce.message];
      balance -= bounce.cost;
      fees += bounce.phase.forwardFees;
    }
  }
  const description: TransactionDescriptionGeneric = {
    type: "generic",
    creditFirst: !(internal?.bounce ?? false),
    storagePhase: NO_STORAGE_FEES,
    creditPhase: internal ? { credit: { coins: value } } : undefined,
    computePhase: compute.phase,
    actionPhase: actions ? actionPhaseOf(actions, compute.run!.outMessages.length) : undefined,
    bouncePhase,
    aborted: !ok,
    destroyed: false,
  };
  const next = ok ? compute.run!.next : (account?.contract ?? null);
  const events = ok ? compute.run!.events : [];
  return { balance, fees, ok, contract: next, outMessages, description, events };
}

export function execute(input: ExecuteInput): Executed | null {
  const outcome = run(input);
  if (outcome === null) return null;
  const { account, address, message, lt, now } = input;
  const { balance, contract } = outcome;
  const exists = contract !== null || balance > 0n || account !== undefined;
  const status = contract ? ("active" as const) : ("uninitialized" as const);
  const after = exists ? new Account(address, balance, status, contract, lt) : undefined;
  const cell = transactionCell(input, outcome, after);
  const hashHex = hexOfKey(cell.key);
  if (after) after.lastTxKey = cell.key;
  return {
    account: after,
    cell,
    hashHex,
    lt,
    now,
    address,
    inMessage: message,
    outMessages: outcome.outMessages,
    description: outcome.description,
    events: outcome.events,
    prev: {
      status: account?.status ?? "non-existing",
      txKey: account?.lastTxKey ?? null,
      txLt: account?.lastTxLt ?? 0n,
    },
  };
}

const ACCOUNT_STATUS = { uninitialized: 0, frozen: 1, active: 2, "non-existing": 3 } as const;

/**
 * `transaction$0111` (block.tlb) of `input` run to `outcome`, from `input.account` to `after`; field for
 * field as @ton/core's `storeTransaction`, on the FastCell writer and with the message cells reused from
 * ./messages.ts instead of serialising every message again.
 */
function transactionCell(input: ExecuteInput, outcome: Outcome, after: Account | undefined): FastCell {
  const { outMessages } = outcome;
  const before = input.account;
  const messages = new CellWriter().bit(1).ref(messageCell(input.message));
  writeRefDict(messages, 15, outMessages.map(messageCell));
  const hashUpdate = new CellWriter()
    .uint(0x72, 8)
    .bytes(keyBytes(before ? stateKeyOf(before) : NO_ACCOUNT_KEY))
    .bytes(keyBytes(after ? stateKeyOf(after) : NO_ACCOUNT_KEY));
  const w = new CellWriter().uint(0x07, 4).bytes(input.address.hash).big(input.lt, 64);
  const prevKey = before?.lastTxKey ?? null;
  if (prevKey !== null) w.bytes(keyBytes(prevKey));
  else w.big(before?.lastTxHash ?? 0n, 256);
  return w
    .big(before?.lastTxLt ?? 0n, 64)
    .uint(input.now, 32)
    .uint(outMessages.length, 15)
    .uint(ACCOUNT_STATUS[before?.status ?? "non-existing"], 2)
    .uint(ACCOUNT_STATUS[after?.status ?? "non-existing"], 2)
    .ref(messages.end())
    .coins(outcome.fees)
    .bit(0)
    .ref(hashUpdate.end())
    .ref(descriptionCell(outcome.description))
    .end();
}
