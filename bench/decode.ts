/**
 * Decode throughput: message bodies per second through `decodeBody` (BOC parse + codec dispatch + decode)
 * against plain `Cell.fromBase64` of the same bodies, in the same run. The ratio says how much the codecs
 * cost on top of BOC parsing (target ≥ 0.5). Bodies: every message of the shared mainnet traces.
 *
 * Run alone: `node --import tsx bench/decode.ts`; bench/run.ts imports `runDecodeBench`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Cell } from "@ton/core";
import { decodeBody } from "../dex/codecs/index.ts";

export type BenchResult = {
  name: string;
  bodies: number;
  iterations: number;
  decodeBodyPerSecond: number;
  fromBase64PerSecond: number;
  /** decodeBody rate / fromBase64 rate. */
  ratio: number;
  target: number;
  ok: boolean;
};

const TRACES_DIR = fileURLToPath(new URL("../test/vectors/mainnet-traces/", import.meta.url));

function loadBodies(): string[] {
  const bodies: string[] = [];
  for (const file of readdirSync(TRACES_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const trace = JSON.parse(readFileSync(`${TRACES_DIR}${file}`, "utf8")) as {
      transactions: { in_msg: { body_boc: string } | null; out_msgs: { body_boc: string }[] }[];
    };
    for (const tx of trace.transactions) {
      if (tx.in_msg) bodies.push(tx.in_msg.body_boc);
      for (const m of tx.out_msgs) bodies.push(m.body_boc);
    }
  }
  return bodies;
}

/** Runs `f` over all bodies `iterations` times; returns bodies per second. */
function rate(bodies: string[], iterations: number, f: (b64: string) => unknown): number {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    for (const b of bodies) if (f(b)) sink++;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink < 0) throw new Error("unreachable");
  return (bodies.length * iterations) / seconds;
}

export async function runDecodeBench(options: { iterations?: number } = {}): Promise<BenchResult> {
  const bodies = loadBodies();
  const iterations = options.iterations ?? 200;
  const parseOnly = (b: string) => Cell.fromBase64(b);
  const decode = (b: string) => decodeBody(Cell.fromBase64(b));
  // Warm up both paths so the JIT treats them alike, then alternate the measured rounds.
  rate(bodies, 20, parseOnly);
  rate(bodies, 20, decode);
  const parseRates: number[] = [];
  const decodeRates: number[] = [];
  for (let round = 0; round < 3; round++) {
    parseRates.push(rate(bodies, iterations, parseOnly));
    decodeRates.push(rate(bodies, iterations, decode));
  }
  const best = (xs: number[]) => Math.max(...xs);
  const fromBase64PerSecond = best(parseRates);
  const decodeBodyPerSecond = best(decodeRates);
  const ratio = decodeBodyPerSecond / fromBase64PerSecond;
  return {
    name: "decode",
    bodies: bodies.length,
    iterations,
    decodeBodyPerSecond,
    fromBase64PerSecond,
    ratio,
    target: 0.5,
    ok: ratio >= 0.5,
  };
}

export function formatDecodeBench(r: BenchResult): string {
  const f = (n: number) => Math.round(n).toLocaleString("en-US");
  return [
    `decode bench: ${r.bodies} mainnet message bodies x ${r.iterations} iterations (best of 3)`,
    `  Cell.fromBase64:             ${f(r.fromBase64PerSecond)} bodies/s`,
    `  decodeBody(Cell.fromBase64): ${f(r.decodeBodyPerSecond)} bodies/s`,
    `  ratio: ${r.ratio.toFixed(2)} (target >= ${r.target}) ${r.ok ? "ok" : "BELOW TARGET"}`,
  ].join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runDecodeBench();
  process.stdout.write(`${formatDecodeBench(result)}\n`);
}
