/** `SOURCE=replay` / `tondex replay PATH...`: recorded blocks as a finite `Source`. */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { DEVNET_FILES, manifest } from "../../schemas/devnet-dump.ts";
import type { Source } from "../source.ts";
import { type ReplayBlock, replayBlocks } from "./source.ts";

export type ReplaySource = Source & { blocks(after: number): AsyncIterable<ReplayBlock> };

export function createReplaySource(paths: readonly string[]): ReplaySource {
  if (paths.length === 0) throw new RangeError("replay needs at least one path");
  let head: number | null = null;
  return {
    name: "replay",
    async *blocks(after: number) {
      for await (const block of replayBlocks(paths, after)) {
        head = Math.max(head ?? 0, block.mc_seqno);
        yield block;
      }
    },
    head: () => head,
    chainState: null,
  };
}

/** The last mc_seqno of the inputs when their manifests say it (devnet dumps), for progress and ETA. */
export async function replayLastBlock(paths: readonly string[]): Promise<number | null> {
  let last: number | null = null;
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info?.isDirectory()) return null;
    const parsed = manifest.safeParse(JSON.parse(await readFile(join(path, DEVNET_FILES.manifest), "utf8")));
    if (!parsed.success) return null;
    last = Math.max(last ?? 0, parsed.data.last_mc_seqno);
  }
  return last;
}
