/**
 * The contract-handler interface of the devnet chain: a contract is a TypeScript object that turns one
 * inbound message (+ its own typed state) into a new state and a list of outgoing messages. Handlers are
 * functional: they never mutate the state they are given, so a failed compute phase simply keeps the old one.
 */
import type { Address, Cell, StateInit, TupleItem } from "@ton/core";
import { type AnyCell, hexOfKey, toTonCell } from "./fast-cell.ts";
import type { TruthEvent } from "./truth.ts";

/** An internal message as the receiving contract sees it (TON's `recv_internal` arguments). */
export type InboundInternal = {
  source: Address;
  /** nanoton carried by the message (already credited to the contract's balance). */
  value: bigint;
  bounce: boolean;
  bounced: boolean;
  body: Cell;
  init?: StateInit;
};

/** An external-in message (TON's `recv_external`): no source, no value. */
export type InboundExternal = { body: Cell; init?: StateInit };

/** What a handler may read besides the message. `balance` already includes the inbound value. */
/** Read-only: the chain also uses it as the origin (address, lt, now) of the messages the handler sends. */
export type ExecutionContext = {
  /** Unix time of the block the transaction is in. */
  readonly now: number;
  /** Logical time of the transaction being executed. */
  readonly lt: bigint;
  readonly address: Address;
  readonly balance: bigint;
};

/**
 * Send-mode flags (https://docs.ton.org/develop/smart-contracts/messages#message-modes). Modes 0, +1, +2,
 * 64 and 128 are modelled; others (+16 bounce-on-action-fail, +32 destroy) are accepted and ignored.
 */
export const SendMode = {
  ORDINARY: 0,
  PAY_FEES_SEPARATELY: 1,
  IGNORE_ERRORS: 2,
  CARRY_INBOUND_VALUE: 64,
  CARRY_ALL_BALANCE: 128,
} as const;

export type OutgoingMessage = {
  to: Address;
  value: bigint;
  bounce: boolean;
  body: Cell;
  init?: StateInit;
  /** Send mode, `SendMode.ORDINARY` when omitted. */
  mode?: number;
};

export type HandlerResult<S> = {
  /** 0 or 1 is success (as in TVM); anything else fails the compute phase like a `ContractThrow`. */
  exitCode: number;
  outMessages: OutgoingMessage[];
  state: S;
  /**
   * Ground truth: the DEX operations this transaction performed (./truth.ts). Kept only when the
   * transaction commits (compute and action phases succeed), like the state.
   */
  events?: TruthEvent[];
};

/** What a get-method may read besides the state (TVM's c7: address, balance, now). */
export type GetMethodContext = { address: Address; balance: bigint; now: number };

/**
 * A get-method: stack arguments in, stack out (top of stack last), exactly the shapes the real contract
 * returns. A `ContractThrow` becomes the run's exit code.
 */
export type GetMethod<S> = (state: S, args: TupleItem[], ctx: GetMethodContext) => TupleItem[];

export type ContractHandler<S> = {
  readonly kind: string;
  receiveInternal(state: S, msg: InboundInternal, ctx: ExecutionContext): HandlerResult<S>;
  /** Only wallet-like contracts accept external messages; a throw here drops the message (no transaction). */
  receiveExternal?(state: S, msg: InboundExternal, ctx: ExecutionContext): HandlerResult<S>;
  /**
   * Optional serialisation of the state, used for the account state hash in `state_update`. It may return a
   * FastCell (`beginFast()` of ./cell-writer.ts): the chain only hashes it, and that is much cheaper.
   */
  stateToCell?(state: S): AnyCell;
  /** Get-methods by name (`get_pool_data`, `get_wallet_address`, ...). */
  getMethods?: Readonly<Record<string, GetMethod<S>>>;
};

/** Thrown by a handler to fail the compute phase with a TVM-style exit code. */
export class ContractThrow extends Error {
  readonly exitCode: number;
  readonly isContractThrow = true as const;
  constructor(exitCode: number, message?: string) {
    super(message ?? `contract threw ${exitCode}`);
    this.name = "ContractThrow";
    this.exitCode = exitCode;
  }
}

export function isContractThrow(error: unknown): error is ContractThrow {
  return error instanceof Error && (error as Partial<ContractThrow>).isContractThrow === true;
}

/** Programmer error in the devnet setup (unknown code hash, duplicate account...): never a chain outcome. */
export class DevnetError extends Error {
  override readonly name = "DevnetError";
}

export type ContractRun = {
  exitCode: number;
  outMessages: OutgoingMessage[];
  next: ContractInstance;
  events: TruthEvent[];
};

/** A handler bound to its current state; the state type is hidden so accounts of any kind share one map. */
export type ContractInstance = {
  readonly kind: string;
  readonly handler: ContractHandler<never>;
  readonly state: unknown;
  receiveInternal(msg: InboundInternal, ctx: ExecutionContext): ContractRun;
  receiveExternal: ((msg: InboundExternal, ctx: ExecutionContext) => ContractRun) | undefined;
  /** The state cell as a @ton/core Cell (converted if the handler built a FastCell). */
  stateCell(): Cell | undefined;
  /** The state cell as the handler built it (what the chain hashes). */
  stateRoot(): AnyCell | undefined;
  /** `stateRoot()`, built once per instance (null without one): the chain hashes it per transaction. */
  memoStateRoot(): AnyCell | null;
  /** Runs a get-method; undefined when the contract has no method of that name. */
  runGetMethod(name: string, args: TupleItem[], ctx: GetMethodContext): TupleItem[] | undefined;
};

export function instantiate<S>(handler: ContractHandler<S>, state: S): ContractInstance {
  return new Instance(handler, state);
}

/**
 * A class rather than an object of closures: one instance is created per transaction, and the methods
 * then live on the prototype instead of being allocated (and, under tsx, name-wrapped) each time.
 */
class Instance<S> implements ContractInstance {
  readonly kind: string;
  readonly handler: ContractHandler<never>;
  readonly receiveExternal: ((msg: InboundExternal, ctx: ExecutionContext) => ContractRun) | undefined;
  readonly #handler: ContractHandler<S>;

  constructor(
    handler: ContractHandler<S>,
    readonly state: S,
  ) {
    this.kind = handler.kind;
    this.handler = handler as unknown as ContractHandler<never>;
    this.#handler = handler;
    const external = handler.receiveExternal;
    this.receiveExternal = external
      ? (msg, ctx) => this.#wrap(external.call(handler, state, msg, ctx))
      : undefined;
  }

  /** The state cell, once built (`memoStateRoot`). */
  #root: AnyCell | null | undefined = undefined;

  #wrap(r: HandlerResult<S>): ContractRun {
    // A handler returns the very state object it was given when a message changes nothing (routers,
    // minters, bounces): the instance then stays, and with it its state cell.
    const next = r.state === this.state ? this : new Instance(this.#handler, r.state);
    return { exitCode: r.exitCode, outMessages: r.outMessages, next, events: r.events ?? [] };
  }

  receiveInternal(msg: InboundInternal, ctx: ExecutionContext): ContractRun {
    return this.#wrap(this.#handler.receiveInternal(this.state, msg, ctx));
  }

  stateCell(): Cell | undefined {
    const cell = this.#handler.stateToCell?.(this.state);
    return cell === undefined ? undefined : toTonCell(cell);
  }

  stateRoot(): AnyCell | undefined {
    return this.#handler.stateToCell?.(this.state);
  }

  memoStateRoot(): AnyCell | null {
    if (this.#root === undefined) this.#root = this.stateRoot() ?? null;
    return this.#root;
  }

  runGetMethod(name: string, args: TupleItem[], ctx: GetMethodContext): TupleItem[] | undefined {
    const method = this.#handler.getMethods?.[name];
    return method === undefined ? undefined : method(this.state, args, ctx);
  }
}

/** Reads a contract's state back with its type, checking that it is run by `handler`. */
export function stateOf<S>(contract: ContractInstance, handler: ContractHandler<S>): S {
  if (contract.handler !== (handler as unknown as ContractHandler<never>)) {
    throw new DevnetError(`account runs ${contract.kind}, not ${handler.kind}`);
  }
  return contract.state as S;
}

export type AccountStatus = "uninitialized" | "active";

/**
 * One account. Non-existing accounts are simply absent from the chain's map. Never mutated once the
 * transaction that made it is recorded.
 */
export class Account {
  /**
   * The stand-in of this account's state hash (./execute.ts `stateKeyOf`), as a hash key, made on first
   * use. A field rather than a WeakMap entry: weak-map entries are what the young-generation GC pays most for.
   */
  stateKey: string | undefined = undefined;
  /**
   * The hash of the transaction that made this account, as a hash key (./fast-cell.ts `FastCell.key`), set
   * by the chain once that transaction is serialised; null for a genesis account. The next transaction
   * writes these bytes as its `prev_trans_hash` directly.
   */
  lastTxKey: string | null = null;
  #lastTxHash: bigint | undefined = undefined;

  constructor(
    readonly address: Address,
    readonly balance: bigint,
    readonly status: AccountStatus,
    /** null for an uninit account (it holds a balance but no code). */
    readonly contract: ContractInstance | null,
    readonly lastTxLt: bigint,
  ) {}

  /** The hash of the last transaction (0 for a genesis account), made from its key on first read. */
  get lastTxHash(): bigint {
    const key = this.lastTxKey;
    if (key === null) return 0n;
    this.#lastTxHash ??= BigInt(`0x${hexOfKey(key)}`);
    return this.#lastTxHash;
  }
}

export function kindOf(account: Account): string {
  return account.contract?.kind ?? "uninit";
}
