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

type Entry = { value: string; expiresAt: number; chars: number };

export type MemoryCache = HotCache & { stats(): MemoryCacheStats };

export function createMemoryCache(options: MemoryCacheOptions): MemoryCache {
  const now = options.now ?? Date.now;
  const maxChars = options.maxChars ?? Number.POSITIVE_INFINITY;
  // A Map iterates in insertion order: re-inserting on access keeps the least recently used first.
  const entries = new Map<string, Entry>();
  const counts = { hits: 0, misses: 0, evictions: 0 };
  let chars = 0;

  const remove = (key: string, entry: Entry) => {
    entries.delete(key);
    chars -= entry.chars;
  };

  const evict = () => {
    const t = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt <= t) remove(key, entry);
    }
    for (const [key, entry] of entries) {
      if (entries.size <= options.maxEntries && chars <= maxChars) break;
      remove(key, entry);
      counts.evictions++;
    }
  };

  const getNow = (key: string): string | undefined => {
    const entry = entries.get(key);
    if (entry === undefined || entry.expiresAt <= now()) {
      if (entry !== undefined) remove(key, entry);
      counts.misses++;
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    counts.hits++;
    return entry.value;
  };

  return {
    get: async (key) => getNow(key),
    getNow,
    async set(key, value, ttlMs) {
      const old = entries.get(key);
      if (old !== undefined) remove(key, old);
      if (!(ttlMs > 0)) return;
      const entry = { value, expiresAt: now() + ttlMs, chars: key.length + value.length };
      entries.set(key, entry);
      chars += entry.chars;
      if (entries.size > options.maxEntries || chars > maxChars) evict();
    },
    async delete(key) {
      const entry = entries.get(key);
      if (entry === undefined) return false;
      remove(key, entry);
      return entry.expiresAt > now();
    },
    stats: () => ({ ...counts, entries: entries.size, chars }),
  };
}
