/**
 * The indexed data's version: bumped after every committed write and pool-state update, read (cheaply,
 * synchronously) by the API, whose response memo keys on it (api/response-memo.ts): an unchanged version
 * means nothing a reader sees has changed.
 *
 * - In one process: a counter (`localDataVersion`).
 * - Across processes (`redisDataVersion`): the version is a Redis key, raised by every `process` replica
 *   after its write; every `serve` replica polls it, so a commit invalidates every replica's memo within one
 *   poll interval. A version must never come back: Redis runs without persistence (a cache), and a counter
 *   restarting from 0 after a Redis restart would make a memo or snapshot taken at that old value look
 *   current again. So a raise sets max(old + 1, now in ms), and a missing key (no commit since Redis
 *   started) counts as unknown. While the version is unknown or Redis cannot be read, `current()` returns
 *   a value never returned before on every call: nothing is memoized, every request goes to the store, as
 *   it would without a memo.
 */
import type { Redis } from "ioredis";

export type DataVersion = {
  current(): number;
  bump(): Promise<void>;
  close(): void;
};

export const DATA_VERSION_KEY = "tondex:data_version";

/** Atomically: version := max(version + 1, ARGV[1]) (ARGV[1]: the writer's clock in ms); returns it. */
const RAISE = `local v = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.max(v + 1, tonumber(ARGV[1]))
redis.call('SET', KEYS[1], string.format('%d', n))
return n`;

export function localDataVersion(): DataVersion {
  let version = 0;
  return {
    current: () => version,
    bump: async () => {
      version++;
    },
    close() {},
  };
}

export function redisDataVersion(
  client: Redis,
  options: { pollMs: number; onError?: (error: unknown) => void },
): DataVersion {
  /** The last value read; null while Redis cannot be read. */
  let known: number | null = null;
  /** Distinct negative values handed out while unknown (the stored version is never negative). */
  let unknown = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    // Not connected (a new process before its first connection, or Redis down): unknown, and no command
    // to fail — the client reports its own connection errors.
    if (client.status !== "ready") known = null;
    else {
      try {
        const text = await client.get(DATA_VERSION_KEY);
        known = text === null ? null : Number(text);
      } catch (error) {
        known = null;
        options.onError?.(error);
      }
    }
    if (!closed) timer = setTimeout(poll, options.pollMs);
  };
  void poll();
  return {
    current: () => known ?? --unknown,
    async bump() {
      try {
        known = Number(await client.eval(RAISE, 1, DATA_VERSION_KEY, String(Date.now())));
      } catch (error) {
        known = null;
        options.onError?.(error);
      }
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
