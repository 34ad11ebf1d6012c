/**
 * Where the shared, read-only test vectors live: `../shared/vectors` beside the repository root
 * (CI clones main with shared/ next to it). Tests read them in place and never write there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const VECTORS_DIR = fileURLToPath(new URL("../../../shared/vectors/", import.meta.url));

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
