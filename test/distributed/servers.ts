/**
 * test/distributed/** needs real servers: Kafka, Redis and the ClickHouse HTTP test double. Each test file
 * starts the ones it uses through infra/servers/infra.sh (idempotent, serialised by a lock; the first call
 * installs: Kafka's jars from Maven Central, redis-server from Debian) and reads their addresses from
 * `infra.sh env`. `npm run test:distributed` stops them at the end.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const INFRA_SCRIPT = fileURLToPath(new URL("../../infra/servers/infra.sh", import.meta.url));

export type Service = "kafka" | "redis" | "clickhouse";
export type ServerEnv = { kafkaBrokers: string; clickhouseUrl: string; redisUrl: string };

export async function infra(action: "start" | "stop" | "status", service: Service): Promise<void> {
  await run(INFRA_SCRIPT, [action, service], { timeout: 300_000 });
}

/** Starts the services (if they are not running yet) and returns their addresses. */
export async function startServers(services: readonly Service[]): Promise<ServerEnv> {
  for (const s of services) await infra("start", s);
  const { stdout } = await run(INFRA_SCRIPT, ["env"]);
  const env = Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split("=", 2) as [string, string]),
  );
  return {
    kafkaBrokers: env.KAFKA_BROKERS as string,
    clickhouseUrl: env.CLICKHOUSE_URL as string,
    redisUrl: env.REDIS_URL as string,
  };
}

/** A fresh name per test: topics, groups, key prefixes (STYLE practice 12). */
export const guid = (): string => `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;

/** Polls `cond` every `everyMs` until it holds; throws after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 30_000, everyMs = 5): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
