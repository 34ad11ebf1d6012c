/**
 * Keeps what STON.fi operations need: the transactions of traces that touch a STON.fi contract, with their
 * messages. A pure stage over fetched blocks (no I/O), so the source stays a thin shell.
 *
 * A trace "touches STON.fi" when one of its messages carries an op code of the STON.fi v1/v2 router, pool,
 * LpAccount or vault tables (dex/codecs/stonfi/*), the generic jetton ops excluded: every swap has a
 * router → pool `swap` and a pool → router `pay_to`, provisions a `provide_lp`, withdrawals a `pay_to`, so
 * routers in no list are recognised by behaviour. The first STON.fi message of a trace comes a few hops after
 * its external message (wallet → jetton wallet → router's jetton wallet → router), usually within a few
 * masterchain blocks; blocks are therefore held back `lookaheadBlocks` before they are released, and a trace
 * recognised inside that window keeps its earlier transactions. A trace whose first STON.fi message comes
 * later than that loses the transactions before the window (documented in README.md).
 *
 * Traces are known by toncenter's `trace_id`; a transaction without one (not yet assembled by the indexer)
 * is kept, as nothing proves it unneeded.
 */
import { JETTON_OP } from "../../dex/codecs/jetton/opcodes.ts";
import { STONFI_V1_OP } from "../../dex/codecs/stonfi/v1/opcodes.ts";
import { STONFI_V2_OP, STONFI_V2_VAULT_OP } from "../../dex/codecs/stonfi/v2/opcodes.ts";
import type { RawTransaction, RejectedRecord } from "../../schemas/raw-transaction.ts";
import type { SourceBlock } from "../source.ts";

/**
 * A block as fetched: its transactions and, in the same order, their trace ids; `rejected` holds what could
 * not be mapped (always released: the processors store it as malformed).
 */
export type FetchedBlock = {
  block: SourceBlock & { rejected: readonly RejectedRecord[] };
  traceIds: readonly (string | null)[];
};

const JETTON_OPS = new Set<number>(Object.values(JETTON_OP));
export const STONFI_OPS: ReadonlySet<number> = new Set(
  [
    ...Object.values(STONFI_V1_OP),
    ...Object.values(STONFI_V2_OP),
    ...Object.values(STONFI_V2_VAULT_OP),
  ].filter((op) => !JETTON_OPS.has(op)),
);

export function touchesStonfi(tx: RawTransaction): boolean {
  if (tx.in_msg?.opcode != null && STONFI_OPS.has(tx.in_msg.opcode)) return true;
  return tx.out_msgs.some((m) => m.opcode !== null && STONFI_OPS.has(m.opcode));
}

export class StonfiTraceFilter {
  private readonly held: FetchedBlock[] = [];
  /** STON.fi trace id → the last mc_seqno it was seen in (forgotten `memoryBlocks` later). */
  private readonly traces = new Map<string, number>();

  constructor(
    private readonly lookaheadBlocks: number,
    private readonly memoryBlocks = 10_000,
  ) {}

  /** Learns a block's STON.fi traces without releasing it (the blocks before a resume point). */
  learn(fetched: FetchedBlock): void {
    const { block, traceIds } = fetched;
    block.transactions.forEach((tx, i) => {
      const id = traceIds[i];
      if (id != null && (this.traces.has(id) || touchesStonfi(tx))) this.traces.set(id, block.mc_seqno);
    });
    for (const [id, seen] of this.traces)
      if (seen < block.mc_seqno - this.memoryBlocks) this.traces.delete(id);
  }

  /** Takes the next block in order; returns the blocks released by it (filtered), oldest first. */
  push(fetched: FetchedBlock): SourceBlock[] {
    this.learn(fetched);
    this.held.push(fetched);
    const out: SourceBlock[] = [];
    while (this.held.length > this.lookaheadBlocks) out.push(this.release(this.held.shift()!));
    return out;
  }

  /** The end of a finite range: releases every held block. */
  flush(): SourceBlock[] {
    return this.held.splice(0).map((f) => this.release(f));
  }

  private release({ block, traceIds }: FetchedBlock): SourceBlock {
    const transactions = block.transactions.filter((_tx, i) => {
      const id = traceIds[i];
      return id == null || this.traces.has(id);
    });
    return { ...block, transactions };
  }
}
