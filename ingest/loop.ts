/**
 * The block-reader loop: blocks from a `Source`, in masterchain order, published to the raw-transactions
 * topic keyed by account (per-account order holds in every partition). `bus.produce` waits while the bus
 * is full, which is the back-pressure that slows the source down to the processors' pace.
 */

import { rawTransactionsTopic } from "../infra/bus/topics.ts";
import type { Bus } from "../infra/bus/types.ts";
import { blockEnd } from "../schemas/bus-control.ts";
import type { Source, SourceBlock } from "./source.ts";

export type IngestOptions = {
  source: Source;
  bus: Bus;
  /** Publish blocks after this mc_seqno (the stored cursor). */
  after: number;
  signal?: AbortSignal;
  /** Called after each block is published (metrics, progress). */
  onBlock?: (block: SourceBlock) => void;
};

export type IngestResult = {
  blocks: number;
  transactions: number;
  rejected: number;
  /** Every record published: transactions, rejected records and block-end markers. */
  records: number;
  lastMcSeqno: number;
};

/** Key for rejected records: one per origin keeps them in order within their partition. */
const REJECTED_KEY = "rejected";
const BLOCK_END_KEY = "block-end";

export async function runIngest(options: IngestOptions): Promise<IngestResult> {
  const { source, bus, signal } = options;
  const result: IngestResult = {
    blocks: 0,
    transactions: 0,
    rejected: 0,
    records: 0,
    lastMcSeqno: options.after,
  };
  for await (const block of source.blocks(options.after, signal)) {
    if (signal?.aborted) break;
    const rejected = block.rejected ?? [];
    const any = block.transactions.length + rejected.length > 0;
    const records = [
      ...block.transactions.map((tx) => ({ key: tx.account, value: tx })),
      ...rejected.map((r) => ({ key: REJECTED_KEY, value: r })),
      // The block is whole once its marker is read (schemas/bus-control.ts): classified without waiting.
      ...(any ? [{ key: BLOCK_END_KEY, value: blockEnd(block.mc_seqno) }] : []),
    ];
    if (records.length > 0) await bus.produce(rawTransactionsTopic, records);
    result.records += records.length;
    result.blocks++;
    result.transactions += block.transactions.length;
    result.rejected += rejected.length;
    result.lastMcSeqno = block.mc_seqno;
    options.onBlock?.(block);
  }
  return result;
}
