#!/usr/bin/env node
// Entry point of the `tondex` CLI. The project is TypeScript run through tsx (no build step):
// register tsx's ESM loader, then hand over to the typed CLI in main.ts.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv.slice(2));
