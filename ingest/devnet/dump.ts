/**
 * Writes a devnet run in the `schemas/devnet-dump.ts` format. Lines are appended as blocks arrive, so a
 * long run streams to disk instead of accumulating in memory.
 */

import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Address } from "@ton/core";
import {
  type BlockLine,
  DEVNET_DUMP_VERSION,
  DEVNET_FILES,
  type DevnetManifest,
  type TruthLine,
} from "../../schemas/devnet-dump.ts";
import { toRawAddress } from "../../schemas/ton.ts";
import type { DevnetBlock } from "./chain/chain.ts";
import type { TruthRecord, TruthValue } from "./chain/truth.ts";

function truthValue(value: TruthValue): string | number | boolean | null {
  if (typeof value === "bigint") return value.toString();
  if (Address.isAddress(value)) return toRawAddress(value);
  return value;
}

export function truthToLine(record: TruthRecord): TruthLine {
  const fields: TruthLine["fields"] = {};
  for (const [key, value] of Object.entries(record.fields)) fields[key] = truthValue(value);
  return {
    mc_seqno: record.mc_seqno,
    tx_hash: record.tx_hash,
    lt: record.lt.toString(),
    now: record.now,
    account: record.account,
    type: record.type,
    fields,
  };
}

export function blockToLine(block: DevnetBlock): BlockLine {
  return { mc_seqno: block.mc_seqno, utime: block.utime, tx_count: block.transactions.length };
}

/** Respects back-pressure; `once` rejects on an 'error' event and removes its listeners either way. */
async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

function close(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once("error", reject);
    stream.end(resolve);
  });
}

type Streams = Record<"blocks" | "transactions" | "truth", WriteStream>;

export class DevnetDumpWriter {
  readonly #streams: Streams;
  #counts = { blocks: 0, transactions: 0, truth: 0, first: 0, last: 0 };

  private constructor(
    readonly dir: string,
    streams: Streams,
  ) {
    this.#streams = streams;
  }

  static async open(dir: string): Promise<DevnetDumpWriter> {
    await mkdir(dir, { recursive: true });
    const open = (name: string) => createWriteStream(join(dir, name), { flags: "w" });
    return new DevnetDumpWriter(dir, {
      blocks: open(DEVNET_FILES.blocks),
      transactions: open(DEVNET_FILES.transactions),
      truth: open(DEVNET_FILES.truth),
    });
  }

  async add(block: DevnetBlock): Promise<void> {
    const c = this.#counts;
    if (c.blocks === 0) c.first = block.mc_seqno;
    c.last = block.mc_seqno;
    c.blocks++;
    c.transactions += block.transactions.length;
    c.truth += block.truth.length;
    await write(this.#streams.blocks, `${JSON.stringify(blockToLine(block))}\n`);
    if (block.transactions.length > 0) {
      await write(
        this.#streams.transactions,
        `${block.transactions.map((t) => JSON.stringify(t)).join("\n")}\n`,
      );
    }
    if (block.truth.length > 0) {
      await write(
        this.#streams.truth,
        `${block.truth.map((t) => JSON.stringify(truthToLine(t))).join("\n")}\n`,
      );
    }
  }

  async close(seed: number, options: Record<string, unknown>): Promise<DevnetManifest> {
    await Promise.all(Object.values(this.#streams).map(close));
    const c = this.#counts;
    const manifest: DevnetManifest = {
      version: DEVNET_DUMP_VERSION,
      seed,
      blocks: c.blocks,
      transactions: c.transactions,
      truth: c.truth,
      first_mc_seqno: c.first,
      last_mc_seqno: c.last,
      options,
    };
    await writeFile(join(this.dir, DEVNET_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  }
}
