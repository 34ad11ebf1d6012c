/**
 * The recorded mainnet traces of test/vectors/mainnet-traces (format: its FORMAT.md), loaded and mapped
 * to RawTransaction records. Every `*.json` file in the folder is a trace; tests iterate over all of them.
 */
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import {
  jettonMastersFromTrace,
  parseTraceFile,
  rawTransactionsFromTrace,
  type TraceFile,
} from "../../schemas/trace-file.ts";
import { listVectors, readVectorJson, vectorPath } from "./vectors.ts";

export const TRACES_FOLDER = "mainnet-traces";

export type LoadedTrace = {
  name: string;
  path: string;
  file: TraceFile;
  txs: RawTransaction[];
  /** Jetton wallet → master from the recording indexer's interfaces (classifier hints). */
  masters: Map<string, string>;
};

export function listTraceFiles(): string[] {
  return listVectors(TRACES_FOLDER, ".json");
}

export function loadTrace(name: string): LoadedTrace {
  const parsed = parseTraceFile(readVectorJson(`${TRACES_FOLDER}/${name}`));
  if (!parsed.ok) throw new Error(`${name}: not a trace file: ${parsed.errors.join("; ")}`);
  return {
    name,
    path: vectorPath(`${TRACES_FOLDER}/${name}`),
    file: parsed.value,
    txs: rawTransactionsFromTrace(parsed.value),
    masters: jettonMastersFromTrace(parsed.value),
  };
}

export function loadAllTraces(): LoadedTrace[] {
  return listTraceFiles().map(loadTrace);
}
