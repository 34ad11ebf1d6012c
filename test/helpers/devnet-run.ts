/**
 * Runs the devnet market for a number of blocks and then lets every in-flight message settle, collecting
 * transactions and ground truth: the common setup of the devnet acceptance tests.
 */

import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { Devnet, type DevnetOptions } from "../../ingest/devnet/devnet.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";

export type DevnetRun = {
  devnet: Devnet;
  blocks: { mc_seqno: number; utime: number; transactions: RawTransaction[]; truth: TruthRecord[] }[];
  txs: RawTransaction[];
  truth: TruthRecord[];
};

export async function runDevnet(options: DevnetOptions & { blocks: number }): Promise<DevnetRun> {
  applyLibraryPatches(["parse", "build"]);
  const devnet = new Devnet(options);
  const run: DevnetRun = { devnet, blocks: [], txs: [], truth: [] };
  const add = (b: DevnetRun["blocks"][number]) => {
    run.blocks.push(b);
    run.txs.push(...b.transactions);
    run.truth.push(...b.truth);
  };
  for (let i = 0; i < options.blocks; i++) add(await devnet.nextBlock());
  for (let i = 0; devnet.pending > 0; i++) {
    if (i > 100) throw new Error("the devnet did not settle within 100 blocks");
    add(devnet.drainBlock());
  }
  return run;
}
