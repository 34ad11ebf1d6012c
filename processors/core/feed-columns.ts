/**
 * The export feed's columns of an operation (migration 008), known while its trace is in the window, so
 * the feed reads a block range from the operation tables alone (api/queries/sql/feed.ts):
 * - `maker`: the user, i.e. the account whose external message started the pool transaction's trace (an
 *   aggregator contract between the user and the router is not the maker); when the trace's first
 *   transaction is the pool transaction itself, or has no inbound message, `otherwise` (a swap's route
 *   sender, else its sender; a mint's or burn's owner). Null when the walk leaves the window (a parent the
 *   window no longer or never held): the feed then walks the stored transactions, as it does for rows
 *   written before the migration.
 * - `reserve0_after/reserve1_after`: the pool state the tracker recorded at exactly the pool transaction's
 *   lt (its pool_states row), else null (the feed then reads pool_states).
 * Pure: the window's lookups are passed in.
 */
import type { RawTransaction } from "../../schemas/raw-transaction.ts";

export type FeedColumns = {
  maker: string | null;
  reserve0_after: bigint | null;
  reserve1_after: bigint | null;
};

export const NO_FEED_COLUMNS: FeedColumns = { maker: null, reserve0_after: null, reserve1_after: null };

/** As deep as the feed's walk over stored transactions goes (api/queries/sql/operations.ts). */
const MAX_TRACE_DEPTH = 64;

export type TraceLookups = {
  transaction(hash: string): RawTransaction | undefined;
  /** The transaction that sent the internal message `msgHash`. */
  senderOf(msgHash: string): RawTransaction | undefined;
};

/** The maker of the operation anchored at `txHash` (see the header), or null when the window cannot say. */
export function traceMaker(txHash: string, otherwise: string | null, w: TraceLookups): string | null {
  const start = w.transaction(txHash);
  if (start === undefined) return null;
  let tx = start;
  for (let depth = 0; depth < MAX_TRACE_DEPTH; depth++) {
    const m = tx.in_msg;
    if (m === null) return otherwise;
    if (m.source === null) return tx === start ? otherwise : tx.account;
    const parent = w.senderOf(m.hash);
    if (parent === undefined || parent === tx) return null;
    tx = parent;
  }
  return null;
}

/** Reserves after each pool transaction the tracker recorded, kept while operations may still name it. */
export class ReservesAfter {
  readonly #byKey = new Map<string, { r0: bigint; r1: bigint; mc: number }>();

  record(
    states: readonly { pool: string; lt: bigint; mc_seqno: number; reserve0: bigint; reserve1: bigint }[],
  ) {
    for (const s of states)
      this.#byKey.set(`${s.pool}@${s.lt}`, { r0: s.reserve0, r1: s.reserve1, mc: s.mc_seqno });
  }

  get(pool: string, lt: bigint): { reserve0_after: bigint; reserve1_after: bigint } | null {
    const s = this.#byKey.get(`${pool}@${lt}`);
    return s === undefined ? null : { reserve0_after: s.r0, reserve1_after: s.r1 };
  }

  /** Forgets the states of blocks at or below `mc` (their operations have been released). */
  prune(mc: number): void {
    for (const [k, s] of this.#byKey) if (s.mc <= mc) this.#byKey.delete(k);
  }
}
