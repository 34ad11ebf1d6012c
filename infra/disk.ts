/**
 * Disk space used under a directory, as `du` counts it: allocated blocks (512 bytes each, POSIX
 * `st_blocks`), every file once (hard links such as ClickHouse's part snapshots share blocks), symlinks
 * not followed. Files that vanish while the tree is walked (a merge removing parts) are skipped.
 */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

export async function directoryBytes(dir: string): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  const walk = async (path: string): Promise<void> => {
    let stat: Awaited<ReturnType<typeof lstat>>;
    try {
      stat = await lstat(path);
    } catch {
      return;
    }
    const id = `${stat.dev}:${stat.ino}`;
    if (seen.has(id)) return;
    seen.add(id);
    total += stat.blocks * 512;
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = await readdir(path);
    } catch {
      return;
    }
    for (const name of names) await walk(join(path, name));
  };
  await walk(dir);
  return total;
}
