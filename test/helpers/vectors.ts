/**
 * Where the read-only test vectors live: `test/vectors/` in this repository (a verbatim copy of the project's
 * reference vectors, with their provenance and licence files; see test/vectors/ORIGIN.md). A plain clone runs
 * its own tests; tests read the files in place and never write there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const VECTORS_DIR = fileURLToPath(new URL("../vectors/", import.meta.url));

export function vectorPath(relative: string): string {
  return `${VECTORS_DIR}${relative}`;
}

export function readVectorJson<T = unknown>(relative: string): T {
  return JSON.parse(readFileSync(vectorPath(relative), "utf8")) as T;
}

/** File names in a vectors sub-folder matching `suffix`, sorted. */
export function listVectors(folder: string, suffix: string): string[] {
  return readdirSync(vectorPath(folder))
    .filter((f) => f.endsWith(suffix))
    .sort();
}
