/** The cache-aside read model answers exactly what the wrapped model answers, refreshes after its TTL, never caches errors. */
import test from "ava";
import type { DexReadModel } from "../../../api/read-model.ts";
import { cachedReadModel } from "../../../api/read-model-cached.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { ASSETS, NOT, POOLS, ROUTERS, STON, TON, USDT } from "./fixtures.ts";

function model() {
  return new MemoryReadModel({ routers: ROUTERS, assets: ASSETS, pools: POOLS });
}

test("same answers as the wrapped model for every cached method", async (t) => {
  const inner = model();
  const cached = cachedReadModel(inner, { ttlMs: 60_000 });
  t.deepEqual(await cached.listRouters(), await inner.listRouters());
  t.deepEqual(await cached.listAssets(), await inner.listAssets());
  t.deepEqual(await cached.listPools(), await inner.listPools());
  for (const r of ROUTERS)
    t.deepEqual(await cached.getRouter(r.address.toLowerCase()), await inner.getRouter(r.address));
  for (const p of POOLS) t.deepEqual(await cached.getPool(p.address), await inner.getPool(p.address));
  t.deepEqual(await cached.getAssets([TON, USDT, NOT]), await inner.getAssets([TON, USDT, NOT]));
  for (const [a, b] of [
    [TON, USDT],
    [USDT, TON],
    [STON, TON],
    [TON, TON],
  ] as const) {
    t.deepEqual(await cached.getPoolsByAssets(a, b), await inner.getPoolsByAssets(a, b));
  }
  t.is(await cached.getPool(`0:${"0".repeat(64)}`), null);
});

test("lists are read once per TTL; other methods pass through", async (t) => {
  const inner = model();
  let reads = 0;
  const counting: DexReadModel = new Proxy(inner, {
    get(target, key) {
      if (key === "listPools") reads++;
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  let clock = 0;
  const cached = cachedReadModel(counting, { ttlMs: 1000, now: () => clock });
  await cached.listPools();
  await cached.getPool(POOLS[0]!.address);
  await cached.getPoolsByAssets(TON, USDT);
  t.is(reads, 1);
  clock = 1000;
  await cached.getPool(POOLS[0]!.address);
  t.is(reads, 2);
  t.deepEqual(await cached.findSwap({ router: ROUTERS[0]!.address, owner: TON, queryId: 1n }), null);
});

test("a failed refresh is not cached: the error reaches the caller, the next call retries", async (t) => {
  let fail = true;
  const inner = model();
  const flaky: DexReadModel = new Proxy(inner, {
    get(target, key) {
      const v = Reflect.get(target, key);
      if (key === "listAssets")
        return async () => {
          if (fail) throw Object.assign(new Error("store down"), { retryable: true });
          return inner.listAssets();
        };
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const cached = cachedReadModel(flaky, { ttlMs: 60_000 });
  await t.throwsAsync(() => cached.listRouters(), { message: "store down" });
  fail = false;
  t.deepEqual(await cached.listAssets(), ASSETS);
});
