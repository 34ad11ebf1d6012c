/**
 * The devnet as a `Source`. The devnet is deterministic, so resuming after block N regenerates blocks
 * 1..N without yielding them (same seed, same blocks) and continues from N+1; `intervalMs` paces live
 * market blocks in wall-clock time (0: as fast as possible). The market's setup (mints, pool parameters,
 * first liquidity: a dozen blocks of hops) is not paced, so the pools exist seconds after a start, not
 * after a dozen intervals; block contents and times do not depend on the pace.
 */
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import type { Source, SourceBlock } from "../source.ts";
import { Devnet, type DevnetOptions } from "./devnet.ts";

export type DevnetSourceOptions = DevnetOptions & {
  /** Pause between yielded blocks. */
  intervalMs?: number;
  /** Stop after this many blocks in total (0 or undefined: never). */
  maxBlocks?: number;
  /** After `maxBlocks`, keep producing blocks without new actions until every message is delivered. */
  drain?: boolean;
  /** Called for every block generated, yielded or not (e.g. to record ground truth). */
  onBlock?: (block: Awaited<ReturnType<Devnet["nextBlock"]>>) => void;
};

export function createDevnetSource(options: DevnetSourceOptions): Source & { readonly devnet: Devnet } {
  const devnet = new Devnet(options);
  const max = options.maxBlocks ?? 0;
  let head = 0;
  async function* blocks(after: number, signal?: AbortSignal): AsyncIterable<SourceBlock> {
    if (devnet.mcSeqno > after) {
      throw new RangeError(`the devnet is at block ${devnet.mcSeqno}; it cannot go back to ${after + 1}`);
    }
    const more = () => max === 0 || devnet.mcSeqno < max || (options.drain === true && devnet.pending > 0);
    while (!signal?.aborted && more()) {
      const block = max === 0 || devnet.mcSeqno < max ? await devnet.nextBlock() : devnet.drainBlock();
      head = block.mc_seqno;
      options.onBlock?.(block);
      if (block.mc_seqno <= after) continue;
      yield { mc_seqno: block.mc_seqno, utime: block.utime, transactions: block.transactions };
      if (options.intervalMs && devnet.market !== null) {
        await sleep(options.intervalMs, undefined, { signal }).catch(() => undefined);
      } else if (options.intervalMs) {
        // Unpaced setup blocks still give the event loop a turn (the API starts listening meanwhile).
        await setImmediate();
      }
    }
  }
  return { name: "devnet", blocks, head: () => head, chainState: devnet.state, devnet };
}
