import test from "ava";
import { createMemoryCache } from "../../../../infra/cache/memory.ts";
import { cacheNamespace } from "../../../../infra/cache/types.ts";

function clock(start = 1_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

test("get returns what set stored until its TTL passes", async (t) => {
  const c = clock();
  const cache = createMemoryCache({ maxEntries: 10, now: c.now });
  await cache.set("k", "v", 100);
  c.advance(99);
  t.is(await cache.get("k"), "v");
  c.advance(1);
  t.is(await cache.get("k"), undefined, "expired exactly at set time + ttl");
  t.deepEqual(cache.stats(), { hits: 1, misses: 1, evictions: 0, entries: 0, chars: 0 });
});

test("the least recently used entry is evicted first when maxEntries is exceeded", async (t) => {
  const cache = createMemoryCache({ maxEntries: 2, now: clock().now });
  await cache.set("a", "1", 1000);
  await cache.set("b", "2", 1000);
  t.is(await cache.get("a"), "1"); // a is now the most recent
  await cache.set("c", "3", 1000);
  t.is(await cache.get("b"), undefined);
  t.is(await cache.get("a"), "1");
  t.is(await cache.get("c"), "3");
  t.is(cache.stats().evictions, 1);
});

test("expired entries make room before live ones are evicted", async (t) => {
  const c = clock();
  const cache = createMemoryCache({ maxEntries: 2, now: c.now });
  await cache.set("short", "x", 10);
  await cache.set("long", "y", 1000);
  c.advance(10);
  await cache.set("new", "z", 1000);
  t.is(await cache.get("long"), "y");
  t.is(await cache.get("new"), "z");
  t.is(cache.stats().evictions, 0);
});

test("maxChars bounds the total size of keys and values", async (t) => {
  const cache = createMemoryCache({ maxEntries: 100, maxChars: 10, now: clock().now });
  await cache.set("a", "1234", 1000); // 5 chars
  await cache.set("b", "1234", 1000); // 10 chars
  t.is(cache.stats().chars, 10);
  await cache.set("c", "12", 1000); // 13 > 10: evict a
  t.deepEqual([await cache.get("a"), await cache.get("b"), await cache.get("c")], [undefined, "1234", "12"]);
  t.is(cache.stats().chars, 8);
  await cache.set("b", "1", 1000); // overwrite shrinks
  t.is(cache.stats().chars, 5);
});

test("delete reports whether a live key existed; a non-positive TTL stores nothing", async (t) => {
  const cache = createMemoryCache({ maxEntries: 5, now: clock().now });
  await cache.set("k", "v", 50);
  t.true(await cache.delete("k"));
  t.false(await cache.delete("k"));
  await cache.set("z", "v", 0);
  t.is(await cache.get("z"), undefined);
});

test("namespaces version their keys and round-trip values through their codec", async (t) => {
  const cache = createMemoryCache({ maxEntries: 5, now: clock().now });
  const codec = {
    encode: (v: { reserve: bigint }) => v.reserve.toString(),
    decode: (s: string) => ({ reserve: BigInt(s) }),
  };
  const v1 = cacheNamespace(cache, { name: "pool_state", version: 1, ttlMs: 1000, codec });
  const v2 = cacheNamespace(cache, { name: "pool_state", version: 2, ttlMs: 1000, codec });
  t.is(v1.key("0:AB"), "tondex:pool_state:v1:0:AB");
  await v1.set("0:AB", { reserve: 2n ** 200n + 1n });
  t.deepEqual(await v1.get("0:AB"), { reserve: 2n ** 200n + 1n });
  t.is(await cache.get("tondex:pool_state:v1:0:AB"), (2n ** 200n + 1n).toString());
  t.is(await v2.get("0:AB"), undefined, "a version bump never reads the old shape");
  t.true(await v1.delete("0:AB"));
});
