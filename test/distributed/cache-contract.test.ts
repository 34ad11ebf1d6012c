/**
 * One contract, two hot caches: the in-process LRU and Redis (infra/cache/redis.ts against Debian's
 * redis-server, which this file starts through infra/servers/infra.sh): values by key until their TTL
 * passes, a non-positive TTL stores nothing, delete reports a live key, namespaces version their keys.
 * Redis alone: while Redis is down every call fails fast with a RetryableError (callers fall back), and
 * the cache works again once Redis is back; a key prefix (REDIS_KEY_PREFIX) applies to every key.
 */
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { DATA_VERSION_KEY, redisDataVersion } from "../../infra/cache/data-version.ts";
import { createMemoryCache } from "../../infra/cache/memory.ts";
import { createRedisCache } from "../../infra/cache/redis.ts";
import { cacheNamespace, type HotCache } from "../../infra/cache/types.ts";
import { isRetryable } from "../../infra/errors.ts";
import { guid, infra, startServers, until } from "./servers.ts";

type Ctx = { redisUrl: string };
const test = anyTest as TestFn<Ctx>;

test.before(async (t) => {
  t.context.redisUrl = (await startServers(["redis"])).redisUrl;
});

type Impl = { name: string; make(t: ExecutionContext<Ctx>): HotCache };
const impls: Impl[] = [
  { name: "memory", make: () => createMemoryCache({ maxEntries: 1000 }) },
  {
    name: "redis",
    make(t) {
      const cache = createRedisCache({ url: t.context.redisUrl });
      t.teardown(() => cache.close());
      return cache;
    },
  },
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const impl of impls) {
  test(`get returns what set stored until its TTL passes [${impl.name}]`, async (t) => {
    const cache = impl.make(t);
    const key = guid();
    t.is(await cache.get(key), undefined);
    await cache.set(key, "v1 ünïcode", 150);
    t.is(await cache.get(key), "v1 ünïcode");
    await cache.set(key, "v2", 150);
    t.is(await cache.get(key), "v2");
    await sleep(250);
    t.is(await cache.get(key), undefined);
  });

  test(`delete reports whether a live key existed; a non-positive TTL stores nothing [${impl.name}]`, async (t) => {
    const cache = impl.make(t);
    const key = guid();
    await cache.set(key, "x", 10_000);
    t.true(await cache.delete(key));
    t.false(await cache.delete(key));
    await cache.set(key, "y", 10_000);
    await cache.set(key, "z", 0);
    t.is(await cache.get(key), undefined);
  });

  test(`namespaces version their keys and round-trip values through their codec [${impl.name}]`, async (t) => {
    const cache = impl.make(t);
    const name = guid();
    const codec = { encode: (v: bigint) => v.toString(), decode: (s: string) => BigInt(s) };
    const v1 = cacheNamespace(cache, { name, version: 1, ttlMs: 10_000, codec });
    const v2 = cacheNamespace(cache, { name, version: 2, ttlMs: 10_000, codec });
    await v1.set("0:AB", 2n ** 200n);
    t.is(await v1.get("0:AB"), 2n ** 200n);
    t.is(await v2.get("0:AB"), undefined);
    t.is(v1.key("0:AB"), `tondex:${name}:v1:0:AB`);
    t.is(await cache.get(`tondex:${name}:v1:0:AB`), (2n ** 200n).toString());
  });
}

test.serial("redis down: calls fail fast and retryable; back up: the cache works again", async (t) => {
  const errors: unknown[] = [];
  const cache = createRedisCache({ url: t.context.redisUrl, onError: (e) => errors.push(e) });
  t.teardown(() => cache.close());
  const key = guid();
  await until(() => cache.ready());
  await cache.set(key, "before", 60_000);
  await infra("stop", "redis");
  try {
    await until(() => !cache.ready(), 5_000);
    const started = Date.now();
    const failure = await t.throwsAsync(cache.get(key));
    t.true(isRetryable(failure));
    t.true(Date.now() - started < 500, "no waiting for a server that is not there");
    await t.throwsAsync(cache.set(key, "during", 60_000));
  } finally {
    await infra("start", "redis");
  }
  await until(() => cache.ready(), 10_000);
  // Redis runs without persistence (a cache): what was stored before the restart is gone.
  t.is(await cache.get(key), undefined);
  await cache.set(key, "after", 60_000);
  t.is(await cache.get(key), "after");
  t.true(errors.length > 0, "connection errors were reported, not thrown at random");
});

test("REDIS_KEY_PREFIX: every key, the data version's included, is stored under the deployment's prefix", async (t) => {
  const prefix = `${guid()}.`;
  const cache = createRedisCache({ url: t.context.redisUrl, keyPrefix: prefix });
  const plain = createRedisCache({ url: t.context.redisUrl });
  t.teardown(async () => {
    await cache.close();
    await plain.close();
  });
  const key = guid();
  await cache.set(key, "prefixed", 60_000);
  t.is(await cache.get(key), "prefixed");
  t.is(await plain.get(`${prefix}${key}`), "prefixed", "stored under the prefix");
  t.is(await plain.get(key), undefined, "not under the bare key");
  const version = redisDataVersion(cache.client, { pollMs: 10_000 });
  t.teardown(() => version.close());
  await version.bump();
  t.is(await plain.get(`${prefix}${DATA_VERSION_KEY}`), String(version.current()));
});
