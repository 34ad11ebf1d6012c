/**
 * The response memo (api/response-memo.ts) in front of the real app: a repeat gets the very bytes and
 * headers of the computed answer; a new data version or an expired entry computes afresh; errors, bodies
 * and other routes are never memoized; identical requests in flight share one computation, a flight per
 * data version.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { apiListener, createApp } from "../../../api/app.ts";
import type { ApiDeps, PoolStateCache } from "../../../api/deps.ts";
import { friendly as f } from "../../../api/mappers/common.ts";
import type { PoolState } from "../../../dex/amm/index.ts";
import { swap } from "../../../dex/amm/index.ts";
import { fakeChain } from "./fixture-chain.ts";
import { P_CPI, TON, USDT, WALLET } from "./fixtures.ts";
import { NOW_MS, testDeps } from "./harness.ts";

const PATH =
  `/v1/swap/simulate?offer_address=${f(TON)}&ask_address=${f(USDT)}` +
  `&units=10000000000&slippage_tolerance=0.01&pool_address=${f(P_CPI.address)}`;
const TTL = 1000;

type Fixture = {
  base: string;
  server: Server;
  memo: NonNullable<ReturnType<typeof apiListener>["memo"]>;
  setVersion(v: number): void;
  setClock(ms: number): void;
};

async function serve(overrides: Partial<ApiDeps> = {}): Promise<Fixture> {
  let version = 1;
  let clock = NOW_MS;
  const { listener, memo } = apiListener(
    testDeps({ clock: () => clock, responseMemo: { version: () => version, ttlMs: TTL }, ...overrides }),
  );
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    memo: memo!,
    setVersion: (v) => {
      version = v;
    },
    setClock: (ms) => {
      clock = ms;
    },
  };
}

const post = async (base: string, path = PATH, body?: string) => {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }),
  });
  return {
    status: res.status,
    text: await res.text(),
    type: res.headers.get("content-type"),
    length: res.headers.get("content-length"),
  };
};

/** Resolves once `server` has received `n` requests (they may still be waiting for an answer). */
function received(server: Server, n: number): Promise<void> {
  let count = 0;
  return new Promise((resolve) => {
    server.on("request", () => {
      if (++count === n) resolve();
    });
  });
}

const closing = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A hot cache answering `state` for P_CPI (so a test can change the pool between versions). */
function poolCache(get: () => PoolState | Promise<PoolState>): PoolStateCache {
  return { getPoolState: async (pool) => (pool === P_CPI.address ? await get() : null) };
}

test("a repeat is answered from memory with the computed answer's bytes and headers", async (t) => {
  const fx = await serve();
  const plain = createServer(createApp(testDeps()).callback());
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  try {
    const computed = await post(`http://127.0.0.1:${(plain.address() as AddressInfo).port}`);
    const first = await post(fx.base);
    const second = await post(fx.base);
    t.is(computed.status, 200);
    t.deepEqual(first, computed);
    t.deepEqual(second, computed);
    t.like(fx.memo.stats(), { hits: 1, misses: 1, stored: 1, entries: 1 });
  } finally {
    await closing(fx.server);
    await closing(plain);
  }
});

test("a new data version, or an entry older than the TTL, is computed afresh", async (t) => {
  let state: PoolState = P_CPI.state;
  const fx = await serve({ cache: poolCache(() => state) });
  try {
    const askUnits = async () => (JSON.parse((await post(fx.base)).text) as { ask_units: string }).ask_units;
    const expected = (s: PoolState) =>
      `${swap(s, { direction: P_CPI.token0 === TON ? "0to1" : "1to0", amountIn: 10_000_000_000n }).amountOut}`;
    t.is(await askUnits(), expected(state));
    // The pool moves; until the version says so, the memo keeps its answer (the version is the contract).
    state = { ...state, reserve0: state.reserve0 / 2n, reserve1: state.reserve1 / 3n };
    t.not(expected(state), expected(P_CPI.state));
    t.is(await askUnits(), expected(P_CPI.state));
    fx.setVersion(2);
    t.is(await askUnits(), expected(state));
    // Same version, but the entry outlives its TTL.
    state = { ...state, reserve0: state.reserve0 / 2n, reserve1: state.reserve1 / 3n };
    fx.setClock(NOW_MS + TTL - 1);
    t.not(await askUnits(), expected(state));
    fx.setClock(NOW_MS + TTL);
    t.is(await askUnits(), expected(state));
    t.like(fx.memo.stats(), { hits: 2, misses: 3 });
  } finally {
    await closing(fx.server);
  }
});

test("errors, requests with a body and other routes are not memoized", async (t) => {
  const fx = await serve();
  try {
    const bad = PATH.replace("units=10000000000", "units=-5");
    t.is((await post(fx.base, bad)).status, 400);
    t.is((await post(fx.base, bad)).status, 400);
    t.like(fx.memo.stats(), { hits: 0, misses: 2, stored: 0, entries: 0 });
    t.is((await post(fx.base, PATH, "{}")).status, 200);
    t.is((await post(fx.base, PATH, "{}")).status, 200);
    const assets = await fetch(`${fx.base}/v1/assets`);
    t.is(assets.status, 200);
    t.like(fx.memo.stats(), { hits: 0, misses: 2, stored: 0 });
  } finally {
    await closing(fx.server);
  }
});

/** A pause the test opens. */
function gate() {
  let open: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { closed, open };
}

test("identical requests in flight share one computation", async (t) => {
  const g = gate();
  let calls = 0;
  const fx = await serve({
    cache: poolCache(async () => {
      calls++;
      await g.closed;
      return P_CPI.state;
    }),
  });
  try {
    const arrived = received(fx.server, 5);
    const answers = Array.from({ length: 5 }, () => post(fx.base));
    await arrived;
    t.is(calls, 1);
    g.open();
    const all = await Promise.all(answers);
    t.is(all[0]!.status, 200);
    for (const a of all) t.deepEqual(a, all[0]!);
    t.like(fx.memo.stats(), { misses: 1, shared: 4, stored: 1 });
  } finally {
    await closing(fx.server);
  }
});

test("a request of a newer version does not join a flight of the older one; both flights land", async (t) => {
  const gates = [gate(), gate()];
  let calls = 0;
  const fx = await serve({
    cache: poolCache(async () => {
      const g = gates[calls++];
      await g?.closed;
      return P_CPI.state;
    }),
  });
  try {
    const first = received(fx.server, 2);
    const older = [post(fx.base), post(fx.base)];
    await first;
    t.is(calls, 1, "the older version's identical requests share one computation");
    fx.setVersion(2);
    const second = received(fx.server, 2);
    const newer = [post(fx.base), post(fx.base)];
    await second;
    t.is(calls, 2, "the newer version computes on its own, once");
    gates[0]!.open();
    const olderAnswers = await Promise.all(older);
    gates[1]!.open();
    const newerAnswers = await Promise.all(newer);
    for (const a of [...olderAnswers, ...newerAnswers]) t.deepEqual(a, olderAnswers[0]!);
    t.like(fx.memo.stats(), { misses: 2, shared: 2, stored: 2 });
    t.is(calls, 2);
  } finally {
    await closing(fx.server);
  }
});

test("when the shared computation fails, each waiter is answered on its own", async (t) => {
  const g = gate();
  const inner = testDeps().data;
  let calls = 0;
  const data = new Proxy(inner, {
    get(target, key) {
      const v = Reflect.get(target, key);
      if (key !== "getPool") return typeof v === "function" ? v.bind(target) : v;
      return async (address: string) => {
        calls++;
        if (calls === 1) {
          await g.closed;
          throw Object.assign(new Error("store down"), { retryable: true });
        }
        return inner.getPool(address);
      };
    },
  });
  const fx = await serve({ data });
  try {
    const arrived = received(fx.server, 3);
    const answers = Array.from({ length: 3 }, () => post(fx.base));
    await arrived;
    t.is(calls, 1);
    g.open();
    const results = await Promise.all(answers);
    t.deepEqual(
      results.map((r) => r.status),
      [503, 200, 200],
    );
    t.is(calls, 3);
    t.like(fx.memo.stats(), { misses: 1, shared: 0 });
  } finally {
    await closing(fx.server);
  }
});

test("a liquidity simulation is repeated from memory, except one that reads a wallet's LpAccount", async (t) => {
  const chain = fakeChain();
  let lpReads = 0;
  const counting = {
    ...chain,
    getLpAccountData: (address: Parameters<typeof chain.getLpAccountData>[0]) => {
      lpReads++;
      return chain.getLpAccountData(address);
    },
  };
  const s = await serve({ chain: counting });
  const LIQUIDITY =
    `/v1/liquidity_provision/simulate?provision_type=Balanced&token_a=${f(TON)}&token_b=${f(USDT)}` +
    `&token_a_units=1000000000&pool_address=${f(P_CPI.address)}&slippage_tolerance=0.01`;
  try {
    const first = await post(s.base, LIQUIDITY);
    t.is(first.status, 200, first.text);
    t.deepEqual(await post(s.base, LIQUIDITY), first);
    t.like(s.memo.stats(), { hits: 1, misses: 1 });
    t.is(lpReads, 0);
    // The wallet's LpAccount is read live for every request, even the same one, and named in any encoding.
    for (const path of [
      `${LIQUIDITY}&wallet_address=${f(WALLET)}`,
      `${LIQUIDITY}&wallet%5Faddress=${f(WALLET)}`,
    ]) {
      const a = await post(s.base, path);
      t.is(a.status, 200, a.text);
      t.deepEqual(await post(s.base, path), a);
    }
    t.is(lpReads, 4);
    t.like(s.memo.stats(), { hits: 1, misses: 1 });
  } finally {
    await closing(s.server);
  }
});
