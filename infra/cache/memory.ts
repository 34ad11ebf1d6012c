/**
 * In-process HotCache: an LRU bounded by entry count and by total characters, with per-entry TTL
 * (expired entries are dropped when touched, and first when room is needed). The clock is injected
 * so tests control time.
 */
import type { HotCache } from "./types.ts";

export type MemoryCacheOptions = {
  readonly maxEntries: number;
  /** Bound on the sum of key and value lengths (UTF-16 code units); default unbounded. */
  readonly maxChars?: number;
  readonly now?: () => number;
};

export type MemoryCacheStats = {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  chars: number;
};

/** An entry, linked in recency order (`older` toward the least recently used). */
type Entry = {
  readonly key: string;
  readonly value: string;
  readonly expiresAt: number;
  readonly chars: number;
  older: Entry | null;
  newer: Entry | null;
};

export type MemoryCache = HotCache & { stats(): MemoryCacheStats };

export function createMemoryCache(options: MemoryCacheOptions): MemoryCache {
  const now = options.now ?? Date.now;
  const maxChars = options.maxChars ?? Number.POSITIVE_INFINITY;
  // Lookup by key, recency by a list through the entries: a read moves its entry to the newest end by
  // relinking it, where re-inserting it into the Map (the Map's order as the recency) left a hole per
  // read, rebuilt the Map's table every few reads and kept the reader's freshly built key string in it:
  // memory the collector promoted on every hot read (the API reads pool states once per quote).
  const entries = new Map<string, Entry>();
  let oldest: Entry | null = null;
  let newest: Entry | null = null;
  const counts = { hits: 0, misses: 0, evictions: 0 };
  let chars = 0;

  const unlink = (entry: Entry) => {
    if (entry.older === null) oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === null) newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = null;
    entry.newer = null;
  };

  const linkNewest = (entry: Entry) => {
    entry.older = newest;
    entry.newer = null;
    if (newest === null) oldest = entry;
    else newest.newer = entry;
    newest = entry;
  };

  const remove = (entry: Entry) => {
    entries.delete(entry.key);
    unlink(entry);
    chars -= entry.chars;
  };

  const evict = () => {
    const t = now();
    for (let e = oldest; e !== null; ) {
      const newer: Entry | null = e.newer;
      if (e.expiresAt <= t) remove(e);
      e = newer;
    }
    while (oldest !== null && (entries.size > options.maxEntries || chars > maxChars)) {
      remove(oldest);
      counts.evictions++;
    }
  };

  const getNow = (key: string): string | undefined => {
    const entry = entries.get(key);
    if (entry === undefined || entry.expiresAt <= now()) {
      if (entry !== undefined) remove(entry);
      counts.misses++;
      return undefined;
    }
    if (entry !== newest) {
      unlink(entry);
      linkNewest(entry);
    }
    counts.hits++;
    return entry.value;
  };

  return {
    get: async (key) => getNow(key),
    getNow,
    async set(key, value, ttlMs) {
      const old = entries.get(key);
      if (old !== undefined) remove(old);
      if (!(ttlMs > 0)) return;
      const entry: Entry = {
        key,
        value,
        expiresAt: now() + ttlMs,
        chars: key.length + value.length,
        older: null,
        newer: null,
      };
      entries.set(key, entry);
      linkNewest(entry);
      chars += entry.chars;
      if (entries.size > options.maxEntries || chars > maxChars) evict();
    },
    async delete(key) {
      const entry = entries.get(key);
      if (entry === undefined) return false;
      remove(entry);
      return entry.expiresAt > now();
    },
    stats: () => ({ ...counts, entries: entries.size, chars }),
  };
}
