/**
 * HotCache over Redis (ioredis), shared by every `process` and `serve` replica: the processors write the
 * latest pool states, the API replicas read them, so all quote from the same state.
 *
 * A cache must never stall its caller: when Redis is down, commands fail at once (no offline queue, one
 * attempt, a command timeout) with a RetryableError, and the caller falls back to the store (the API) or
 * counts and goes on (the processor's shell). ioredis keeps reconnecting in the background, so the cache
 * is used again as soon as Redis is back. Values are strings with a TTL (`SET key value PX ttl`), as in the
 * in-process LRU (./memory.ts); test/distributed/cache-contract.test.ts runs one suite on both.
 */
import { Redis } from "ioredis";
import { errorMessage, RetryableError } from "../errors.ts";
import type { HotCache } from "./types.ts";

export type RedisCacheOptions = {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  readonly url: string;
  /**
   * Prepended to every key this client reads or writes (`REDIS_KEY_PREFIX`), the data version's included
   * (ioredis's `keyPrefix` applies to the keys of every command, EVAL's too): several deployments or tests
   * can share one Redis.
   */
  readonly keyPrefix?: string;
  /** A command slower than this fails (Redis answers in well under a millisecond when healthy). */
  readonly commandTimeoutMs?: number;
  /** Called with every connection error (ioredis emits them while it reconnects), e.g. to count them. */
  readonly onError?: (error: unknown) => void;
};

export type RedisCache = HotCache & {
  /** The client, for other keys of the same deployment (the data version, ./data-version.ts). */
  readonly client: Redis;
  /** True while connected. */
  ready(): boolean;
  close(): Promise<void>;
};

export function redisClient(options: RedisCacheOptions): Redis {
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    connectTimeout: 2_000,
    // Reconnect for ever, 50 ms … 1 s apart: a restarted Redis is picked up within a second.
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    lazyConnect: false,
    keyPrefix: options.keyPrefix ?? "",
  });
  // Without a listener, ioredis reports each failed reconnect as an unhandled error.
  client.on("error", (error: unknown) => options.onError?.(error));
  return client;
}

export function createRedisCache(options: RedisCacheOptions): RedisCache {
  const client = redisClient(options);
  const timeoutMs = options.commandTimeoutMs ?? 1_000;
  // The first commands of a new process wait (up to the command timeout) for the first connection;
  // after that, a lost connection fails commands at once.
  let firstConnection: Promise<void> | null = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    client.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  }).then(() => {
    firstConnection = null;
  });
  const call = async <T>(what: string, command: () => Promise<T>): Promise<T> => {
    if (firstConnection !== null) await firstConnection;
    try {
      return await command();
    } catch (error) {
      throw new RetryableError(`Redis ${what} failed: ${errorMessage(error)}`, { cause: error });
    }
  };
  return {
    client,
    ready: () => client.status === "ready",
    async get(key) {
      const value = await call("GET", () => client.get(key));
      return value ?? undefined;
    },
    async set(key, value, ttlMs) {
      // As in the in-process cache, a non-positive TTL stores nothing (and drops what was there).
      if (!(ttlMs > 0)) {
        await call("DEL", () => client.del(key));
        return;
      }
      await call("SET", () => client.set(key, value, "PX", Math.ceil(ttlMs)));
    },
    async delete(key) {
      return (await call("DEL", () => client.del(key))) > 0;
    },
    async close() {
      client.disconnect();
    },
  };
}
