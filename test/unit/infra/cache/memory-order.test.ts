/**
 * The memory cache against a model of its contract: an LRU whose recency is a Map's insertion order (a
 * read re-inserts its entry), expired entries dropped when touched and first when room is needed, bounded
 * by entries and characters. Seeded random operations on few keys with short TTLs, so reads, overwrites,
 * expiries and evictions all interleave; every answer and the stats are compared after each step.
 */
import test from "ava";
import { createMemoryCache } from "../../../../infra/cache/memory.ts";
import { int, prng } from "../../../helpers/prng.ts";

type ModelEntry = { value: string; expiresAt: number; chars: number };

function model(maxEntries: number, maxChars: number, now: () => number) {
  const entries = new Map<string, ModelEntry>();
  const counts = { hits: 0, misses: 0, evictions: 0 };
  let chars = 0;
  const remove = (key: string, e: ModelEntry) => {
    entries.delete(key);
    chars -= e.chars;
  };
  return {
    get(key: string): string | undefined {
      const e = entries.get(key);
      if (e === undefined || e.expiresAt <= now()) {
        if (e !== undefined) remove(key, e);
        counts.misses++;
        return undefined;
      }
      entries.delete(key);
      entries.set(key, e);
      counts.hits++;
      return e.value;
    },
    set(key: string, value: string, ttlMs: number) {
      const old = entries.get(key);
      if (old !== undefined) remove(key, old);
      if (!(ttlMs > 0)) return;
      const e = { value, expiresAt: now() + ttlMs, chars: key.length + value.length };
      entries.set(key, e);
      chars += e.chars;
      if (entries.size <= maxEntries && chars <= maxChars) return;
      for (const [k, x] of entries) if (x.expiresAt <= now()) remove(k, x);
      for (const [k, x] of entries) {
        if (entries.size <= maxEntries && chars <= maxChars) break;
        remove(k, x);
        counts.evictions++;
      }
    },
    delete(key: string): boolean {
      const e = entries.get(key);
      if (e === undefined) return false;
      remove(key, e);
      return e.expiresAt > now();
    },
    stats: () => ({ ...counts, entries: entries.size, chars }),
  };
}

for (const [maxEntries, maxChars] of [
  [4, Number.POSITIVE_INFINITY],
  [8, 40],
  [3, 12],
] as const) {
  test(`maxEntries ${maxEntries}, maxChars ${maxChars}: the same answers and stats as the model`, async (t) => {
    const r = prng(maxEntries * 100 + (Number.isFinite(maxChars) ? maxChars : 0));
    let time = 0;
    const now = () => time;
    const cache = createMemoryCache({ maxEntries, maxChars, now });
    const ref = model(maxEntries, maxChars, now);
    for (let i = 0; i < 5_000; i++) {
      const key = `k${int(r, 10)}`;
      const op = int(r, 10);
      if (op < 5) {
        t.is(cache.getNow?.(key), ref.get(key), `step ${i}: get ${key}`);
      } else if (op < 8) {
        const value = "v".repeat(int(r, 6));
        const ttl = int(r, 40) - 5;
        await cache.set(key, value, ttl);
        ref.set(key, value, ttl);
      } else if (op < 9) {
        t.is(await cache.delete(key), ref.delete(key), `step ${i}: delete ${key}`);
      } else time += int(r, 10);
      t.deepEqual(cache.stats(), ref.stats(), `step ${i}`);
    }
  });
}
