/**
 * Distributed throughput and lag, beside the embedded pipeline in the same run (`npm run bench` part; alone:
 * `node --import tsx bench/distributed.ts [blocks]`). Starts Kafka, Redis and the ClickHouse HTTP test
 * double through infra/servers/infra.sh, and stops them at the end.
 *
 * 1. Through Kafka, 1 and 2 `tondex process` replicas: a devnet run (seed 1) is first published whole to a
 *    fresh topic by `tondex ingest`; then the replicas start and the clock runs from their start to the
 *    stored cursor reaching the run's last block (core building included). The topic has one partition
 *    (processors/README.md): a second replica is a standby, so 2 replicas are expected to equal 1.
 * 2. Embedded, same blocks: `tondex devnet` writes the run to a dump first; the clock runs from starting
 *    `tondex replay` of that dump (in-process bus, embedded chdb) to its exit, so both sides are timed as
 *    processes, start-up included, without the devnet's generation.
 * 3. Consumer lag under a steady devnet load: an in-process ingest publishes one block every
 *    `LAG_BLOCK_INTERVAL_MS` to Kafka, one replica processes; every second, lag = the last block published −
 *    the highest block whose transactions are stored.
 *
 * On this 2-core machine the store is the ClickHouse test double (one chdb session, requests one at a
 * time, over HTTP), so Kafka numbers measure the whole chain (Kafka + HTTP inserts), not Kafka alone.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { loadConfig } from "../bin/config.ts";
import { kafkaBusOf } from "../bin/distributed.ts";
import { SERVER_NODE_FLAGS } from "../bin/node-flags.ts";
import { createLogger } from "../infra/log.ts";
import { openStore, type Store } from "../infra/store/client.ts";
import { readCursor } from "../infra/store/facts-writer.ts";
import { migrate } from "../infra/store/migrate.ts";
import { createDevnetSource } from "../ingest/devnet/source.ts";
import { runIngest } from "../ingest/loop.ts";
import { fmt } from "./harness.ts";

const ROOT = join(import.meta.dirname, "..");
const TONDEX = join(ROOT, "bin/tondex.mjs");
const INFRA = join(ROOT, "infra/servers/infra.sh");
const LAG_BLOCK_INTERVAL_MS = 250;
const LAG_SECONDS = 20;

export type DistributedBench = {
  blocks: number;
  transactions: number;
  kafka: { replicas: number; seconds: number; txPerSecond: number }[];
  embeddedTxPerSecond: number;
  lag: { blocksPerSecond: number; samples: number[]; max: number; final: number };
};

const now = () => Number(process.hrtime.bigint()) / 1e9;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function servers(): { kafka: string; clickhouse: string; redis: string } {
  execFileSync(INFRA, ["start"], { stdio: "ignore" });
  const env = Object.fromEntries(
    execFileSync(INFRA, ["env"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((l) => l.split("=", 2) as [string, string]),
  );
  return {
    kafka: env.KAFKA_BROKERS as string,
    clickhouse: env.CLICKHOUSE_URL as string,
    redis: env.REDIS_URL as string,
  };
}

function tondex(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; exited: Promise<number | null>; log: string[] } {
  // As the launchers start it (bin/node-flags.ts).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, TONDEX, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  child.stdout?.on("data", (d: Buffer) => log.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => log.push(d.toString()));
  return { child, log, exited: new Promise((resolve) => child.once("exit", resolve)) };
}

async function freshDatabase(clickhouse: string, dir: string): Promise<{ url: string; store: Store }> {
  const db = `bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = await openStore({ clickhouseUrl: clickhouse, dataDir: dir });
  await admin.command(`CREATE DATABASE ${db}`);
  await admin.close();
  const url = `${clickhouse}/${db}`;
  return { url, store: await openStore({ clickhouseUrl: url, dataDir: dir }) };
}

const cursorOf = async (store: Store) => (await readCursor(store).catch(() => ({ mcSeqno: null }))).mcSeqno;

async function throughKafka(
  s: ReturnType<typeof servers>,
  dir: string,
  blocks: number,
  replicas: number,
): Promise<{ seconds: number; transactions: number }> {
  const { url, store } = await freshDatabase(s.clickhouse, dir);
  const env = {
    SOURCE: "devnet",
    DEVNET_SEED: "1",
    DEVNET_BLOCKS: String(blocks),
    DEVNET_BLOCK_INTERVAL_MS: "0",
    LOG_LEVEL: "info",
    KAFKA_BROKERS: s.kafka,
    KAFKA_TOPIC_PREFIX: `bench${Date.now()}.`,
    CLICKHOUSE_URL: url,
    REDIS_URL: s.redis,
    DATA_DIR: dir,
  };
  const ingest = tondex(["ingest"], env);
  if ((await ingest.exited) !== 0) throw new Error(`ingest failed:\n${ingest.log.join("").slice(-2000)}`);
  const last = Number(/"lastMcSeqno":(\d+)[^\n]*"msg":"ingest finished"/.exec(ingest.log.join(""))?.[1]);
  const transactions = Number(
    /"transactions":(\d+)[^\n]*"msg":"ingest finished"/.exec(ingest.log.join(""))?.[1],
  );
  const start = now();
  const procs = Array.from({ length: replicas }, () => tondex(["process"], env));
  while ((await cursorOf(store)) !== last) {
    for (const p of procs)
      if (p.child.exitCode !== null) throw new Error(`process failed:\n${p.log.join("").slice(-2000)}`);
    await sleep(200);
  }
  const seconds = now() - start;
  for (const p of procs) p.child.kill("SIGTERM");
  await Promise.all(procs.map((p) => p.exited));
  await store.close();
  return { seconds, transactions };
}

async function embeddedReplay(dir: string, blocks: number): Promise<number> {
  const dump = join(dir, `dump-${blocks}`);
  const devnet = tondex(
    ["devnet", "--seed", "1", "--blocks", String(blocks), "--actions-per-block", "24", "--out", dump],
    {},
  );
  if ((await devnet.exited) !== 0) throw new Error(`devnet failed:\n${devnet.log.join("").slice(-2000)}`);
  const start = now();
  const replay = tondex(["replay", dump], { DATA_DIR: join(dir, `replayed-${blocks}`), LOG_LEVEL: "warn" });
  if ((await replay.exited) !== 0) throw new Error(`replay failed:\n${replay.log.join("").slice(-2000)}`);
  return now() - start;
}

async function lagUnderLoad(s: ReturnType<typeof servers>, dir: string): Promise<DistributedBench["lag"]> {
  const { url, store } = await freshDatabase(s.clickhouse, dir);
  await migrate(store);
  const env = {
    SOURCE: "devnet",
    DEVNET_SEED: "2",
    LOG_LEVEL: "warn",
    KAFKA_BROKERS: s.kafka,
    KAFKA_TOPIC_PREFIX: `benchlag${Date.now()}.`,
    CLICKHOUSE_URL: url,
    DATA_DIR: dir,
  };
  const config = loadConfig(env, []);
  const bus = kafkaBusOf(config, createLogger({ level: "warn", name: "bench" }));
  const proc = tondex(["process"], env);
  let head = 0;
  const abort = new AbortController();
  const source = createDevnetSource({
    seed: 2,
    actionsPerBlock: 24,
    intervalMs: LAG_BLOCK_INTERVAL_MS,
    maxBlocks: 0,
  });
  const ingest = runIngest({
    source,
    bus,
    after: 0,
    signal: abort.signal,
    onBlock: (b) => {
      head = b.mc_seqno;
    },
  });
  const processed = async () =>
    Number(
      (
        await store
          .query("SELECT max(mc_seqno) AS m FROM transactions", z.object({ m: z.coerce.number() }))
          .catch(() => [{ m: 0 }])
      )[0]?.m ?? 0,
    );
  const samples: number[] = [];
  for (let i = 0; i < LAG_SECONDS; i++) {
    await sleep(1_000);
    samples.push(head - (await processed()));
  }
  abort.abort();
  await ingest.catch(() => undefined);
  proc.child.kill("SIGTERM");
  await proc.exited;
  await bus.close();
  await store.close();
  // Skip the first samples: the devnet's setup blocks are not paced, and the replica is still starting.
  const steady = samples.slice(5);
  return {
    blocksPerSecond: 1000 / LAG_BLOCK_INTERVAL_MS,
    samples,
    max: Math.max(...steady),
    final: steady.at(-1) ?? 0,
  };
}

export async function runDistributedBench(blocks = 100): Promise<DistributedBench> {
  const s = servers();
  const dir = await mkdtemp(join(tmpdir(), "tondex-bench-dist-"));
  try {
    const kafka: DistributedBench["kafka"] = [];
    let transactions = 0;
    for (const replicas of [1, 2]) {
      const r = await throughKafka(s, dir, blocks, replicas);
      transactions = r.transactions;
      kafka.push({ replicas, seconds: r.seconds, txPerSecond: r.transactions / r.seconds });
    }
    const embeddedSeconds = await embeddedReplay(dir, blocks);
    const lag = await lagUnderLoad(s, dir);
    return { blocks, transactions, kafka, embeddedTxPerSecond: transactions / embeddedSeconds, lag };
  } finally {
    await rm(dir, { recursive: true, force: true });
    execFileSync(INFRA, ["stop"], { stdio: "ignore" });
  }
}

export function printDistributedBench(b: DistributedBench): void {
  console.log(
    `distributed pipeline: devnet seed 1, ${b.blocks} market blocks, ${fmt(b.transactions)} transactions`,
  );
  for (const k of b.kafka) {
    console.log(
      `  through Kafka, ${k.replicas} processor replica${k.replicas > 1 ? "s" : ""}: ${fmt(k.txPerSecond)} tx/s (${k.seconds.toFixed(1)} s)`,
    );
  }
  console.log(`  embedded pipeline, tondex replay of the same blocks: ${fmt(b.embeddedTxPerSecond)} tx/s`);
  const one = b.kafka[0]?.txPerSecond ?? 0;
  console.log(
    `  ratios: 2 replicas / 1 = ${((b.kafka[1]?.txPerSecond ?? 0) / one).toFixed(2)} (one partition: a standby), Kafka / embedded = ${(one / b.embeddedTxPerSecond).toFixed(2)}`,
  );
  console.log(
    `  consumer lag at ${b.lag.blocksPerSecond} blocks/s (24 actions each): max ${b.lag.max} blocks, last ${b.lag.final} (samples ${b.lag.samples.join(" ")})`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printDistributedBench(await runDistributedBench(Number(process.argv[2] ?? 100)));
}
