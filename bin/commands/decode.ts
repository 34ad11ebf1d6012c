/**
 * `tondex decode FILE...`: classify the STON.fi operations in recorded transactions and print one JSON line
 * per file: `{"file": ..., "operations": [...]}` (schema: dex/classify/README.md, schemas/operations.ts).
 *
 * Accepted inputs, detected from the content:
 * - a recorded trace in the test/vectors/mainnet-traces format (an object with `transactions`);
 * - RawTransaction JSON: one record or an array of records;
 * - RawTransaction JSONL: one record per line.
 * A file that cannot be read or validated is reported on stderr (with the JSONL line number) and skipped;
 * the exit code is then 1. `-` reads standard input.
 */
import { readFile } from "node:fs/promises";
import { classify } from "../../dex/classify/index.ts";
import { operationToJson } from "../../dex/classify/json.ts";
import { parseRawTransaction, type RawTransaction } from "../../schemas/raw-transaction.ts";
import {
  jettonMastersFromTrace,
  parseTraceFile,
  rawTransactionsFromTrace,
} from "../../schemas/trace-file.ts";
import type { CliIo } from "../io.ts";

const USAGE = `usage: tondex decode FILE...

Classifies the STON.fi DEX operations (swaps, routes, referral payments, vault deposits and withdrawals,
liquidity) in each FILE and prints one JSON line per file: {"file": ..., "operations": [...]}.
FILE is a recorded trace (test/vectors/mainnet-traces format), a RawTransaction JSON record or array,
or RawTransaction JSONL; '-' reads standard input. Output schema: dex/classify/README.md.
`;

type Input = { txs: RawTransaction[]; masters?: Map<string, string> };
type Loaded = { ok: true; input: Input } | { ok: false; errors: string[] };

function fromRecords(records: unknown[], where: (i: number) => string): Loaded {
  const txs: RawTransaction[] = [];
  const errors: string[] = [];
  records.forEach((record, i) => {
    const parsed = parseRawTransaction(record);
    if (parsed.ok) txs.push(parsed.value);
    else errors.push(...parsed.errors.map((e) => `${where(i)}${e}`));
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input: { txs } };
}

function fromJsonl(text: string): Loaded {
  const records: unknown[] = [];
  const lineOf: number[] = [];
  const errors: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      records.push(JSON.parse(line));
      lineOf.push(i + 1);
    } catch (error) {
      errors.push(`line ${i + 1}: invalid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  return fromRecords(records, (i) => `line ${lineOf[i]}: `);
}

/** Detects the format of one file's text and validates it. */
export function loadInput(text: string): Loaded {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fromJsonl(text);
  }
  if (Array.isArray(json)) return fromRecords(json, (i) => `/${i}`);
  if (json !== null && typeof json === "object" && "transactions" in json) {
    const trace = parseTraceFile(json);
    if (!trace.ok) return { ok: false, errors: trace.errors.map((e) => `trace file: ${e}`) };
    return {
      ok: true,
      input: { txs: rawTransactionsFromTrace(trace.value), masters: jettonMastersFromTrace(trace.value) },
    };
  }
  return fromRecords([json], () => "");
}

async function readInput(file: string, io: CliIo): Promise<string> {
  return file === "-" ? io.readStdin() : readFile(file, "utf8");
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const files = args.filter((a) => a === "-" || !a.startsWith("-"));
  const unknownFlags = args.filter((a) => a !== "-" && a.startsWith("-"));
  if (files.length === 0 || unknownFlags.length > 0) {
    if (unknownFlags.length > 0) io.stderr(`tondex decode: unknown option ${unknownFlags.join(", ")}\n`);
    io.stderr(USAGE);
    return 2;
  }
  let failed = 0;
  for (const file of files) {
    let text: string;
    try {
      text = await readInput(file, io);
    } catch (error) {
      io.stderr(
        `tondex decode: ${file}: cannot read (${error instanceof Error ? error.message : String(error)})\n`,
      );
      failed++;
      continue;
    }
    const loaded = loadInput(text);
    if (!loaded.ok) {
      for (const e of loaded.errors.slice(0, 20)) io.stderr(`tondex decode: ${file}: ${e}\n`);
      if (loaded.errors.length > 20)
        io.stderr(`tondex decode: ${file}: ... ${loaded.errors.length - 20} more\n`);
      failed++;
      continue;
    }
    const ops = classify(loaded.input.txs, { jettonMasters: loaded.input.masters });
    io.stdout(`${JSON.stringify({ file, operations: ops.map(operationToJson) })}\n`);
  }
  return failed > 0 ? 1 : 0;
}
