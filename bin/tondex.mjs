#!/usr/bin/env -S node --max-semi-space-size=64
// Entry point of the `tondex` CLI. The project is TypeScript run through tsx (no build step):
// register tsx's ESM loader, then hand over to the typed CLI in main.ts. The V8 flags on the first line
// are bin/node-flags.ts's SERVER_NODE_FLAGS (`env -S` splits them: GNU coreutils 8.30+, BSD env).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The project's tsconfig wherever the CLI is started from: tsx would otherwise look for one in the
// working directory, and without it the routes' (legacy) decorators are compiled as standard ones.
register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
// A closed pipe (`tondex amm file | head`) is a normal way for a reader to stop: exit quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}
// runProgram logs a fatal error (unhandled rejection, uncaught exception) and exits 1.
const { runProgram } = await import("./run-program.ts");
await runProgram(async () => (await import("./main.ts")).main(process.argv.slice(2)));
