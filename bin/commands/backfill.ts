/**
 * `tondex backfill --from SEQNO --to SEQNO [--option value ...]`: indexes a range of mainnet masterchain
 * blocks through toncenter's index API v3 (TON_API_URL, TON_API_KEY) into the store, with
 * MAINNET_CONCURRENCY blocks fetched in parallel and published in order, a progress bar on a terminal
 * (plain lines otherwise), and the cursor stored with the facts: run it again after an interruption and it
 * resumes after the last stored block; `tondex start` with SOURCE=mainnet then follows on from the range's end.
 */
import { ConfigError } from "../../infra/errors.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { configHelp, loadConfig } from "../config.ts";
import type { CliIo } from "../io.ts";
import { mainnetSourceOf, toncenterClientOf } from "../mainnet.ts";
import { startPipeline } from "../pipeline.ts";
import { createProgress } from "../progress.ts";
import { runToEnd } from "../run-to-end.ts";

const USAGE = "usage: tondex backfill --from SEQNO --to SEQNO [--option value ...]";

type Range = { from: number; to: number };

/** Takes `--from` / `--to` out of the arguments; the rest are configuration flags. */
export function parseRange(args: readonly string[]): {
  range: Range | null;
  rest: string[];
  problems: string[];
} {
  const values: Partial<Record<"from" | "to", string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const m = /^--(from|to)(?:=(.*))?$/.exec(arg);
    if (m === null) rest.push(arg);
    else values[m[1] as "from" | "to"] = m[2] ?? args[++i];
  }
  const problems: string[] = [];
  const seqno = (name: "from" | "to"): number => {
    const raw = values[name];
    if (raw === undefined) problems.push(`--${name} is required`);
    else if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 2 ** 31 - 1)
      problems.push(`--${name} must be a masterchain seqno (a positive integer), got '${raw}'`);
    return Number(raw);
  };
  const from = seqno("from");
  const to = seqno("to");
  if (problems.length === 0 && to < from) problems.push(`--to (${to}) must not be below --from (${from})`);
  return { range: problems.length === 0 ? { from, to } : null, rest, problems };
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(`${USAGE}\n\n${configHelp()}\n`);
    return 0;
  }
  const { range, rest, problems } = parseRange(args);
  const all = [...problems];
  let config: ReturnType<typeof loadConfig> | null = null;
  try {
    config = loadConfig({ ...process.env, SOURCE: "mainnet" }, rest);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    all.push(...error.problems);
  }
  if (config === null || range === null) {
    io.stderr(`tondex backfill: invalid configuration: ${all.join("; ")}\n${USAGE}\n`);
    return 2;
  }
  const logger = createLogger({ level: config.logLevel, name: "tondex" });
  const metrics = createMetrics();
  // One client for the blocks and the chain-state reads: one rate limit for both.
  const client = toncenterClientOf(config, metrics);
  const source = mainnetSourceOf(config, { logger, metrics, range, client });
  const progress = createProgress({
    write: io.stderr,
    tty: process.stderr.isTTY === true,
    total: range.to,
    first: range.from - 1,
  });
  const pipeline = await startPipeline(config, {
    logger,
    metrics,
    source,
    toncenter: client,
    onBlock: (b) => progress.tick(b.mc_seqno, b.transactions.length),
  });
  return runToEnd(pipeline, {
    command: "backfill",
    io,
    progress,
    report: (result) => ({
      line: { ...result, from: range.from, to: range.to },
      exitCode: result.finished ? 0 : 1,
    }),
  });
}
