/**
 * V8 tuning for a process that runs the devnet. V8 "pretenures" an allocation site (allocates its objects
 * straight in the old generation) once most objects from it survive a young-generation collection. On the
 * devnet one site builds every cell, long-lived account states and short-lived transaction cells alike, so
 * pretenuring sent the short-lived ones to the old generation, where only full collections reclaim them.
 * Turning it off measured +15-20% market throughput on one core (bench/devnet.ts prints both settings).
 *
 * It sets a V8 flag for the whole process, so only the devnet's own commands call it (`tondex devnet`, the
 * devnet benchmark), never `tondex start`: the devnet is a test and demo source, its throughput is plenty.
 */
import { setFlagsFromString } from "node:v8";

export const DEVNET_V8_FLAGS = ["--no-allocation-site-pretenuring"] as const;

/**
 * Flags V8 reads only when the process starts, so they are on the command line of the devnet's own
 * commands only (`npm run devnet` and the devnet benchmark's children), never on the CLI's general
 * launchers (bin/tondex, bin/tondex.mjs, `npm start`); test/unit/bin/launchers.test.ts keeps them so.
 * A 32 MiB young generation (Node's default tops out at 16): the devnet allocates some
 * 16 KB per transaction, and half as many young-generation collections measured +2.7% market throughput
 * on one core, for 32 MiB more memory.
 */
export const DEVNET_NODE_FLAGS = ["--max-semi-space-size=32", "--min-semi-space-size=32"] as const;

let applied = false;

export function useDevnetGcTuning(): void {
  if (applied) return;
  for (const flag of DEVNET_V8_FLAGS) setFlagsFromString(flag);
  applied = true;
}
