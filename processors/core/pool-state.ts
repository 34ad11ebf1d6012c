/**
 * The per-pool state tracker (DESIGN.md "per-pool state … updated in logical-time order"). Pure: no I/O,
 * no clock. It consumes each pool's OWN transactions in lt order and keeps the exact contract state
 * (reserves, LP supply, fees, collected protocol fees, lock, curve parameters):
 *
 * 1. First sight: the initial state from the deploying StateInit (./pool-init.ts); a pool with neither a
 *    known state nor a usable StateInit (e.g. already active before the first transaction seen) is
 *    `unknown` and skipped until `resync`: never a mismatch, never a guess. Its identity (router, token
 *    wallets) is still read from its transactions and written as a `pools` row with null for the rest.
 * 2. Each committed transaction is mapped to the contract model (./pool-v1.ts, ./pool-v2.ts, math from
 *    dex/amm), and the model's predicted out messages are CHECKED against what the pool really sent
 *    (./pool-check.ts). Equal → commit. Different → a `mismatch` report and the pool waits for `resync`:
 *    the tracker never guesses. A committed op it cannot model → an `unrecognised` report, same effect.
 * 3. Failed transactions (aborted, compute or action failure) and bounced messages change nothing: the
 *    contracts save state only on success and ignore bounces (contracts.md §3.7, §7; [v1-src] pool.func).
 *
 * Rows: a `pool_states` row only when the state changed (and at first sight), a `pools` row at first sight
 * (with `created_*` only for a deployment) and again when an unknown-state pool reveals more of itself.
 */
import { isAmmInputError, isTvmExit, type PoolState } from "../../dex/amm/index.ts";
import { type Decoded, decodeBody } from "../../dex/codecs/index.ts";
import type { PoolRow, PoolStateRow } from "../../schemas/facts.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { actualOutMsgs, renderOutMsgs, sameOutMsgs } from "./pool-check.ts";
import {
  firstSight,
  mergeIdentity,
  POOL_ONLY_OPS,
  type PoolIdentity,
  type PoolTypeLookup,
  poolIdentity,
  poolOnlyDex,
  sameIdentity,
} from "./pool-init.ts";
import { poolRow, samePoolState, stateRow, trackedFromRows, unknownStatePoolRow } from "./pool-rows.ts";
import {
  type BodyCellOf,
  describe,
  type PoolReport,
  parseBodyCell,
  type Step,
  type TrackedPool,
} from "./pool-types.ts";
import { modelV1 } from "./pool-v1.ts";
import { modelV2 } from "./pool-v2.ts";

export type { PoolTypeLookup } from "./pool-init.ts";
export type { PoolReport, PoolStatus, TrackedPool } from "./pool-types.ts";

/** What happened to one transaction. */
export type PoolTxStatus =
  | "changed"
  | "unchanged"
  | "failed"
  | "bounced"
  | "not_pool"
  | "duplicate"
  | "unknown_pool"
  | "awaiting_resync"
  | "mismatch"
  | "unrecognised";

export type PoolTxResult = {
  status: PoolTxStatus;
  state?: PoolStateRow;
  pool?: PoolRow;
  report?: PoolReport;
};

export type PoolBatchResult = {
  poolStates: PoolStateRow[];
  pools: PoolRow[];
  reports: PoolReport[];
  counts: Record<PoolTxStatus, number>;
};

/** Router and token wallets of a pool (raw addresses), as `get_pool_data` or the `pools` table give them. */
export type PoolInfo = { router: string | null; token0Wallet: string | null; token1Wallet: string | null };

/** Everything the tracker knows, as plain immutable data (persist it, or rebuild it with `fromRows`). */
export type PoolTrackerSnapshot = { pools: readonly TrackedPool[]; unknown: readonly string[] };

/** Not aborted, compute and action phases succeeded: only then does a pool save its new state. */
function committed(tx: RawTransaction): boolean {
  return !tx.aborted && tx.compute.success && (tx.action === null || tx.action.success);
}

function decodeIn(tx: RawTransaction, cellOf: BodyCellOf, dex?: "v1" | "v2"): Decoded {
  const cell = cellOf(tx.in_msg!);
  if (cell === null) {
    return { kind: "malformed", op: tx.in_msg!.opcode ?? 0, family: "boc", reason: "does not deserialize" };
  }
  return decodeBody(cell, dex === undefined ? {} : { dex });
}

/** Math exceptions escaping the engine mean "not modelled", never a crash. */
function runModel(p: TrackedPool, tx: RawTransaction, body: Decoded): Step {
  const input = { pool: p, now: BigInt(tx.now), source: tx.in_msg?.source ?? null };
  try {
    return p.state.type === "v1_constant_product" ? modelV1(input, body) : modelV2(input, body);
  } catch (e) {
    if (isAmmInputError(e) || isTvmExit(e)) return { kind: "unmodelled", reason: `engine: ${e.message}` };
    throw e;
  }
}

/** An unknown-state pool: what it revealed of itself so far. */
type UnknownPool = { dex: "v1" | "v2"; identity: PoolIdentity };

export class PoolTracker {
  readonly #pools = new Map<string, TrackedPool>();
  readonly #unknown = new Set<string>();
  /** Identity of the unknown-state pools seen by this tracker (not kept in snapshots: rows hold it). */
  readonly #identities = new Map<string, UnknownPool>();

  /** `poolTypeOf` names the type of a v2 pool (its data cannot tell constant_product from constant_sum). */
  constructor(private readonly poolTypeOf: PoolTypeLookup = () => undefined) {}

  /** Restart from the latest `pool_states` row of each pool and its `pools` row (router, wallets). */
  static fromRows(
    states: readonly PoolStateRow[],
    pools: readonly PoolRow[] = [],
    poolTypeOf?: PoolTypeLookup,
  ): PoolTracker {
    const t = new PoolTracker(poolTypeOf);
    for (const p of trackedFromRows(states, pools)) t.#pools.set(p.pool, p);
    return t;
  }

  get(pool: string): TrackedPool | undefined {
    return this.#pools.get(pool);
  }

  /** Pools the shell should read from ChainState and pass to `resync`: mismatched, unmodelled or unknown. */
  needsResync(): string[] {
    const stale = [...this.#pools.values()].filter((p) => p.status === "resync").map((p) => p.pool);
    return [...stale, ...this.#unknown];
  }

  /** The DEX generation of a pool this tracker tracks or saw with an unknown state (undefined: neither). */
  dexOf(pool: string): "v1" | "v2" | undefined {
    const p = this.#pools.get(pool);
    return p === undefined ? this.#identities.get(pool)?.dex : dexOf(p);
  }

  /** Reset a pool to a state read from the chain as of `lt`; transactions up to `lt` are then skipped. */
  resync(pool: string, state: PoolState, lt: bigint, info?: PoolInfo): void {
    // what `info` leaves null (a v1 pool's data names no router) is what the pool already showed of itself
    const seen = this.#pools.get(pool) ?? this.#identities.get(pool)?.identity;
    const pick = (k: keyof PoolInfo) => info?.[k] ?? seen?.[k] ?? null;
    const [router, token0Wallet, token1Wallet] = [pick("router"), pick("token0Wallet"), pick("token1Wallet")];
    this.#pools.set(pool, { pool, router, token0Wallet, token1Wallet, state, lt, status: "live" });
    this.#unknown.delete(pool);
    this.#identities.delete(pool);
  }

  snapshot(): PoolTrackerSnapshot {
    return { pools: [...this.#pools.values()], unknown: [...this.#unknown] };
  }

  restore(s: PoolTrackerSnapshot): void {
    this.#pools.clear();
    this.#unknown.clear();
    for (const p of s.pools) this.#pools.set(p.pool, p);
    for (const u of s.unknown) this.#unknown.add(u);
    this.#identities.clear();
  }

  /**
   * Applies a batch in lt order (per account, lt order is the only order that matters). `cellOf` may
   * answer body cells from a cache shared with other readers; the result does not depend on it.
   */
  applyBatch(txs: readonly RawTransaction[], cellOf: BodyCellOf = parseBodyCell): PoolBatchResult {
    const out: PoolBatchResult = { poolStates: [], pools: [], reports: [], counts: emptyCounts() };
    const sorted = [...txs].sort((a, b) => compareLt(a.lt, b.lt));
    for (const tx of sorted) {
      const r = this.apply(tx, cellOf);
      out.counts[r.status]++;
      if (r.state) out.poolStates.push(r.state);
      if (r.pool) out.pools.push(r.pool);
      if (r.report) out.reports.push(r.report);
    }
    return out;
  }

  /** One transaction of any account; only pools (known, or deploying now) are acted on. */
  apply(tx: RawTransaction, cellOf: BodyCellOf = parseBodyCell): PoolTxResult {
    const known = this.#pools.get(tx.account);
    if (known === undefined) return this.#unseen(tx, cellOf);
    const lt = BigInt(tx.lt);
    if (lt <= known.lt) return { status: "duplicate" };
    if (known.status === "resync") return { status: "awaiting_resync" };
    const p = { ...known, lt };
    if (!committed(tx) || tx.in_msg === null) {
      this.#pools.set(p.pool, p);
      return { status: "failed" };
    }
    if (tx.in_msg.bounced === true) {
      this.#pools.set(p.pool, p);
      return { status: "bounced" };
    }
    return this.#step(p, tx, decodeIn(tx, cellOf, dexOf(p)), cellOf);
  }

  #unseen(tx: RawTransaction, cellOf: BodyCellOf): PoolTxResult {
    if (this.#unknown.has(tx.account)) return this.#stillUnknown(tx, cellOf);
    const m = tx.in_msg;
    if (m === null || m.bounced === true || m.opcode === null || !POOL_ONLY_OPS.has(m.opcode)) {
      return { status: "not_pool" };
    }
    if (!committed(tx)) return { status: "failed" };
    const body = decodeIn(tx, cellOf);
    const dex = poolOnlyDex(body.kind);
    if (dex === undefined) return { status: "not_pool" };
    const sight = firstSight(tx, dex, this.poolTypeOf);
    if (sight.kind === "unknown") {
      this.#unknown.add(tx.account);
      const identity = poolIdentity(tx, dex, cellOf);
      this.#identities.set(tx.account, { dex, identity });
      const report = { kind: "unknown_pool" as const, ...this.#where(tx, body), reason: sight.reason };
      return { status: "unknown_pool", report, pool: unknownStatePoolRow(tx.account, dex, identity, tx) };
    }
    const r = this.#step({ ...sight.pool, lt: BigInt(tx.lt) }, tx, body, cellOf);
    const now = this.#pools.get(tx.account)!;
    const pool = poolRow(now, tx);
    if (now.status !== "live") return { ...r, pool };
    // a newly seen pool always gets its first state row, even when this message changed nothing
    return { status: "changed", state: r.state ?? stateRow(now, tx), pool };
  }

  /** A later transaction of an unknown-state pool: no state, but maybe more of its identity (a new row). */
  #stillUnknown(tx: RawTransaction, cellOf: BodyCellOf): PoolTxResult {
    const known = this.#identities.get(tx.account);
    const m = tx.in_msg;
    if (known === undefined || !committed(tx) || m === null || m.bounced === true)
      return { status: "unknown_pool" };
    const { dex, identity } = known;
    const next = mergeIdentity(identity, poolIdentity(tx, dex, cellOf));
    if (sameIdentity(next, identity)) return { status: "unknown_pool" };
    this.#identities.set(tx.account, { dex, identity: next });
    return { status: "unknown_pool", pool: unknownStatePoolRow(tx.account, dex, next, tx) };
  }

  #step(p: TrackedPool, tx: RawTransaction, body: Decoded, cellOf: BodyCellOf): PoolTxResult {
    const step = runModel(p, tx, body);
    if (step.kind === "unmodelled") {
      return this.#stale(p, { kind: "unrecognised", ...this.#where(tx, body), reason: step.reason });
    }
    if (step.kind === "diverged") {
      const { expected, actual } = step;
      return this.#stale(p, { kind: "mismatch", ...this.#where(tx, body), expected, actual });
    }
    if (step.expect !== null) {
      const actual = actualOutMsgs(tx.out_msgs, dexOf(p), cellOf);
      if (!sameOutMsgs(step.expect, actual)) {
        const expected = renderOutMsgs(step.expect);
        const where = this.#where(tx, body);
        return this.#stale(p, { kind: "mismatch", ...where, expected, actual: renderOutMsgs(actual) });
      }
    }
    const changed = !samePoolState(p.state, step.state);
    const next = { ...p, state: step.state };
    this.#pools.set(p.pool, next);
    return changed ? { status: "changed", state: stateRow(next, tx) } : { status: "unchanged" };
  }

  #stale(p: TrackedPool, report: PoolReport): PoolTxResult {
    this.#pools.set(p.pool, { ...p, status: "resync" });
    return { status: report.kind === "mismatch" ? "mismatch" : "unrecognised", report };
  }

  #where(tx: RawTransaction, body: Decoded) {
    return { pool: tx.account, txHash: tx.hash, lt: BigInt(tx.lt), op: describe(body) };
  }
}

const dexOf = (p: TrackedPool) => (p.state.type === "v1_constant_product" ? "v1" : "v2");

function compareLt(a: string, b: string): number {
  // decimal strings of digits: shorter is smaller, equal lengths compare lexicographically
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function emptyCounts(): Record<PoolTxStatus, number> {
  return {
    changed: 0,
    unchanged: 0,
    failed: 0,
    bounced: 0,
    not_pool: 0,
    duplicate: 0,
    unknown_pool: 0,
    awaiting_resync: 0,
    mismatch: 0,
    unrecognised: 0,
  };
}
