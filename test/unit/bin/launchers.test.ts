/**
 * V8 flags on the launchers' command lines (V8 reads them only at startup): the CLI's general launchers —
 * bin/tondex, the shebang of bin/tondex.mjs (what `npm link` and `npx tondex` run), `npm start` and `npm run
 * bench` — carry every flag of the server's `SERVER_NODE_FLAGS` and none of the devnet's
 * `DEVNET_NODE_FLAGS`; `npm run devnet` carries every devnet flag (the devnet benchmark's children get them
 * from bench/devnet.ts).
 */
import { readFileSync } from "node:fs";
import test from "ava";
import { SERVER_NODE_FLAGS } from "../../../bin/node-flags.ts";
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

const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

test("the CLI's general launchers pass the server's V8 flags and none of the devnet's", (t) => {
  const shell = read("bin/tondex")
    .split("\n")
    .find((l) => l.startsWith("exec node"));
  const shebang = read("bin/tondex.mjs").split("\n")[0]!;
  t.true(shebang.startsWith("#!/usr/bin/env -S node "), "env -S: the shebang passes node its flags");
  const launchers = {
    "bin/tondex": shell ?? "",
    "bin/tondex.mjs": shebang,
    "npm start": scripts.start ?? "",
    "npm run bench": scripts.bench ?? "",
  };
  for (const [name, line] of Object.entries(launchers)) {
    const args = nodeArgs(line);
    for (const flag of SERVER_NODE_FLAGS) t.true(args.includes(flag), `${name} passes ${flag}`);
    for (const flag of DEVNET_NODE_FLAGS) t.false(args.includes(flag), `${name} does not pass ${flag}`);
  }
});

test("npm run devnet passes every one of them to tondex devnet", (t) => {
  const args = nodeArgs(scripts.devnet ?? "");
  for (const flag of DEVNET_NODE_FLAGS) t.true(args.includes(flag), `npm run devnet passes ${flag}`);
  t.deepEqual(args.slice(-2), ["bin/tondex.mjs", "devnet"]);
});
