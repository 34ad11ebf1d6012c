/**
 * The replay source: recorded data through the same pipeline. Inputs, detected per path:
 * - a devnet dump directory (`tondex devnet --out DIR`, schemas/devnet-dump.ts), streamed;
 * - RawTransaction JSONL (`*.jsonl`), streamed line by line;
 * - JSON: a recorded trace (test/vectors/mainnet-traces format), one RawTransaction or an array.
 * Every input yields blocks in mc_seqno order; several inputs are merged by mc_seqno. A line or record
 * that is not a valid RawTransaction becomes a `RejectedRecord` in its block (stored as malformed
 * downstream), never a crash and never a silent drop.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { blockLine, DEVNET_FILES } from "../../schemas/devnet-dump.ts";
import {
  parseRawTransaction,
  type RawTransaction,
  type RejectedRecord,
  rejectedRecord,
} from "../../schemas/raw-transaction.ts";
import { parseTraceFile, rawTransactionsFromTrace } from "../../schemas/trace-file.ts";
import type { SourceBlock } from "../source.ts";

export type ReplayBlock = SourceBlock & { rejected: RejectedRecord[] };
type Item = { mc: number; utime?: number; tx?: RawTransaction; rejected?: RejectedRecord };

async function* jsonlItems(path: string): AsyncGenerator<Item> {
  const lines = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let n = 0;
  let lastMc = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    const parsed = parseRawTransaction(line);
    if (parsed.ok) {
      lastMc = parsed.value.mc_seqno;
      yield { mc: lastMc, tx: parsed.value };
    } else {
      // A bad line belongs to the block being read: it cannot be placed anywhere more exact.
      yield {
        mc: lastMc,
        rejected: rejectedRecord(parsed.errors.join("; "), line, `${path}:${n}`, lastMc || null),
      };
    }
  }
}

/** A devnet dump: blocks.jsonl gives every block (empty ones too) and its utime. */
async function* dumpItems(dir: string): AsyncGenerator<Item> {
  const blocks = createInterface({ input: createReadStream(join(dir, DEVNET_FILES.blocks), "utf8") });
  for await (const line of blocks) {
    if (line.trim() === "") continue;
    const b = blockLine.safeParse(JSON.parse(line));
    if (b.success) yield { mc: b.data.mc_seqno, utime: b.data.utime };
  }
  yield* jsonlItems(join(dir, DEVNET_FILES.transactions));
}

async function jsonItems(path: string): Promise<Item[]> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return [
      { mc: 0, rejected: rejectedRecord(`invalid JSON: ${(error as Error).message}`, text, path, null) },
    ];
  }
  const trace = parseTraceFile(json);
  const records: unknown[] = trace.ok
    ? rawTransactionsFromTrace(trace.value)
    : Array.isArray(json)
      ? json
      : [json];
  const items = records.map((record, i): Item => {
    const parsed = parseRawTransaction(record);
    return parsed.ok
      ? { mc: parsed.value.mc_seqno, tx: parsed.value }
      : {
          mc: 0,
          rejected: rejectedRecord(parsed.errors.join("; "), JSON.stringify(record), `${path}[${i}]`, null),
        };
  });
  return items.sort((a, b) => a.mc - b.mc || Number(BigInt(a.tx?.lt ?? "0") - BigInt(b.tx?.lt ?? "0")));
}

async function* itemsOf(path: string): AsyncGenerator<Item> {
  const info = await stat(path);
  if (info.isDirectory()) yield* dumpItems(path);
  else if (path.endsWith(".jsonl")) yield* jsonlItems(path);
  else yield* await jsonItems(path);
}

/**
 * Groups one input's items into blocks; the dump's block lines come first and fix the utimes. Rejected
 * records found before any block (no block to name) join the next block, or a block after `after` when
 * the input has none, so they are stored too.
 */
async function* blocksOf(path: string, after: number): AsyncGenerator<ReplayBlock> {
  const utimes = new Map<number, number>();
  let current: ReplayBlock | null = null;
  let orphans: RejectedRecord[] = [];
  for await (const item of itemsOf(path)) {
    if (item.tx === undefined && item.rejected === undefined) {
      utimes.set(item.mc, item.utime ?? 0);
      continue;
    }
    if (item.rejected !== undefined && item.mc === 0 && current === null) {
      orphans.push(item.rejected);
      continue;
    }
    if (current !== null && item.mc !== current.mc_seqno) {
      if (item.mc < current.mc_seqno)
        throw new Error(`${path}: block ${item.mc} after block ${current.mc_seqno}`);
      yield current;
      current = null;
    }
    current ??= { mc_seqno: item.mc, utime: utimes.get(item.mc) ?? 0, transactions: [], rejected: orphans };
    orphans = [];
    if (item.tx) {
      current.transactions.push(item.tx);
      current.utime = Math.max(current.utime, item.tx.now);
    }
    if (item.rejected) current.rejected.push(item.rejected);
  }
  if (current !== null) yield current;
  if (orphans.length > 0) yield { mc_seqno: after + 1, utime: 0, transactions: [], rejected: orphans };
}

/** k-way merge by mc_seqno; blocks with the same mc_seqno from several inputs are combined. */
export async function* replayBlocks(paths: readonly string[], after = 0): AsyncGenerator<ReplayBlock> {
  const its = paths.map((p) => blocksOf(p, after)[Symbol.asyncIterator]());
  const heads = await Promise.all(its.map((it) => it.next()));
  for (;;) {
    let mc = Number.POSITIVE_INFINITY;
    for (const h of heads) if (!h.done) mc = Math.min(mc, h.value.mc_seqno);
    if (mc === Number.POSITIVE_INFINITY) return;
    const block: ReplayBlock = { mc_seqno: mc, utime: 0, transactions: [], rejected: [] };
    const seen = new Set<string>();
    for (const [i, h] of heads.entries()) {
      if (h.done || h.value.mc_seqno !== mc) continue;
      for (const tx of h.value.transactions) {
        if (!seen.has(tx.hash)) block.transactions.push(tx);
        seen.add(tx.hash);
      }
      block.rejected.push(...h.value.rejected);
      block.utime = Math.max(block.utime, h.value.utime);
      heads[i] = await its[i]!.next();
    }
    if (mc > after) yield block;
  }
}
