/**
 * A chain source yields blocks in masterchain order (DESIGN.md "Sources"): every shard transaction newly
 * committed by masterchain block `mc_seqno`. TON's masterchain never forks, so a cursor over mc_seqno is
 * all a consumer needs to resume.
 */
import type { ChainState } from "../dex/chain-state.ts";
import type { RawTransaction, RejectedRecord } from "../schemas/raw-transaction.ts";

export type SourceBlock = {
  mc_seqno: number;
  utime: number;
  transactions: RawTransaction[];
  /** Records the source read for this block but could not turn into a RawTransaction (a replay's bad lines). */
  rejected?: RejectedRecord[];
};

export type Source = {
  readonly name: string;
  /** Blocks with mc_seqno > `after`, in order; ends when the source has no more (a finite replay). */
  blocks(after: number, signal?: AbortSignal): AsyncIterable<SourceBlock>;
  /** The newest mc_seqno the source knows (for the lag metric); null when unknown. */
  head(): number | null;
  /** Get-method reads against the same chain, when the source can answer them. */
  readonly chainState: ChainState | null;
};
