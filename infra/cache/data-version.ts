/**
 * The indexed data's version: bumped after every committed write and pool-state update, read (cheaply,
 * synchronously) by the API, whose response memo keys on it (api/response-memo.ts): an unchanged version
 * means nothing a reader sees has changed.
 *
 * - In one process: a counter (`localDataVersion`).
 * - Across processes (`redisDataVersion`): the counter is a Redis key, INCR'd by every `process` replica
 *   after its write; every `serve` replica polls it, so a commit invalidates every replica's memo within one
 *   poll interval. While Redis cannot be read, `current()` returns a value never returned before on every
 *   call: nothing is memoized, every request goes to the store, as it would without a memo.
 */
import type { Redis } from "ioredis";

export type DataVersion = {
  current(): number;
  bump(): Promise<void>;
  close(): void;
};

export const DATA_VERSION_KEY = "tondex:data_version";

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
    try {
      const text = await client.get(DATA_VERSION_KEY);
      known = text === null ? 0 : Number(text);
    } catch (error) {
      known = null;
      options.onError?.(error);
    }
    if (!closed) timer = setTimeout(poll, options.pollMs);
  };
  void poll();
  return {
    current: () => known ?? --unknown,
    async bump() {
      try {
        known = await client.incr(DATA_VERSION_KEY);
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
