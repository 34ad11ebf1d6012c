/**
 * The raw-transactions partition read in block order, without repeats, and where a restart resumes.
 *
 * `tondex ingest` publishes blocks in masterchain order; after a restart it publishes again from the
 * stored cursor, so the partition may hold a block (or the first part of one, cut by a crash) twice: the
 * second copy always follows the first, in the same order. Reading the partition front to back, a record
 * is new exactly when its block is not below the highest block seen, and, in that block, its transaction
 * was not seen yet. Rejected records are kept unless their block is below the highest (a rejected record
 * of a repeated block is the same record again).
 *
 * `resumeOffset(mc)` is the offset of the first accepted record of the first block ≥ `mc`: committing it
 * means the group's next reader starts with that block, as a restarted single process whose source
 * resumes after the stored cursor `mc - 1` does.
 */
import { isRejected, type RawTransaction, type RejectedRecord } from "../schemas/raw-transaction.ts";

export class BlockOrder {
  #highest = -1;
  readonly #seenInHighest = new Set<string>();
  /** mc_seqno → offset of its first accepted record, for blocks that a resume may still start at. */
  readonly #firstOffset = new Map<number, bigint>();

  /** True when the record is new; false for a repeat of something already read. */
  accept(value: RawTransaction | RejectedRecord, offset: bigint): boolean {
    const mc = value.mc_seqno;
    if (mc === null) return true;
    if (mc < this.#highest) return false;
    if (mc > this.#highest) {
      this.#highest = mc;
      this.#seenInHighest.clear();
    }
    if (!isRejected(value)) {
      if (this.#seenInHighest.has(value.hash)) return false;
      this.#seenInHighest.add(value.hash);
    }
    if (!this.#firstOffset.has(mc)) this.#firstOffset.set(mc, offset);
    return true;
  }

  /** Where to resume so that block `mc` and every later one are read again; `end` when none was read. */
  resumeOffset(mc: number, end: bigint): bigint {
    let resume = end;
    for (const [block, offset] of this.#firstOffset) {
      if (block < mc) this.#firstOffset.delete(block);
      else if (offset < resume) resume = offset;
    }
    return resume;
  }
}
