/**
 * The deterministic devnet chain: one basechain shard whose block seqno equals the masterchain seqno.
 * Messages sent in block N are delivered in block N+1, so a trace spans several blocks as on TON.
 * No clock and no randomness: the same calls produce byte-identical blocks.
 */
import {
  type Address,
  type Cell,
  contractAddress,
  type Message,
  type StateInit,
  type TupleItem,
} from "@ton/core";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { type Executed, execute } from "./execute.ts";
import { LT_PER_BLOCK } from "./fees.ts";
import { externalMessage, isDevnetMessage } from "./messages.ts";
import { rawAddress, rawTransaction } from "./record.ts";
import { CodeRegistry } from "./registry.ts";
import type { TruthEvent, TruthRecord } from "./truth.ts";
import {
  Account,
  type ContractInstance,
  DevnetError,
  type GetMethodContext,
  isContractThrow,
} from "./types.ts";

export type GetMethodResult = { exitCode: number; stack: TupleItem[] };

export type DevnetBlock = {
  mc_seqno: number;
  utime: number;
  transactions: RawTransaction[];
  /** Ground truth recorded by the contracts in this block's transactions, in transaction order. */
  truth: TruthRecord[];
};

/** The single shard: prefix 0x8000000000000000 covers the whole basechain. */
export const DEVNET_SHARD = 0x8000000000000000n;
const SHARD_ID = "0:8000000000000000";
/** 2023-11-14T22:13:20Z, a fixed genesis so blocks never depend on the wall clock. */
export const DEFAULT_GENESIS_UTIME = 1_700_000_000;
export const DEFAULT_BLOCK_SECONDS = 5;

export type ChainOptions = {
  genesisUtime?: number;
  blockSeconds?: number;
  registry?: CodeRegistry;
};

/** What the chain keeps per address (see `Chain.#slots`). */
type Slot = { account: Account | undefined; endLt: bigint };
/** `order`: the lt it is delivered by, as a number (sorting by bigints was over a percent of the time). */
type Pending = { message: Message; dest: Address; order: number; seq: number };
/** An executed transaction as the block keeps it: its record, and what orders it. */
type Done = { lt: bigint; order: number; raw: RawTransaction; events: TruthEvent[] };

const byAccount = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const MAX_SAFE_LT = BigInt(Number.MAX_SAFE_INTEGER);

/** The larger of two lts (two arguments, no rest array per call: this runs per transaction). */
const max = (a: bigint, b: bigint): bigint => (b > a ? b : a);

export class Chain {
  readonly registry: CodeRegistry;
  readonly genesisUtime: number;
  readonly blockSeconds: number;
  /**
   * Per address: its account (undefined while it does not exist) and the lt its next transaction must
   * reach (kept for addresses that never came to exist). One entry for both: one lookup per delivery.
   */
  readonly #slots = new Map<string, Slot>();
  #queue: Pending[] = [];
  #seq = 0;
  #mcSeqno = 0;
  #maxLt = 0n;
  #droppedExternals = 0;

  constructor(options: ChainOptions = {}) {
    this.registry = options.registry ?? new CodeRegistry();
    this.genesisUtime = options.genesisUtime ?? DEFAULT_GENESIS_UTIME;
    this.blockSeconds = options.blockSeconds ?? DEFAULT_BLOCK_SECONDS;
  }

  get mcSeqno(): number {
    return this.#mcSeqno;
  }

  /** Messages waiting for the next block. */
  get pending(): number {
    return this.#queue.length;
  }

  /** External messages no account accepted (TON records no transaction for them). */
  get droppedExternals(): number {
    return this.#droppedExternals;
  }

  account(address: Address): Readonly<Account> | undefined {
    return this.#slots.get(rawAddress(address))?.account;
  }

  /** Creates a genesis account, with no transaction (like accounts in a zerostate). */
  addAccount(address: Address, balance: bigint, contract: ContractInstance | null): void {
    const key = rawAddress(address);
    if (address.workChain !== 0) throw new DevnetError(`devnet accounts live in workchain 0, got ${key}`);
    const slot = this.#slots.get(key);
    if (slot?.account !== undefined) throw new DevnetError(`account ${key} already exists`);
    const status = contract ? "active" : "uninitialized";
    const account = new Account(address, balance, status, contract, 0n);
    if (slot === undefined) this.#slots.set(key, { account, endLt: 0n });
    else slot.account = account;
  }

  /** Genesis deploy of registered code: the address is derived from the StateInit as on TON. */
  deployGenesis(init: StateInit, balance: bigint): Address {
    if (!init.code) throw new DevnetError("a StateInit without code cannot be deployed");
    const address = contractAddress(0, init);
    const contract = this.registry.factory(init.code)({ code: init.code, data: init.data ?? null, address });
    this.addAccount(address, balance, contract);
    return address;
  }

  /** Queues an external-in message for the next block. */
  sendExternal(to: Address, body: Cell, init?: StateInit): void {
    this.#enqueue(externalMessage(to, body, init), to, this.#maxLt);
  }

  #enqueue(message: Message, dest: Address, orderLt: bigint): void {
    // Exact as a number: at LT_PER_BLOCK per block, lts pass 2^53 after some 9 billion blocks.
    if (orderLt > MAX_SAFE_LT) throw new DevnetError(`lt ${orderLt} is past the devnet's range (2^53)`);
    this.#queue.push({ message, dest, order: Number(orderLt), seq: this.#seq++ });
  }

  /** Executes every message queued before this call, in (created_lt, arrival) order. */
  produceBlock(): DevnetBlock {
    const mc_seqno = ++this.#mcSeqno;
    const utime = this.genesisUtime + mc_seqno * this.blockSeconds;
    const startLt = max(BigInt(mc_seqno) * LT_PER_BLOCK, this.#maxLt + 1n);
    const batch = this.#queue.sort((a, b) => a.order - b.order || a.seq - b.seq);
    this.#queue = [];
    const ids = { mc_seqno, shard: SHARD_ID, block_seqno: mc_seqno };
    // Each transaction is recorded as soon as it runs, so its cell tree (transaction, description, state
    // update) dies young instead of surviving the block and being copied by the young-generation collector.
    const done: Done[] = [];
    for (const pending of batch) {
      const result = this.#deliver(pending, startLt, utime);
      if (result !== null) {
        const { lt } = result;
        if (lt > MAX_SAFE_LT) throw new DevnetError(`lt ${lt} is past the devnet's range (2^53)`);
        done.push({ lt, order: Number(lt), raw: rawTransaction(result, ids), events: result.events });
      }
    }
    // Equal lts are ordered by account: its raw form (`0:` and 64 upper-case hex digits, one workchain)
    // orders as the address bytes do.
    done.sort((a, b) => a.order - b.order || byAccount(a.raw.account, b.raw.account));
    const transactions: RawTransaction[] = [];
    const truth: TruthRecord[] = [];
    for (const tx of done) {
      const raw = tx.raw;
      transactions.push(raw);
      for (const event of tx.events) {
        truth.push({ ...event, mc_seqno, tx_hash: raw.hash, lt: tx.lt, now: raw.now, account: raw.account });
      }
    }
    return { mc_seqno, utime, transactions, truth };
  }

  /**
   * Runs a get-method on an active account, as a liteserver's `runSmcMethod` would: exit code 0 and the
   * stack, 11 for an unknown method, -13 for an account that is missing or has no code (toncenter's
   * convention), or the code of a `ContractThrow`.
   */
  runGetMethod(address: Address, name: string, args: TupleItem[] = []): GetMethodResult {
    const account = this.#slots.get(rawAddress(address))?.account;
    if (account?.contract == null) return { exitCode: -13, stack: [] };
    const ctx: GetMethodContext = { address, balance: account.balance, now: this.utime };
    try {
      const stack = account.contract.runGetMethod(name, args, ctx);
      return stack === undefined ? { exitCode: 11, stack: [] } : { exitCode: 0, stack };
    } catch (error) {
      if (isContractThrow(error)) return { exitCode: error.exitCode, stack: [] };
      throw error;
    }
  }

  /** Unix time of the last produced block (genesis before the first). */
  get utime(): number {
    return this.genesisUtime + this.#mcSeqno * this.blockSeconds;
  }

  /** lt = max(block start, account end_lt, created_lt + 1); out messages get lt+1, lt+2, … */
  #deliver(pending: Pending, startLt: bigint, now: number): Executed | null {
    const { message, dest } = pending;
    // The sender's record of the message already holds the destination's raw form.
    const key = (isDevnetMessage(message) ? message.raw?.destination : undefined) ?? rawAddress(dest);
    const createdLt = message.info.type === "internal" ? message.info.createdLt : 0n;
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = { account: undefined, endLt: 0n };
      this.#slots.set(key, slot);
    }
    const lt = max(max(startLt, slot.endLt), createdLt + 1n);
    const account = slot.account;
    const result = execute({ account, address: dest, message, lt, now, registry: this.registry });
    if (result === null) {
      this.#droppedExternals++;
      return null;
    }
    slot.account = result.account;
    const endLt = lt + BigInt(result.outMessages.length) + 1n;
    slot.endLt = endLt;
    this.#maxLt = max(this.#maxLt, endLt);
    for (const out of result.outMessages) {
      if (out.info.type !== "internal") continue;
      this.#enqueue(out, out.info.dest, out.info.createdLt);
    }
    return result;
  }
}
