/**
 * Every patch tondex makes to a library, behind one switch: `applyLibraryPatches(groups, logger)`. The
 * patches replace private methods and module exports of @ton/core and @ton/crypto for the whole process,
 * with bit-for-bit identical but faster code, so:
 * - only composition roots call this (bin/ commands, benchmarks, tests that want the same speed), once, at
 *   startup; no stage imports this folder (dependency-cruiser rule `library-patches-only-from-roots`);
 * - each root asks only for the groups it needs: `parse` for a process that parses BOCs (the processors),
 *   `build` for one that builds and hashes cells (the devnet);
 * - the patches were verified against the exact versions in `VERIFIED_VERSIONS`: with any other version
 *   installed nothing is patched, the plain library runs (slower, same results) and the logger says so.
 * Everything works the same without them, only slower.
 */
import { createRequire } from "node:module";
import { Cell } from "@ton/core";
import type { Logger } from "../log.ts";
import { installBitBuilder } from "./bit-builder.ts";
import { installBitReader } from "./bit-reader.ts";
import { cellFromBase64 } from "./fast-boc.ts";
import { installSha256 } from "./sha256.ts";

/**
 * - `parse`: @ton/core's `BitReader` reads, `BitBuilder.writeBits` and `crc32c` (./bit-reader.ts).
 * - `build`: SHA-256 through node:crypto and a byte-wise padded-bits copy (./sha256.ts), `BitBuilder.writeUint`
 *   and unaligned `writeBuffer` on numbers (./bit-builder.ts).
 */
export type PatchGroup = "parse" | "build";

/** The library versions whose internals the patches were written and tested against. */
export const VERIFIED_VERSIONS = { "@ton/core": "0.63.1", "@ton/crypto": "3.3.0" } as const;
export type LibraryVersions = { readonly [P in keyof typeof VERIFIED_VERSIONS]: string | null };

export type PatchReport = {
  /** Groups installed by this call or an earlier one. */
  readonly applied: readonly PatchGroup[];
  /** Why nothing was patched: a library version other than the verified one (null: versions match). */
  readonly refused: {
    readonly library: string;
    readonly verified: string;
    readonly found: string | null;
  } | null;
};

const INSTALL: Record<PatchGroup, readonly (() => boolean)[]> = {
  parse: [installBitReader],
  build: [installSha256, installBitBuilder],
};

const installed = new Set<PatchGroup>();

/** The installed versions, as node resolves the packages from here. */
export function installedVersions(): LibraryVersions {
  const require = createRequire(import.meta.url);
  const versionOf = (name: string): string | null => {
    try {
      return (require(`${name}/package.json`) as { version?: string }).version ?? null;
    } catch {
      return null;
    }
  };
  return { "@ton/core": versionOf("@ton/core"), "@ton/crypto": versionOf("@ton/crypto") };
}

function mismatch(versions: LibraryVersions): PatchReport["refused"] {
  for (const [library, verified] of Object.entries(VERIFIED_VERSIONS)) {
    const found = versions[library as keyof LibraryVersions];
    if (found !== verified) return { library, verified, found };
  }
  return null;
}

/**
 * Installs `groups` (idempotent) when the installed libraries are the verified versions; otherwise changes
 * nothing and logs a warning. A group whose library layout turns out different is skipped the same way.
 */
export function applyLibraryPatches(
  groups: readonly PatchGroup[],
  logger?: Pick<Logger, "warn" | "debug">,
  versions: LibraryVersions = installedVersions(),
): PatchReport {
  const refused = mismatch(versions);
  if (refused !== null) {
    logger?.warn(
      { ...refused, groups },
      "library patches not applied: not the verified version; running the plain library (slower, same results)",
    );
    return { applied: [...installed], refused };
  }
  for (const group of groups) {
    if (installed.has(group)) continue;
    const ok = INSTALL[group].map((install) => install()).every(Boolean);
    if (ok) installed.add(group);
    else
      logger?.warn(
        { group },
        "library patch not applied: unexpected library layout; running the plain library",
      );
  }
  logger?.debug({ applied: [...installed] }, "library patches");
  return { applied: [...installed], refused: null };
}

/**
 * The message-body parser for the classifier (`BocParser`, dex/classify/memo.ts): ./fast-boc.ts with the
 * verified @ton/core, else `Cell.fromBase64` itself (the same cells, only slower).
 */
export function bocParser(versions: LibraryVersions = installedVersions()): (boc: string) => Cell {
  return versions["@ton/core"] === VERIFIED_VERSIONS["@ton/core"]
    ? cellFromBase64
    : (boc) => Cell.fromBase64(boc);
}
