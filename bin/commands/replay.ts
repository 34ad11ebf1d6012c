/**
 * `tondex replay PATH... [--option value ...]`: ingests recorded data (devnet dump directories,
 * RawTransaction JSONL, RawTransaction JSON, recorded traces) through the same pipeline as `tondex start`
 * into the store under DATA_DIR (or CLICKHOUSE_URL), with a progress bar on a terminal and plain progress
 * lines otherwise. Resumes from the stored cursor; exits when the inputs are done.
 */
import { ConfigError } from "../../infra/errors.ts";
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { replayLastBlock } from "../../ingest/replay/index.ts";
import { configHelp, loadConfig } from "../config.ts";
import type { CliIo } from "../io.ts";
import { startPipeline } from "../pipeline.ts";
import { createProgress } from "../progress.ts";
import { runToEnd } from "../run-to-end.ts";

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(`usage: tondex replay PATH... [--option value ...]\n\n${configHelp()}\n`);
    return 0;
  }
  const firstOption = args.findIndex((a) => a.startsWith("--"));
  const paths = firstOption === -1 ? args : args.slice(0, firstOption);
  const options = firstOption === -1 ? [] : args.slice(firstOption);
  if (paths.length === 0) {
    io.stderr("tondex replay: give at least one PATH (devnet dump directory, .jsonl or .json)\n");
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ ...process.env, SOURCE: "replay", REPLAY_PATH: paths.join(",") }, options);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`tondex replay: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, name: "tondex" });
  // A replay parses recorded BOCs; it builds no cells.
  applyLibraryPatches(config.libraryPatches === "on" ? ["parse"] : [], logger);
  const total = await replayLastBlock(paths);
  const progress = createProgress({ write: io.stderr, tty: process.stderr.isTTY === true, total, first: 0 });
  const pipeline = await startPipeline(config, {
    logger,
    metrics: createMetrics(),
    onBlock: (b) => progress.tick(b.mc_seqno, b.transactions.length),
  });
  return runToEnd(pipeline, {
    command: "replay",
    io,
    progress,
    report: (result) => ({ line: result, exitCode: 0 }),
  });
}
