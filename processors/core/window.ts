/**
 * The trace window: a DEX operation spans several transactions over several blocks (a v2 swap is about
 * nine hops, one block each), and the classifier needs the whole trace to fill the fields that depend on
 * later transactions (payout delivery, success, routes). The window keeps the last `depth` blocks of
 * transactions and steps **block by block, by chain position**: the step of block `b` classifies the
 * blocks `b − depth … b` (whatever the batches held beyond `b` is not looked at yet) and releases an
 * operation
 * - as soon as it is complete: every internal message sent by its transactions has been received by a
 *   transaction in those blocks (TON delivers every internal message to some transaction), or
 * - when its anchor block leaves the window (`anchor = b − depth`), complete or not (unknown/malformed
 *   leftovers only then, since a later transaction may still explain them).
 * Released operations are final: later steps never release the same id again while it is in the window.
 * A leftover on a transaction that a released operation covers is not released (the window had only cut
 * its trace).
 *
 * So what is released, and with which transactions, depends only on the chain, never on where batches
 * were cut: the step of `b` sees the same blocks whether they came in one batch or in a thousand. A block
 * is stepped once it is known to be whole: its block-end marker was read (`whole`), a transaction of a
 * later block arrived (the stream is in block order), or the flush that ends a finite input came; until
 * then the newest block waits, since a batch may end in the middle of it.
 */
import type { Operation } from "../../dex/classify/index.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";

export type Classifier = (txs: readonly RawTransaction[]) => Operation[];

export type WindowStep = {
  /** Operations released by this step, in the classifier's order. */
  released: Operation[];
  /** Blocks that left the window in this step (ascending), with their transactions. */
  evicted: { mc_seqno: number; transactions: RawTransaction[] }[];
};

export class TraceWindow {
  readonly #blocks = new Map<number, RawTransaction[]>();
  /** Released operation id → the mc_seqno of its anchor (pruned with the block). */
  readonly #released = new Map<string, number>();
  readonly #mcOfTx = new Map<string, number>();
  readonly #txs = new Map<string, RawTransaction>();
  /** Outbound message hash → the transaction in the window that sent it (trace walks). */
  readonly #senders = new Map<string, RawTransaction>();
  /** Transactions belonging to released operations (→ anchor mc), kept for two window depths. */
  readonly #covered = new Map<string, number>();
  #head = 0;
  /** The newest block stepped (every block up to it has been classified as the chain position says). */
  #stepped = 0;
  /** Every block up to this one is whole (its block-end marker was read). */
  #whole = 0;

  /** Operations anchored below `releaseFrom` are never released (see CoreOptions.resumedAfter). */
  constructor(
    readonly depth: number,
    readonly releaseFrom = 0,
  ) {
    if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`window depth must be ≥ 1, got ${depth}`);
  }

  /** The highest mc_seqno seen. */
  get head(): number {
    return this.#head;
  }

  /** Lowest mc_seqno whose operations may still be released (head + 1 when none). */
  get oldest(): number {
    let min = this.#head + 1;
    for (const mc of this.#blocks.keys()) min = Math.min(min, mc);
    return Math.max(min, this.releaseFrom);
  }

  mcSeqnoOf(txHash: string): number | undefined {
    return this.#mcOfTx.get(txHash);
  }

  /** A transaction still in the window. */
  transaction(txHash: string): RawTransaction | undefined {
    return this.#txs.get(txHash);
  }

  /** The transaction still in the window that sent the message `msgHash`. */
  senderOf(msgHash: string): RawTransaction | undefined {
    return this.#senders.get(msgHash);
  }

  /** The transactions in the window (up to block `upTo`), in block order. */
  transactions(upTo = Number.POSITIVE_INFINITY): RawTransaction[] {
    return [...this.#blocks.keys()]
      .filter((mc) => mc <= upTo)
      .sort((a, b) => a - b)
      .flatMap((mc) => this.#blocks.get(mc)!);
  }

  add(txs: readonly RawTransaction[]): void {
    for (const tx of txs) {
      let block = this.#blocks.get(tx.mc_seqno);
      if (block === undefined) {
        block = [];
        this.#blocks.set(tx.mc_seqno, block);
      }
      block.push(tx);
      this.#mcOfTx.set(tx.hash, tx.mc_seqno);
      this.#txs.set(tx.hash, tx);
      for (const m of tx.out_msgs) this.#senders.set(m.hash, tx);
      if (tx.mc_seqno > this.#head) this.#head = tx.mc_seqno;
    }
  }

  /** Every block up to `mcSeqno` is whole: no transaction of it is still to come. */
  whole(mcSeqno: number): void {
    if (mcSeqno > this.#whole) this.#whole = mcSeqno;
  }

  /**
   * Every step that is ready (see `next`), in block order, merged: the released operations and the evicted
   * blocks of all of them.
   */
  step(classify: Classifier, flush = false): WindowStep {
    const out: WindowStep = { released: [], evicted: [] };
    for (const s of this.steps(classify, flush)) {
      out.released.push(...s.released);
      out.evicted.push(...s.evicted);
    }
    return out;
  }

  /**
   * Every step that is ready, one at a time: the next is computed only when asked for, so the caller may
   * act on a step's operations before the next step classifies (the core enriches them in between).
   */
  *steps(classify: Classifier, flush = false): Generator<WindowStep> {
    for (let s = this.next(classify, flush); s !== null; s = this.next(classify, flush)) yield s;
  }

  /**
   * The next step, or null when none is ready: the step of the oldest block not stepped yet, when it is
   * whole (a later block has arrived, its marker was read, or `flush`); with `flush`, once every block is stepped, one last step releasing
   * everything still waiting and emptying the window.
   */
  next(classify: Classifier, flush = false): WindowStep | null {
    let block = Number.POSITIVE_INFINITY;
    for (const mc of this.#blocks.keys()) if (mc > this.#stepped && mc < block) block = mc;
    if (block < this.#head || block <= this.#whole || (flush && block === this.#head)) {
      this.#stepped = block;
      return this.#stepAt(classify, block, block - this.depth);
    }
    if (!flush || this.#blocks.size === 0) return null;
    return this.#stepAt(classify, this.#head, Number.POSITIVE_INFINITY);
  }

  /** Classifies the blocks up to `block`, releases what is ready, evicts blocks up to `limit`. */
  #stepAt(classify: Classifier, block: number, limit: number): WindowStep {
    const txs = this.transactions(block);
    const ops = classify(txs);
    const receiver = new Map<string, RawTransaction>();
    for (const tx of txs) if (tx.in_msg) receiver.set(tx.in_msg.hash, tx);
    const byHash = new Map(txs.map((tx) => [tx.hash, tx]));
    const released: Operation[] = [];
    // Operations first, leftovers after: a leftover whose transaction an operation already covers was
    // only "unexplained" because the window cut its trace (e.g. the operation's anchor left earlier).
    const ordered = [...ops.filter((o) => !isLeftover(o)), ...ops.filter(isLeftover)];
    for (const op of ordered) {
      if (this.#released.has(op.id)) continue;
      const mc = this.#mcOfTx.get(op.tx_hash) ?? block;
      const leaving = mc <= limit;
      const leftover = isLeftover(op);
      if (leftover && leaving && this.#covered.has(op.tx_hash)) {
        this.#released.set(op.id, mc);
        continue;
      }
      if (leaving || (!leftover && complete(op, byHash, receiver))) {
        // Anchored below `releaseFrom`: released before a restart, at this same step; it covers its
        // transactions as it did then, but is not released twice.
        if (mc >= this.releaseFrom) released.push(op);
        this.#released.set(op.id, mc);
        if (!leftover) for (const h of txsOf(op)) this.#covered.set(h, mc);
      }
    }
    for (const [h, mc] of this.#covered) if (mc <= limit - this.depth) this.#covered.delete(h);
    return { released, evicted: this.#evict(limit) };
  }

  #evict(limit: number): WindowStep["evicted"] {
    const gone = [...this.#blocks.keys()].filter((mc) => mc <= limit).sort((a, b) => a - b);
    const evicted = gone.map((mc) => ({ mc_seqno: mc, transactions: this.#blocks.get(mc)! }));
    for (const { mc_seqno, transactions } of evicted) {
      this.#blocks.delete(mc_seqno);
      for (const tx of transactions) {
        this.#mcOfTx.delete(tx.hash);
        this.#txs.delete(tx.hash);
        for (const m of tx.out_msgs) if (this.#senders.get(m.hash) === tx) this.#senders.delete(m.hash);
      }
    }
    for (const [id, mc] of this.#released) if (mc <= limit) this.#released.delete(id);
    return evicted;
  }
}

const isLeftover = (op: Operation): boolean => op.type === "unknown" || op.type === "malformed";

/** The anchor and every transaction the classifier attached to the operation. */
function txsOf(op: Operation): string[] {
  return "tx_hashes" in op ? [op.tx_hash, ...op.tx_hashes] : [op.tx_hash];
}

/**
 * The operation's trace has settled: following every internal message sent by its transactions, and by
 * the transactions receiving them, transitively, reaches only messages already received in the window.
 */
function complete(
  op: Operation,
  byHash: Map<string, RawTransaction>,
  receiver: Map<string, RawTransaction>,
): boolean {
  if (!("tx_hashes" in op)) return false;
  const queue: RawTransaction[] = [];
  // The walk starts at the anchor too: an operation whose later transactions have not arrived may list none.
  for (const hash of txsOf(op)) {
    const tx = byHash.get(hash);
    if (tx === undefined) return false;
    queue.push(tx);
  }
  const seen = new Set<string>();
  while (queue.length > 0) {
    const tx = queue.pop()!;
    if (seen.has(tx.hash)) continue;
    seen.add(tx.hash);
    for (const m of tx.out_msgs) {
      if (m.destination === null) continue;
      const next = receiver.get(m.hash);
      if (next === undefined) return false;
      queue.push(next);
    }
  }
  return true;
}
