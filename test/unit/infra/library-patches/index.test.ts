/**
 * The library patches' one switch: with a library version other than the verified one nothing is patched
 * (the plain library runs) and the logger says which library and version; with the verified versions the
 * requested groups are installed, once. Ava runs this file in its own process.
 */
import { createRequire } from "node:module";
import test from "ava";
import {
  applyLibraryPatches,
  installedVersions,
  VERIFIED_VERSIONS,
} from "../../../../infra/library-patches/index.ts";

const require = createRequire(import.meta.url);
const reader = require("@ton/core/dist/boc/BitReader.js").BitReader.prototype as { loadUint: unknown };
const sha = require("@ton/crypto/dist/primitives/sha256.js") as { sha256_sync: unknown };

function recorder() {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    warnings,
    logger: {
      warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
      debug: () => {},
    },
  };
}

test.serial("the installed libraries are the verified versions (package-lock pins them)", (t) => {
  t.deepEqual(installedVersions(), { ...VERIFIED_VERSIONS });
});

test.serial("another @ton/core version: nothing is patched, the logger names library and versions", (t) => {
  const { warnings, logger } = recorder();
  const original = reader.loadUint;
  const report = applyLibraryPatches(["parse", "build"], logger as never, {
    "@ton/core": "0.64.0",
    "@ton/crypto": VERIFIED_VERSIONS["@ton/crypto"],
  });
  t.deepEqual(report, {
    applied: [],
    refused: { library: "@ton/core", verified: VERIFIED_VERSIONS["@ton/core"], found: "0.64.0" },
  });
  t.is(reader.loadUint, original);
  t.is(warnings.length, 1);
  t.like(warnings[0]!.fields, { library: "@ton/core", found: "0.64.0" });
});

test.serial("a missing @ton/crypto is refused the same way", (t) => {
  const report = applyLibraryPatches(["build"], undefined, {
    "@ton/core": VERIFIED_VERSIONS["@ton/core"],
    "@ton/crypto": null,
  });
  t.deepEqual(report.refused, {
    library: "@ton/crypto",
    verified: VERIFIED_VERSIONS["@ton/crypto"],
    found: null,
  });
});

test.serial("the verified versions: only the requested groups, installed once", (t) => {
  const { warnings, logger } = recorder();
  const [loadUint, sha256] = [reader.loadUint, sha.sha256_sync];
  t.deepEqual(applyLibraryPatches(["parse"], logger as never), { applied: ["parse"], refused: null });
  t.not(reader.loadUint, loadUint);
  t.is(sha.sha256_sync, sha256, "build group untouched");
  const patched = reader.loadUint;
  t.deepEqual(applyLibraryPatches(["parse", "build"], logger as never).applied, ["parse", "build"]);
  t.is(reader.loadUint, patched, "not wrapped twice");
  t.not(sha.sha256_sync, sha256);
  t.is(warnings.length, 0);
});
