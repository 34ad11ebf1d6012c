/**
 * The `tondex` CLI: one binary, one subcommand per task. Each subcommand module exports
 * `run(args, io)` and returns the process exit code; this file only dispatches.
 */
import type { CliIo } from "./io.ts";
import { processIo } from "./io.ts";

type Command = {
  summary: string;
  load: () => Promise<{ run: (args: string[], io: CliIo) => Promise<number> }>;
};

const commands: Record<string, Command> = {
  amm: {
    summary: "compute AMM cases (swap, reverse swap, liquidity) for every pool type; --check compares",
    load: () => import("./commands/amm.ts"),
  },
  devnet: {
    summary:
      "run the emulated chain with its seeded market; write blocks (RawTransaction JSONL) and ground truth",
    load: () => import("./commands/devnet.ts"),
  },
  start: {
    summary: "run the whole service in one process: source, bus, processors, ClickHouse, REST API, /metrics",
    load: () => import("./commands/start.ts"),
  },
  ingest: {
    summary:
      "distributed: publish the source's blocks to Kafka (KAFKA_BROKERS, CLICKHOUSE_URL for the cursor)",
    load: () => import("./commands/ingest.ts"),
  },
  process: {
    summary: "distributed: one processor replica, Kafka → ClickHouse + Redis (run N: one consumer group)",
    load: () => import("./commands/process.ts"),
  },
  serve: {
    summary: "distributed: one API replica over ClickHouse (CLICKHOUSE_URL) and Redis (REDIS_URL)",
    load: () => import("./commands/serve.ts"),
  },
  replay: {
    summary: "ingest recorded blocks (devnet dumps, RawTransaction JSONL/JSON, traces) through the pipeline",
    load: () => import("./commands/replay.ts"),
  },
  backfill: {
    summary: "index a range of mainnet masterchain blocks (--from, --to) through TON_API_URL; resumable",
    load: () => import("./commands/backfill.ts"),
  },
  decode: {
    summary:
      "classify the STON.fi operations in recorded traces / RawTransaction JSON(L); one JSON line per file",
    load: () => import("./commands/decode.ts"),
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: tondex <command> [args]\n\ncommands:\n${lines.join("\n")}\n\nRun 'tondex <command> --help' for details.\n`;
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr(`tondex: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const mod = await command.load();
  return mod.run(rest, io);
}
