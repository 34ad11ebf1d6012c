/**
 * The processor core: bus records in, fact rows out (STYLE practice 3; the I/O shell is ../shell.ts).
 *
 *   records ─┬─ rejected ──────────────────────────────► unknown_messages (malformed, with the reason)
 *            ├─ every tx ──► transaction-rows ─────────► transactions, messages (edges + bodies)
 *            ├─ pool txs ──► PoolTracker (lt order) ───► pool_states, pools
 *            └─ TraceWindow ─► classify ─► released ops ► swaps, swap_routes, liquidity, referral_fees,
 *                           └─ evicted blocks ─────────► blocks           vault_withdrawals, unknown_messages
 *                                                      ► assets, routers, pools (every one an
 *                                                        operation names; lookups fill in the rest)
 *
 * It keeps state between batches (the window, the pool tracker, what it learned about assets), but no
 * I/O of its own: immutable chain facts it cannot see in the transactions (a router wallet's jetton,
 * a token's metadata, a router's type) come from injected `CoreLookups`, cached for good.
 */
import { createHash } from "node:crypto";
import { Cell, loadStateInit } from "@ton/core";
import type { PoolType } from "../../dex/amm/index.ts";
import {
  type BocParser,
  bodyCell,
  type ClassifyMemo,
  classify,
  createClassifyMemo,
  decodeMessageOnce,
  type Operation,
} from "../../dex/classify/index.ts";
import { v2LayoutsOf } from "../../dex/pool-data.ts";
import { poolStateColumns } from "../../dex/pool-state-row.ts";
import type { PricingConfig } from "../../dex/pricing/index.ts";
import type {
  AssetRow,
  FactRows,
  PoolRow,
  PoolStateRow,
  RouterRow,
  UnknownMessageRow,
} from "../../schemas/facts.ts";
import {
  isRejected,
  type RawMessage,
  type RawTransaction,
  type RejectedRecord,
} from "../../schemas/raw-transaction.ts";
import { type AssetLearner, assetsOf, createAssetLearner } from "./assets.ts";
import { ReservesAfter, traceMaker } from "./feed-columns.ts";
import type { CoreLookups, RouterInfo } from "./lookups.ts";
import { operationRows } from "./operation-rows.ts";
import { type PoolReport, PoolTracker } from "./pool-state.ts";
import { SwapPricer } from "./swap-usd.ts";
import { blockRow, transactionsRows } from "./transaction-rows.ts";
import { TraceWindow, type WindowStep } from "./window.ts";

export type { ChainPoolState, CoreLookups, RouterInfo } from "./lookups.ts";

export type CoreOptions = {
  windowBlocks: number;
  lookups: CoreLookups;
  /** Message-body parser for the classifier (default `Cell.fromBase64`; bin/ hands in a faster one). */
  parseBoc?: BocParser;
  /**
   * The stored cursor this core resumes after (0 for a fresh start). Operations anchored below
   * `resumedAfter + 1 + windowBlocks` were released before the restart, with their whole trace; the
   * re-read blocks before that only give context to the operations after it, so they are not released again
   * (a second release would see a trace cut at the resume point and overwrite good rows).
   */
  resumedAfter?: number;
  /** USD pricing of swaps (dex/pricing; ./swap-usd.ts); absent: the USD columns stay null. */
  pricing?: PricingConfig;
};

/**
 * A pool the tracker could not follow (a report), re-read from the chain: `resynced` at `lt`; `unavailable`
 * when the chain could not say; `behind` when the read was older than a transaction already processed.
 */
export type PoolResync = {
  pool: string;
  reason: PoolReport["kind"];
  outcome: "resynced" | "unavailable" | "behind";
  lt: bigint | null;
};

export type CoreResult = { rows: FactRows; poolReports: PoolReport[]; poolResyncs?: PoolResync[] };

/** Opcodes of router → v2 pool messages that may deploy a pool (they carry its StateInit). */
const V2_POOL_KINDS =
  /^stonfi\.v2\.(swap|provide_lp|internal_set_fees|internal_set_params|internal_update_status|reset_gas_pool)$/;

export class ProcessorCore {
  readonly #window: TraceWindow;
  readonly #tracker: PoolTracker;
  readonly #lookups: CoreLookups;
  readonly #assets: AssetLearner;
  readonly #poolTypes = new Map<string, PoolType>();
  /** The v2 pool types the chain stated (`#poolTypes` also holds layout guesses, which rows never show). */
  readonly #chainPoolTypes = new Map<string, PoolType>();
  /** The window re-classifies its transactions every step; their messages are decoded once (dex/classify/message-cache.ts). */
  readonly #memo: ClassifyMemo;
  /** Reserves after each recent pool transaction, for the feed columns of the operations it anchors. */
  readonly #reserves = new ReservesAfter();
  /** USD columns of swaps from the pool states before each swap; null without a pricing config. */
  readonly #pricer: SwapPricer | null;
  #pricerSeeded = false;

  /** `tracker` rebuilds a tracker (e.g. `PoolTracker.fromRows` after a restart) around the core's types. */
  readonly #resumedAfter: number;

  constructor(
    options: CoreOptions,
    tracker?: (poolTypeOf: (pool: string) => PoolType | undefined) => PoolTracker,
  ) {
    const resumed = options.resumedAfter ?? 0;
    this.#resumedAfter = resumed;
    this.#window = new TraceWindow(
      options.windowBlocks,
      resumed > 0 ? resumed + 1 + options.windowBlocks : 0,
    );
    this.#lookups = options.lookups;
    this.#memo = createClassifyMemo(options.parseBoc);
    this.#tracker = (tracker ?? ((types) => new PoolTracker(types)))(this.poolTypeOf);
    this.#assets = createAssetLearner(options.lookups);
    this.#pricer = options.pricing === undefined ? null : new SwapPricer(options.pricing);
  }

  /** Pool types known so far (restored trackers ask for types through this map too). */
  poolTypeOf = (pool: string): PoolType | undefined => this.#poolTypes.get(pool);

  /**
   * After a restart: the pool and router rows already stored, so they are refreshed, not re-created; and
   * the stored pool states from each pool's last one at or before the resume point on (`poolStates`, a
   * superset is fine), so the operations re-released from re-read blocks are priced as before
   * (./swap-usd.ts) and carry the reserves after their pool transactions (./feed-columns.ts).
   */
  restore(rows: {
    pools: readonly PoolRow[];
    routers: readonly RouterRow[];
    poolStates?: readonly PoolStateRow[];
  }): void {
    for (const p of rows.pools) {
      this.#store(p);
      this.#pricer?.learnPool(p.pool, p.token0_master, p.token1_master);
    }
    if (rows.poolStates !== undefined) {
      this.#pricer?.restoreHistory(rows.poolStates, this.#resumedAfter);
      // The reserves after the pool transactions re-read below the tracker's restored state (it skips
      // them): the operations released from re-read blocks carry them as before the restart.
      this.#reserves.record(rows.poolStates);
    }
    for (const r of rows.routers) this.#routers.set(r.address, r);
    this.#assets.restore(rows);
  }

  get tracker(): PoolTracker {
    return this.#tracker;
  }

  /**
   * Where a restart must resume so that every operation not yet released is rebuilt with its whole
   * trace: `depth` blocks before the oldest block still in the window. Writes are idempotent, so the
   * blocks read twice change nothing.
   */
  /** The newest mc_seqno this core has read. */
  get head(): number {
    return this.#window.head;
  }

  resumeAfter(): number {
    return Math.max(0, this.#window.oldest - 1 - this.#window.depth);
  }

  /**
   * `wholeThrough`: the blocks up to it are whole (their block-end markers were read), so they are stepped
   * now; a block without one is stepped once a later block arrives, or at the flush.
   */
  async process(
    records: readonly (RawTransaction | RejectedRecord)[],
    flush = false,
    wholeThrough = 0,
  ): Promise<CoreResult> {
    const txs = records.filter((r): r is RawTransaction => !isRejected(r));
    const rejected = records.filter(isRejected).map(rejectedRow);
    await this.#resolvePoolTypes(txs);
    if (this.#pricer !== null && !this.#pricerSeeded) {
      // A restored tracker's states predate every swap this core will release.
      this.#pricer.seed(this.#tracker.snapshot().pools);
      this.#pricerSeeded = true;
    }
    const pools = this.#tracker.applyBatch(txs, this.#cellOf);
    const resynced = await this.#resync(pools.reports, txs);
    this.#reserves.record(pools.poolStates);
    this.#reserves.record(resynced.states);
    this.#pricer?.record(pools.poolStates);
    this.#pricer?.record(resynced.states);
    this.#window.add(txs);
    this.#window.whole(wholeThrough);
    // Block by block (./window.ts): each step's operations are enriched before the next step classifies,
    // so the masters the classifier is hinted with are those of the chain position, not of the batch.
    const step: { released: Operation[]; evicted: WindowStep["evicted"] } = { released: [], evicted: [] };
    const classifier = (batch: readonly RawTransaction[]) =>
      classify(batch, { jettonMasters: this.#assets.hints(), memo: this.#memo });
    for (const s of this.#window.steps(classifier, flush)) {
      step.released.push(...(await this.#assets.enrich(s.released)));
      step.evicted.push(...s.evicted);
    }
    const ops = step.released;
    const evicted = new Map(step.evicted.flatMap((b) => b.transactions.map((t) => [t.hash, t] as const)));
    const find = (hash: string) => this.#window.transaction(hash) ?? evicted.get(hash);
    const evictedSenders = new Map(
      step.evicted.flatMap((b) => b.transactions.flatMap((t) => t.out_msgs.map((m) => [m.hash, t] as const))),
    );
    const trace = {
      transaction: find,
      senderOf: (msg: string) => this.#window.senderOf(msg) ?? evictedSenders.get(msg),
    };
    const opRows = operationRows(ops, {
      mcSeqnoOf: (hash) => find(hash)?.mc_seqno ?? 0,
      utimeOf: (hash) => find(hash)?.now ?? 0,
      feedOf: (pool, txHash, lt, otherwise) => {
        const r = this.#reserves.get(pool, lt);
        return {
          maker: traceMaker(txHash, otherwise, trace),
          reserve0_after: r?.reserve0_after ?? null,
          reserve1_after: r?.reserve1_after ?? null,
        };
      },
    });
    const lastEvicted = step.evicted.at(-1)?.mc_seqno;
    if (lastEvicted !== undefined) this.#reserves.prune(lastEvicted);
    const known = await this.#assets.rows(ops);
    const routers = await this.#routerRows(ops);
    const poolRows = this.#poolRows([...pools.pools, ...resynced.pools, ...opPoolRows(ops)]);
    const priced = this.#priceRows(ops, opRows, lastEvicted);
    const tx = transactionsRows(txs);
    return {
      rows: {
        ...tx,
        blocks: step.evicted.map((b) => blockRow({ ...b, utime: maxNow(b.transactions) })),
        ...opRows,
        ...priced,
        unknown_messages: [...opRows.unknown_messages, ...rejected],
        pool_states: [...pools.poolStates, ...resynced.states],
        pools: poolRows,
        assets: known,
        routers,
      },
      poolReports: pools.reports,
      poolResyncs: resynced.resyncs,
    };
  }

  /** Why each pool waits for a read from the chain (the kind of the report that stopped it). */
  readonly #waiting = new Map<string, PoolReport["kind"]>();

  /**
   * Every pool a report left waiting (unknown state at first sight, a mismatch, an op not modelled) is read
   * from the chain, once per batch with a transaction of it, paired with its last transaction's lt: the
   * tracker restarts from that state and skips every transaction up to that lt. A read older than a
   * transaction of this batch is not used (the transactions between would be lost), and a pool the chain
   * could not answer for is asked again at its next transaction.
   */
  async #resync(
    reports: readonly PoolReport[],
    txs: readonly RawTransaction[],
  ): Promise<{ resyncs: PoolResync[]; states: PoolStateRow[]; pools: PoolRow[] }> {
    const out = { resyncs: [] as PoolResync[], states: [] as PoolStateRow[], pools: [] as PoolRow[] };
    const read = this.#lookups.poolState;
    if (read === undefined) return out;
    for (const r of reports) this.#waiting.set(r.pool, r.kind);
    const lastLt = new Map<string, bigint>();
    for (const tx of txs) {
      const lt = BigInt(tx.lt);
      if ((lastLt.get(tx.account) ?? -1n) < lt) lastLt.set(tx.account, lt);
    }
    for (const pool of this.#tracker.needsResync()) {
      const dex = this.#tracker.dexOf(pool);
      if (!lastLt.has(pool) || dex === undefined) continue;
      const reason = this.#waiting.get(pool) ?? "unknown_pool";
      const chain = await read.call(this.#lookups, pool, dex);
      if (chain === null || chain.lt < (lastLt.get(pool) ?? 0n)) {
        const outcome = chain === null ? "unavailable" : "behind";
        out.resyncs.push({ pool, reason, outcome, lt: chain?.lt ?? null });
        continue;
      }
      this.#tracker.resync(pool, chain.state, chain.lt, chain.info);
      this.#waiting.delete(pool);
      const p = this.#tracker.get(pool)!;
      out.resyncs.push({ pool, reason, outcome: "resynced", lt: chain.lt });
      out.states.push({
        pool,
        lt: chain.lt,
        tx_hash: chain.txHash,
        mc_seqno: chain.mcSeqno,
        utime: chain.utime,
        ...poolStateColumns(chain.state),
      });
      out.pools.push({
        pool,
        router: p.router,
        dex,
        pool_type: chain.state.type,
        token0_wallet: p.token0Wallet,
        token1_wallet: p.token1Wallet,
        token0_master: null,
        token1_master: null,
        created_lt: null,
        created_utime: null,
        version: chain.lt,
      });
    }
    return out;
  }

  /** v2 pools seen deploying: ask their type once, before the tracker needs it. */
  async #resolvePoolTypes(txs: readonly RawTransaction[]): Promise<void> {
    for (const tx of txs) {
      if (tx.in_msg?.init_boc === undefined || this.#poolTypes.has(tx.account)) continue;
      if (this.#tracker.get(tx.account) !== undefined) continue;
      const kind = this.#kindOf(tx.in_msg);
      if (!V2_POOL_KINDS.test(kind)) continue;
      const stated = await this.#lookups.poolType(tx.account);
      if (stated !== undefined) this.#chainPoolTypes.set(tx.account, stated);
      const type = stated ?? layoutGuess(tx.in_msg.init_boc);
      if (type !== undefined) this.#poolTypes.set(tx.account, type);
    }
  }

  /** Body cells for the pool tracker, from the memo the classifier decodes with (one parse each). */
  readonly #cellOf = (m: RawMessage): Cell | null => {
    const parsed = bodyCell(this.#memo, m);
    return parsed.ok ? parsed.cell : null;
  };

  /** The decoded kind of a message ("unknown" when its BOC does not parse), decoded once for the window. */
  #kindOf(m: RawMessage): string {
    try {
      const { body } = decodeMessageOnce(m, this.#memo);
      return body.kind === "boc_error" ? "unknown" : body.kind;
    } catch {
      return "unknown";
    }
  }

  /** Router rows as last written: refreshed (version + 1) when their pTON becomes known. */
  readonly #routers = new Map<string, RouterRow>();

  /**
   * Every router an operation names gets a row: the lookup's (the chain's get-methods) when it answers,
   * else what the operations say (its DEX generation) with null for the rest.
   */
  async #routerRows(ops: readonly Operation[]): Promise<RouterRow[]> {
    const out = new Map<string, RouterRow>();
    for (const op of ops) {
      if (!("router" in op) || op.router === null || !("dex" in op)) continue;
      let row = this.#routers.get(op.router);
      if (row === undefined) {
        const info = await this.#lookups.router(op.router, op.dex);
        row = { address: op.router, ...(info ?? routerOfOps(op.dex)), version: 1n };
        this.#routers.set(op.router, row);
        out.set(row.address, row);
      }
      const ton = assetsOf(op).find((a) => a.kind === "ton" && a.master !== null && a.router_wallet !== null);
      if (ton !== undefined && row.pton_master === null) {
        row = { ...row, pton_master: ton.master, pton_wallet: ton.router_wallet, version: row.version + 1n };
        this.#routers.set(op.router, row);
        out.set(row.address, row);
      }
    }
    return [...out.values()];
  }

  /** Pool rows as last written; rewritten (a higher version) whenever they learn something. */
  readonly #pools = new Map<string, PoolRow>();

  /**
   * `fresh`: what the tracker and the operations revealed in this batch. Each pool row keeps what it knew
   * and takes what it did not (immutable facts: router, wallets, curve, deployment), plus the token
   * masters the asset learner resolved for its wallets.
   */
  #poolRows(fresh: readonly PoolRow[]): PoolRow[] {
    for (const p of fresh) {
      const old = this.#pools.get(p.pool);
      this.#pools.set(p.pool, old === undefined ? p : mergePoolRow(old, p));
    }
    const out: PoolRow[] = [];
    for (const [pool, row] of this.#pools) {
      const masters = this.#assets.poolMasters(row);
      const chainType = row.pool_type === null ? this.#chainPoolTypes.get(pool) : undefined;
      const next = { ...row, ...masters, ...(chainType === undefined ? {} : { pool_type: chainType }) };
      const written = this.#written.get(pool);
      if (written !== undefined && samePoolRow(written, next)) continue;
      // The version is what the row knows, not how many batches added to it: the same chain gives the
      // same final row and version however it was cut. Facts are only ever added, so each rewrite knows
      // more (and a row stored with an older, larger version still loses to its rewrite).
      const known = knownFacts(next);
      const version = written === undefined || written.version < known ? known : written.version + 1n;
      const fact = { ...next, version };
      this.#store(fact);
      out.push(fact);
    }
    return out;
  }

  /**
   * Swap, referral-fee and withdrawal rows with their USD columns (after `#poolRows`, which names every
   * pool's tokens), priced in release order: a swap feeds the VWAP window the next rows are clamped with,
   * and the release order, unlike a batch, does not depend on where batches are cut. `operationRows` makes
   * one row of each such operation, in operation order.
   */
  #priceRows(ops: readonly Operation[], rows: PricedRows, lastEvicted: number | undefined): PricedRows {
    const pricer = this.#pricer;
    if (pricer === null) return rows;
    for (const row of this.#pools.values()) pricer.learnPool(row.pool, row.token0_master, row.token1_master);
    const out: PricedRows = { swaps: [], referral_fees: [], vault_withdrawals: [] };
    for (const op of ops) {
      if (op.type === "swap") out.swaps.push(pricer.priceSwap(rows.swaps[out.swaps.length]!));
      else if (op.type === "referral_payment" || op.type === "vault_deposit")
        out.referral_fees.push(pricer.priceAmount(rows.referral_fees[out.referral_fees.length]!));
      else if (op.type === "vault_withdrawal")
        out.vault_withdrawals.push(pricer.priceAmount(rows.vault_withdrawals[out.vault_withdrawals.length]!));
    }
    if (lastEvicted !== undefined) pricer.prune(lastEvicted);
    return out;
  }

  /** The pool rows as the store has them (restored, or written by this core). */
  readonly #written = new Map<string, PoolRow>();

  #store(row: PoolRow): void {
    this.#pools.set(row.pool, row);
    this.#written.set(row.pool, row);
  }
}

/** The rows that carry USD columns (`#priceRows`). */
type PricedRows = Pick<ReturnType<typeof operationRows>, "swaps" | "referral_fees" | "vault_withdrawals">;

/** A router row from the operations alone: v1 has a single version and curve; the rest needs the chain. */
function routerOfOps(dex: "v1" | "v2"): RouterInfo {
  const v1 = dex === "v1";
  return {
    dex,
    pool_type: v1 ? "v1_constant_product" : null,
    major: v1 ? 1 : 2,
    minor: v1 ? 0 : null,
    development: null,
    pton_master: null,
    pton_wallet: null,
    is_locked: null,
    admin: null,
  };
}

/**
 * The pools the operations name, with what they say of them: the DEX generation and the router. Which
 * asset is token0 is not in an operation (the tracker reads it from the pool's own messages).
 */
function opPoolRows(ops: readonly Operation[]): PoolRow[] {
  const out: PoolRow[] = [];
  for (const op of ops) {
    if (!("pool" in op) || op.pool === null || !("dex" in op)) continue;
    const router = "router" in op ? op.router : null;
    out.push({
      pool: op.pool,
      router,
      dex: op.dex,
      pool_type: op.dex === "v1" ? "v1_constant_product" : null,
      token0_wallet: null,
      token1_wallet: null,
      token0_master: null,
      token1_master: null,
      created_lt: null,
      created_utime: null,
      version: op.lt,
    });
  }
  return out;
}

const POOL_FACTS = [
  "router",
  "pool_type",
  "token0_wallet",
  "token1_wallet",
  "token0_master",
  "token1_master",
  "created_lt",
  "created_utime",
] as const;

/** What `old` knew, completed by `add` (known facts never change, so a known value is kept). */
function mergePoolRow(old: PoolRow, add: PoolRow): PoolRow {
  const merged: PoolRow = { ...old };
  for (const k of POOL_FACTS) (merged as Record<string, unknown>)[k] = old[k] ?? add[k];
  return merged;
}

/** 1 + the number of pool facts the row knows: its ReplacingMergeTree version. */
function knownFacts(row: PoolRow): bigint {
  return 1n + BigInt(POOL_FACTS.filter((k) => row[k] !== null).length);
}

function samePoolRow(a: PoolRow, b: PoolRow): boolean {
  return a.dex === b.dex && POOL_FACTS.every((k) => a[k] === b[k]);
}

/**
 * Without chain access (a replay), the data layout decides; constant_product and constant_sum share one
 * layout, and only constant_product has routers on mainnet (contracts.md §3.1). A wrong guess could not
 * go unnoticed: the tracker checks every swap's output against the pool's own pay_to.
 */
function layoutGuess(initBoc: string): PoolType | undefined {
  try {
    const data = loadStateInit(Cell.fromBase64(initBoc).beginParse()).data;
    if (!data) return undefined;
    const fits = v2LayoutsOf(data);
    if (fits.length === 1) return fits[0];
    return fits.includes("v2_constant_product") ? "v2_constant_product" : undefined;
  } catch {
    return undefined;
  }
}

function maxNow(txs: readonly RawTransaction[]): number {
  return txs.reduce((m, t) => Math.max(m, t.now), 0);
}

/** A record that was not a RawTransaction: kept as `malformed` with its reason (nothing dropped). */
function rejectedRow(r: RejectedRecord): UnknownMessageRow {
  const id = createHash("sha256")
    .update(`${r.origin ?? ""}\n${r.raw}`)
    .digest("hex");
  return {
    id: `rejected:${id}`,
    kind: "malformed",
    tx_hash: "",
    lt: 0n,
    mc_seqno: r.mc_seqno ?? 0,
    utime: 0,
    msg_hash: null,
    opcode: null,
    reason: `${r.origin ? `${r.origin}: ` : ""}${r.reason}`,
  };
}

export type { AssetRow };
