/**
 * Faults of the distributed deployment, on real servers this file starts through infra/servers/infra.sh
 * (Kafka 3.9, Redis, the ClickHouse HTTP test double): one devnet run through `tondex ingest`, two
 * `tondex process` replicas and two `tondex serve` replicas, during which
 * - the Kafka broker is restarted: ingest and the processors carry on;
 * - the ClickHouse server goes away: `serve` answers 503 JSON on data routes and stays up, `process` stops
 *   committing and retries; when it is back the run resumes;
 * - Redis goes away: `serve` keeps answering simulations (pool states from ClickHouse, counted in
 *   tondex_cache_errors_total); when it is back it is used again (the counter stops moving);
 * and the run still ends with the devnet's ground truth exactly, and both API replicas answer every
 * simulation identically: after commits during the run (each time the data version in Redis moves, outside
 * the fault windows, the same simulations are asked of both), and for every pool at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import { DATA_VERSION_KEY } from "../../infra/cache/data-version.ts";
import { createRedisCache } from "../../infra/cache/redis.ts";
import { openStore } from "../../infra/store/client.ts";
import { countFacts } from "../../infra/store/facts-reader.ts";
import { readCursor } from "../../infra/store/facts-writer.ts";
import { runDevnet } from "../helpers/devnet-run.ts";
import { factsMatchTruth } from "../helpers/facts-truth.ts";
import { guid, infra, type ServerEnv, startServers, until } from "./servers.ts";

const TONDEX = join(import.meta.dirname, "../../bin/tondex.mjs");
const BLOCKS = Number(process.env.TONDEX_FAULTS_BLOCKS ?? 80);
const ACTIONS = 10;
const SEED = 9;

const test = anyTest as TestFn<ServerEnv>;
test.before(async (t) => {
  Object.assign(t.context, await startServers(["kafka", "redis", "clickhouse"]));
});

type Proc = { name: string; child: ChildProcess; log: string[]; exited: Promise<number | null> };

function tondex(name: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [TONDEX, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  child.stdout?.on("data", (d: Buffer) => log.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => log.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  if (process.env.TONDEX_TEST_LOGS) {
    child.once(
      "exit",
      () =>
        void writeFile(
          join(process.env.TONDEX_TEST_LOGS as string, `${name}-${child.pid}.log`),
          log.join(""),
        ),
    );
  }
  return { name, child, log, exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long one request to a replica may take (a quote or a listing takes milliseconds). */
const HTTP_MS = 20_000;

/** What each process said last: its warnings and errors, then its last lines. */
function tails(procs: readonly Proc[]): string {
  return procs
    .map((p) => {
      const lines = p.log.join("").split("\n");
      const bad = lines.filter((l) => /"level":(40|50|60)/.test(l)).slice(-10);
      return `--- ${p.name} (exit ${p.child.exitCode ?? "running"})\n${[...bad, "…", ...lines.slice(-8)].join("\n")}`;
    })
    .join("\n");
}

async function http(port: number, path: string, method = "GET"): Promise<{ status: number; body: string }> {
  try {
    // Bounded: a request that hangs fails its step with this error (and the processes' logs, below) instead
    // of outliving ava's timeout with nothing said.
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      signal: AbortSignal.timeout(HTTP_MS),
    });
    return { status: res.status, body: await res.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

async function cacheErrors(port: number): Promise<number> {
  const { body } = await http(port, "/metrics");
  return Number(/^tondex_cache_errors_total (\d+)/m.exec(body)?.[1] ?? Number.NaN);
}

type Pool = { address: string; token0_address: string; token1_address: string };

const simulate = (port: number, p: Pool) =>
  http(
    port,
    `/v1/swap/simulate?offer_address=${p.token0_address}&ask_address=${p.token1_address}&units=1000000&slippage_tolerance=0.01&pool_address=${p.address}`,
    "POST",
  );

/** How long a replica may answer from before a commit: data version polled every 100 ms, reference-data snapshot up to 2 × API_CACHE_TTL_MS (1 s). */
const REPLICA_SETTLE_MS = 2_500;

type Watch = {
  /** Stops sampling (the sample in flight finishes first), e.g. while a server is taken away. */
  pause(): Promise<void>;
  resume(): void;
  stop(): Promise<{ commits: number; agreed: number; superseded: number; disagreements: string[] }>;
};

/**
 * Each time the data version in Redis moves (a commit), asks both API replicas the same simulations until
 * they answer identically. A replica may still answer from before the commit for REPLICA_SETTLE_MS; a
 * sample that the next commit overtakes first is superseded (the next one checks again); two replicas
 * that still differ after REPLICA_SETTLE_MS with no commit in between disagree.
 */
function watchReplicas(redisUrl: string, keyPrefix: string, ports: [number, number], pools: Pool[]): Watch {
  const redis = createRedisCache({ url: redisUrl, keyPrefix });
  const out = { commits: 0, agreed: 0, superseded: 0, disagreements: [] as string[] };
  let paused = false;
  let stopped = false;
  const version = () => redis.get(DATA_VERSION_KEY).catch(() => undefined);
  const quote = async (port: number) =>
    (await Promise.all(pools.map((p) => simulate(port, p)))).map((r) => `${r.status} ${r.body}`).join("\n");
  const sample = async (v: string) => {
    const deadline = Date.now() + REPLICA_SETTLE_MS;
    for (;;) {
      const [a, b] = await Promise.all(ports.map(quote));
      if (a === b) return void out.agreed++;
      if ((await version()) !== v) return void out.superseded++;
      if (Date.now() > deadline) return void out.disagreements.push(`version ${v}:\n${a}\n---\n${b}`);
      await sleep(100);
    }
  };
  let current: Promise<void> = Promise.resolve();
  const loop = (async () => {
    let last: string | undefined;
    while (!stopped) {
      const v = paused ? undefined : await version();
      if (v === undefined || v === last) {
        await sleep(50);
        continue;
      }
      last = v;
      out.commits++;
      current = sample(v);
      await current;
    }
  })();
  return {
    async pause() {
      paused = true;
      await current;
    },
    resume() {
      paused = false;
    },
    async stop() {
      stopped = true;
      await loop;
      await redis.close();
      return out;
    },
  };
}

test("Kafka restart, ClickHouse outage and Redis outage mid-run: exact facts, serve stays up, replicas agree", async (t) => {
  // Each wait below has its own deadline and fails with the processes' logs; this bounds the whole test
  // (ava's idle timeout, 5 min, would end it with nothing said).
  t.timeout(1_500_000);
  const dir = await mkdtemp(join(tmpdir(), "tondex-faults-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const db = guid();
  const admin = await openStore({ clickhouseUrl: t.context.clickhouseUrl, dataDir: dir });
  await admin.command(`CREATE DATABASE ${db}`);
  await admin.close();
  t.teardown(async () => {
    await infra("start", "clickhouse");
    await infra("start", "redis");
    await infra("start", "kafka");
    const cleanup = await openStore({ clickhouseUrl: t.context.clickhouseUrl, dataDir: dir });
    await cleanup.command(`DROP DATABASE IF EXISTS ${db}`);
    await cleanup.close();
  });
  const env = {
    SOURCE: "devnet",
    DEVNET_SEED: String(SEED),
    DEVNET_BLOCKS: String(BLOCKS),
    DEVNET_ACTIONS_PER_BLOCK: String(ACTIONS),
    // Paced, so the faults below land while blocks are still coming (~25 s of blocks).
    DEVNET_BLOCK_INTERVAL_MS: "300",
    WINDOW_BLOCKS: "16",
    BATCH_MAX_MS: "20",
    LOG_LEVEL: "info",
    KAFKA_BROKERS: t.context.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: `${guid()}.`,
    CLICKHOUSE_URL: `${t.context.clickhouseUrl}/${db}`,
    CLICKHOUSE_REQUEST_TIMEOUT_MS: "3000",
    REDIS_URL: t.context.redisUrl,
    REDIS_KEY_PREFIX: `${guid()}.`,
    DATA_DIR: dir,
  };
  const ports = [22_000 + Math.floor(Math.random() * 10_000)];
  ports.push((ports[0] as number) + 1);
  const procs: Proc[] = [
    tondex("process-a", ["process"], env),
    tondex("process-b", ["process"], env),
    ...ports.map((port, i) => tondex(`serve-${i}`, ["serve"], { ...env, PORT: String(port) })),
  ];
  const ingest = tondex("ingest", ["ingest"], env);
  t.teardown(() => {
    for (const p of [...procs, ingest]) p.child.kill("SIGKILL");
  });
  const [portA, portB] = ports as [number, number];
  let stage = "waiting for both replicas to serve";
  try {
    await until(async () => (await http(portA, "/v1/routers")).status === 200, 120_000);
    await until(async () => (await http(portB, "/v1/routers")).status === 200, 120_000);
    const store = await openStore({ clickhouseUrl: env.CLICKHOUSE_URL, dataDir: dir });
    t.teardown(() => store.close());
    const progressed = async (blocks: number) => {
      const before = (await readCursor(store).catch(() => ({ mcSeqno: null }))).mcSeqno ?? 0;
      await until(
        async () =>
          ((await readCursor(store).catch(() => ({ mcSeqno: null }))).mcSeqno ?? 0) >= before + blocks,
        300_000,
        250,
      );
    };
    const listed = { pool_list: [] as Pool[] };
    await until(
      async () => {
        const res = await http(portA, "/v1/pools");
        if (res.status === 200) listed.pool_list = (JSON.parse(res.body) as typeof listed).pool_list;
        return listed.pool_list.length >= 3;
      },
      120_000,
      200,
    );
    const watch = watchReplicas(
      t.context.redisUrl,
      env.REDIS_KEY_PREFIX,
      [portA, portB],
      listed.pool_list.slice(0, 3),
    );
    await progressed(5);

    // Kafka broker restart.
    stage = "Kafka broker restart";
    await watch.pause();
    await infra("stop", "kafka");
    await sleep(2_000);
    await infra("start", "kafka");
    watch.resume();
    await progressed(5);
    await watch.pause();

    // ClickHouse away: the API answers 503 JSON and stays up; the processors wait.
    stage = "ClickHouse outage";
    await infra("stop", "clickhouse");
    // A read of the store (the statistics) is a 503 JSON error. The reference lists may still answer from
    // their snapshot: it stays valid while the data version has not moved (api/read-model-cached.ts), and
    // whether a commit came after its last read depends on timing; either way the answer is 200 or 503.
    await sleep(2_500);
    const down = await http(portA, "/v1/stats/dex");
    t.is(down.status, 503, down.body.slice(0, 300));
    t.is((JSON.parse(down.body) as { error: { code: string } }).error.code, "service_unavailable");
    t.true([200, 503].includes((await http(portA, "/v1/pools")).status));
    await sleep(4_000);
    t.is((await http(portB, "/v1/stats/dex")).status, 503);
    await infra("start", "clickhouse");
    await until(async () => (await http(portA, "/v1/stats/dex")).status === 200, 60_000);

    // Redis away: simulations still answered (from ClickHouse), counted; back: used again.
    stage = "Redis outage";
    const { pool_list: pools } = JSON.parse((await http(portA, "/v1/pools")).body) as { pool_list: Pool[] };
    t.true(pools.length > 0);
    const errorsBefore = await cacheErrors(portA);
    await infra("stop", "redis");
    const during = await simulate(portA, pools[0] as Pool);
    t.is(during.status, 200, during.body.slice(0, 300));
    await until(async () => (await cacheErrors(portA)) > errorsBefore, 10_000);
    await infra("start", "redis");
    await sleep(3_000);
    const settled = await cacheErrors(portA);
    t.is((await simulate(portA, pools[0] as Pool)).status, 200);
    await sleep(1_000);
    t.is(await cacheErrors(portA), settled, "Redis is used again: no more cache errors");
    watch.resume();

    // The run ends with the ground truth exactly.
    stage = "waiting for the ingest to finish and the processors to catch up";
    const end = /"lastMcSeqno":(\d+)[^\n]*"msg":"ingest finished"/;
    await until(() => end.test(ingest.log.join("")) || ingest.child.exitCode !== null, 420_000);
    t.is(await ingest.exited, 0, ingest.log.join("").slice(-2000));
    const lastMc = Number(end.exec(ingest.log.join(""))?.[1]);
    await until(
      async () => (await readCursor(store).catch(() => ({ mcSeqno: null }))).mcSeqno === lastMc,
      300_000,
      250,
    );
    stage = "comparing facts and replicas";
    const watched = await watch.stop();
    t.deepEqual(watched.disagreements.slice(0, 3), [], "after each commit both replicas quote alike");
    t.true(watched.agreed >= 5, `only ${watched.agreed} commits compared`);
    const expected = await runDevnet({ seed: SEED, blocks: BLOCKS, actionsPerBlock: ACTIONS });
    t.is(await countFacts(store, "transactions", {}), BigInt(expected.txs.length));
    const check = await factsMatchTruth(store, expected.truth);
    t.deepEqual(check.problems.slice(0, 20), []);

    // Both API replicas quote every pool identically once the last commit is visible to both: each polls the
    // data version every 100 ms, and its reference-data snapshot may answer up to 2 × API_CACHE_TTL_MS (1 s)
    // while it refreshes after a new version (api/read-model-cached.ts).
    await sleep(3_000);
    const final = JSON.parse((await http(portA, "/v1/pools")).body) as { pool_list: Pool[] };
    let compared = 0;
    for (const p of final.pool_list) {
      const [a, b] = await Promise.all([simulate(portA, p), simulate(portB, p)]);
      t.is(a.status, b.status, `pool ${p.address}: ${a.body.slice(0, 200)} | ${b.body.slice(0, 200)}`);
      t.is(a.body, b.body, `pool ${p.address}`);
      compared++;
    }
    stage = "stopping the processes";
    for (const p of procs) p.child.kill("SIGTERM");
    for (const p of procs) {
      const code = await Promise.race([
        p.exited,
        sleep(60_000).then(() => "still running 60 s after SIGTERM"),
      ]);
      t.is(code, 0, `${p.name} stops cleanly:\n${tails([p])}`);
    }
    t.log(
      `${expected.txs.length} transactions; during the run ${watched.commits} data versions seen, ${watched.agreed} compared alike on ${Math.min(3, listed.pool_list.length)} pools, ${watched.superseded} overtaken by the next commit; at the end ${compared} pools quoted identically by both replicas`,
    );
  } catch (error) {
    t.log(`failed at: ${stage}\n${tails([...procs, ingest])}`);
    throw error;
  }
});
