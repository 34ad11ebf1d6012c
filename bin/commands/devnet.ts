/**
 * `tondex devnet --seed N --blocks M --out DIR`: runs the emulated chain with its seeded market and writes
 * the blocks (RawTransaction JSONL) and the contracts' ground truth (format: schemas/devnet-dump.ts).
 */
import { parseArgs } from "node:util";
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { useDevnetGcTuning } from "../../ingest/devnet/chain/gc-tuning.ts";
import { Devnet } from "../../ingest/devnet/devnet.ts";
import { DevnetDumpWriter } from "../../ingest/devnet/dump.ts";
import type { CliIo } from "../io.ts";

const USAGE = `usage: tondex devnet --seed N --blocks M --out DIR [--actions-per-block K] [--no-drain]

Runs the devnet (emulated TON shard with STON.fi v1/v2 contracts and a seeded market) for M blocks and
writes DIR/manifest.json, DIR/blocks.jsonl, DIR/transactions.jsonl (RawTransactions) and DIR/truth.jsonl
(the operations the contracts executed). The first blocks are the genesis mints and first liquidity.
After M blocks, more blocks without new user actions are produced until every message has been
delivered, unless --no-drain is given. The same seed and options give byte-identical files.
`;

type Parsed = { seed: number; blocks: number; out: string; actionsPerBlock: number; drain: boolean };

function nonNegativeInt(name: string, raw: string | undefined, fallback?: number): number | string {
  if (raw === undefined) return fallback ?? `--${name} is required`;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    return `--${name} must be a non-negative integer, got '${raw}'`;
  return Number(raw);
}

function parse(args: string[]): { ok: true; value: Parsed } | { ok: false; errors: string[] } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        seed: { type: "string" },
        blocks: { type: "string" },
        out: { type: "string" },
        "actions-per-block": { type: "string" },
        "no-drain": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, errors: [(error as Error).message] };
  }
  const seed = nonNegativeInt("seed", values.seed as string | undefined);
  const blocks = nonNegativeInt("blocks", values.blocks as string | undefined);
  const apb = nonNegativeInt("actions-per-block", values["actions-per-block"] as string | undefined, 24);
  const out = values.out as string | undefined;
  const errors = [seed, blocks, apb].filter((x): x is string => typeof x === "string");
  if (out === undefined || out === "") errors.push("--out is required");
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      seed: seed as number,
      blocks: blocks as number,
      out: out!,
      actionsPerBlock: apb as number,
      drain: values["no-drain"] !== true,
    },
  };
}

/** Extra blocks allowed for in-flight traces to settle after the last market block. */
const MAX_DRAIN_BLOCKS = 64;

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const parsed = parse(args);
  if (!parsed.ok) {
    io.stderr(`tondex devnet: ${parsed.errors.join("; ")}\n\n${USAGE}`);
    return 2;
  }
  const { seed, blocks, out, actionsPerBlock, drain } = parsed.value;
  applyLibraryPatches(["parse", "build"]);
  useDevnetGcTuning();
  const devnet = new Devnet({ seed, actionsPerBlock });
  const writer = await DevnetDumpWriter.open(out);
  for (let i = 0; i < blocks; i++) await writer.add(await devnet.nextBlock());
  for (let i = 0; drain && devnet.pending > 0 && i < MAX_DRAIN_BLOCKS; i++)
    await writer.add(devnet.drainBlock());
  const manifest = await writer.close(seed, { actionsPerBlock, drain, requestedBlocks: blocks });
  io.stdout(
    `${JSON.stringify({ out, blocks: manifest.blocks, transactions: manifest.transactions, truth: manifest.truth })}\n`,
  );
  return 0;
}
