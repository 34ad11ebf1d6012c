/**
 * V8 reads some flags only at startup, so the CLI's launchers carry them on their node command line:
 * bin/tondex, the shebang of bin/tondex.mjs (what `npm link` and `npx tondex` run) and `npm start` must
 * each pass every flag of `DEVNET_NODE_FLAGS`, and so must `npm run bench`, whose pipeline figures include
 * `tondex start`'s (the devnet benchmark's children get them from bench/devnet.ts).
 */
import { readFileSync } from "node:fs";
import test from "ava";
import { DEVNET_NODE_FLAGS } from "../../../ingest/devnet/chain/gc-tuning.ts";

const root = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** The words of the line that starts node, after `node`. */
function nodeArgs(line: string): string[] {
  const words = line.trim().split(/\s+/);
  const at = words.findIndex((w) => w === "node" || w.endsWith("/node"));
  if (at < 0) throw new Error(`no node command in: ${line}`);
  return words.slice(at + 1);
}

test("every launcher of the CLI passes the devnet's V8 startup flags", (t) => {
  const shell = read("bin/tondex")
    .split("\n")
    .find((l) => l.startsWith("exec node"));
  const shebang = read("bin/tondex.mjs").split("\n")[0]!;
  const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
  t.true(shebang.startsWith("#!/usr/bin/env -S node"));
  const launchers = {
    "bin/tondex": shell ?? "",
    "bin/tondex.mjs": shebang,
    "npm start": scripts.start ?? "",
  };
  for (const [name, line] of Object.entries(launchers)) {
    const args = nodeArgs(line);
    for (const flag of DEVNET_NODE_FLAGS) t.true(args.includes(flag), `${name} passes ${flag}`);
  }
});
