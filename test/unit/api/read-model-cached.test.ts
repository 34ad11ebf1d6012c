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

/** An inner model whose list reads wait for `release()`, counting them. */
function gated() {
  const inner = model();
  let gate: (() => void) | null = null;
  let reads = 0;
  let fail = false;
  const wrapped: DexReadModel = new Proxy(inner, {
    get(target, key) {
      const v = Reflect.get(target, key);
      if (key === "listPools")
        return async () => {
          reads++;
          await new Promise<void>((resolve) => {
            gate = resolve;
          });
          if (fail) throw new Error("store down");
          return inner.listPools();
        };
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return {
    wrapped,
    reads: () => reads,
    release: () => gate?.(),
    failNext: () => {
      fail = true;
    },
  };
}

test("past its TTL a snapshot keeps answering while one background refresh runs; past 2·TTL callers wait", async (t) => {
  const g = gated();
  let clock = 0;
  const cached = cachedReadModel(g.wrapped, { ttlMs: 1000, now: () => clock });
  const first = cached.getPool(POOLS[0]!.address);
  await new Promise((r) => setImmediate(r));
  g.release();
  t.deepEqual(await first, POOLS[0]);
  t.is(g.reads(), 1);

  clock = 1500; // stale: answered at once from the old snapshot, one refresh started
  t.deepEqual(await cached.getPool(POOLS[1]!.address), POOLS[1]);
  t.deepEqual(await cached.getPoolsByAssets(TON, USDT), await model().getPoolsByAssets(TON, USDT));
  t.is(g.reads(), 2);
  g.release();
  await new Promise((r) => setImmediate(r));

  clock = 2400; // the refresh finished at 1500, so this is fresh: no read
  await cached.getPool(POOLS[0]!.address);
  t.is(g.reads(), 2);

  clock = 4000; // 2500 old: too old to answer, the caller waits for the refresh and sees its error
  g.failNext();
  let settled = false;
  const waiting = cached.getPool(POOLS[0]!.address).finally(() => {
    settled = true;
  });
  await new Promise((r) => setImmediate(r));
  t.false(settled);
  g.release();
  await t.throwsAsync(() => waiting, { message: "store down" });
});

test("with a data version, an old snapshot is kept while nothing was written since its read began", async (t) => {
  const g = gated();
  let clock = 0;
  let version = 7;
  const cached = cachedReadModel(g.wrapped, { ttlMs: 1000, now: () => clock, version: () => version });
  const first = cached.listPools();
  await new Promise((r) => setImmediate(r));
  g.release();
  await first;
  clock = 10_000; // far past 2·TTL, but the version has not moved: no read
  t.deepEqual(await cached.getPool(POOLS[0]!.address), POOLS[0]);
  t.is(g.reads(), 1);
  version = 8; // a write: the old snapshot is too old now, the caller waits for the refresh
  const waiting = cached.getPool(POOLS[0]!.address);
  await new Promise((r) => setImmediate(r));
  t.is(g.reads(), 2);
  g.release();
  t.deepEqual(await waiting, POOLS[0]);
  clock = 30_000;
  await cached.listPools();
  t.is(g.reads(), 2);
});
