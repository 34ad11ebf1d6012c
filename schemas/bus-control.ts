/**
 * Control records of the raw-transactions topic (beside RawTransaction and RejectedRecord values).
 *
 * `EndOfInput`: published by `tondex ingest` after the last block of a finite source (a replay, a devnet
 * run with DEVNET_BLOCKS). In one process the runtime is told directly (`ProcessorRun.finish`); across
 * processes the record travels in the partition after every transaction, so the processor that reads it
 * has processed them all, and flushes its trace window as the one-process run does at the end.
 *
 * `BlockEnd`: published after the records of each block, so the processor knows the block is whole and
 * classifies it at once (processors/core/window.ts steps block by block; without the marker a block waits
 * for a record of a later one, since a batch may end inside it). A block re-published after a restart of
 * `tondex ingest` gets its marker again after its whole copy; a marker of a block already whole changes
 * nothing.
 */
import { z } from "zod";

export const END_OF_INPUT_VERSION = "tondex.end-of-input.v1";

export const endOfInputSchema = z
  .object({
    version: z.literal(END_OF_INPUT_VERSION),
    /** The last block the source published. */
    last_mc_seqno: z.number().int().nonnegative(),
  })
  .strict();

export type EndOfInput = z.infer<typeof endOfInputSchema>;

export const endOfInput = (lastMcSeqno: number): EndOfInput => ({
  version: END_OF_INPUT_VERSION,
  last_mc_seqno: lastMcSeqno,
});

export const isEndOfInput = (value: unknown): value is EndOfInput => hasVersion(value, END_OF_INPUT_VERSION);

export const BLOCK_END_VERSION = "tondex.block-end.v1";

export const blockEndSchema = z
  .object({
    version: z.literal(BLOCK_END_VERSION),
    /** The block whose records all precede this one. */
    mc_seqno: z.number().int().nonnegative(),
  })
  .strict();

export type BlockEnd = z.infer<typeof blockEndSchema>;

export const blockEnd = (mcSeqno: number): BlockEnd => ({ version: BLOCK_END_VERSION, mc_seqno: mcSeqno });

export const isBlockEnd = (value: unknown): value is BlockEnd => hasVersion(value, BLOCK_END_VERSION);

/** A control record is told apart from the topic's other values by its `version` tag. */
function hasVersion(value: unknown, version: string): boolean {
  return typeof value === "object" && value !== null && (value as { version?: unknown }).version === version;
}
