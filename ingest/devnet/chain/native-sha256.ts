/**
 * @ton/core hashes every cell through `sha256_sync` of @ton/crypto, a pure-JS SHA-256 that hex-encodes its
 * input first; on the devnet that is about a fifth of all CPU time. `useNativeSha256()` points that export
 * at node:crypto's SHA-256 — the same function, bit for bit (test/unit/ingest/devnet/native-sha256.test.ts
 * compares both on random inputs and on cell hashes).
 *
 * It changes a dependency's module export for the whole process, so only the composition roots call it
 * (bin/ and the benchmarks), once, at startup; everything works the same without it, only slower.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";

type Sha256Module = { sha256_sync: (source: Buffer | string) => Buffer };

const require = createRequire(import.meta.url);

export function nativeSha256(source: Buffer | string): Buffer {
  return createHash("sha256").update(source).digest();
}

/** Returns false when @ton/crypto's layout is not the expected one (nothing is changed then). */
export function useNativeSha256(): boolean {
  let target: Partial<Sha256Module>;
  try {
    target = require("@ton/crypto/dist/primitives/sha256.js") as Partial<Sha256Module>;
  } catch {
    return false;
  }
  if (typeof target.sha256_sync !== "function") return false;
  target.sha256_sync = nativeSha256;
  return true;
}
