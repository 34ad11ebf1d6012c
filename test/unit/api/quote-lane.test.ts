/**
 * The quote lane (api/quote-lane.ts) answers exactly as the Koa route would: for every request, the lane's
 * status, headers and bytes equal those of the Koa app alone (no lane) for the same request — successful
 * quotes over every fixture pool in both directions and both modes, with and without the optional
 * parameters, liquidity simulations of every provision type over every fixture pool (and with a wallet's
 * LpAccount), and every request the lane hands on (a refused query, a quote no pool can give, a body, an
 * Origin). It answers successful quotes itself (Koa is not reached), and with the response memo in front
 * a quote it answered is kept and repeated from memory.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import test, { type ExecutionContext } from "ava";
import { createApp } from "../../../api/app.ts";
import type { PoolStateCache } from "../../../api/deps.ts";
import { quoteLane } from "../../../api/quote-lane.ts";
import { cachedReadModel } from "../../../api/read-model-cached.ts";
import { createResponseMemo } from "../../../api/response-memo.ts";
import { memoizablePaths } from "../../../api/route.ts";
import { NOT, P_CPI, P_V1, POOLS, R_CPI, STON, TON, USDT, WALLET } from "./fixtures.ts";
import { f, testDeps } from "./harness.ts";

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

async function serve(listener: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method: options.method ?? "POST", headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** What a response says, without what differs between any two responses (the clock, the connection). */
function comparable(a: Answer) {
  const { date: _date, connection: _c, "keep-alive": _k, ...headers } = a.headers;
  return { status: a.status, headers, body: a.body };
}

const deps = testDeps();
let koaCalls = 0;
const koa = createApp(deps).callback();
const countingKoa: RequestListener = (req, res) => {
  koaCalls++;
  koa(req, res);
};
const servers = Promise.all([serve(quoteLane(deps, countingKoa)), serve(koa)]);
test.after.always(async () => {
  for (const { server } of await servers) server.close();
});

function quotes(): string[] {
  const out: string[] = [];
  for (const p of POOLS) {
    for (const [offer, ask] of [
      [p.token0, p.token1],
      [p.token1, p.token0],
    ] as const) {
      const base = `offer_address=${f(offer)}&ask_address=${f(ask)}&slippage_tolerance=0.01`;
      out.push(`/v1/swap/simulate?${base}&units=1000000&pool_address=${f(p.address)}`);
      out.push(`/v1/reverse_swap/simulate?${base}&units=1000&pool_address=${f(p.address)}`);
      out.push(`/v1/swap/simulate?${base}&units=123456789`);
    }
  }
  const cpi = `offer_address=${f(P_CPI.token0)}&ask_address=${f(P_CPI.token1)}&units=5000000&slippage_tolerance=0.005`;
  out.push(`/v1/swap/simulate?${cpi}&referral_address=${f(R_CPI.address)}&referral_fee_bps=25`);
  out.push(`/v1/swap/simulate?${cpi}&dex_v2=true&dex_version=2`);
  return out;
}

/**
 * Sends each path to the lane and to Koa alone, as fetch sends it (an Accept-Encoding: no layer compresses
 * these answers) and as a bare client does; asserts equal answers and returns how many were 200.
 */
async function sameAnswers(t: ExecutionContext, paths: readonly string[]): Promise<number> {
  const [lane, plain] = await servers;
  let ok = 0;
  for (const path of paths) {
    for (const headers of [{}, { "accept-encoding": "gzip, deflate" }] as Record<string, string>[]) {
      const [a, b] = await Promise.all([
        send(lane.url, path, { headers }),
        send(plain.url, path, { headers }),
      ]);
      t.deepEqual(comparable(a), comparable(b), path);
      if (a.status === 200) ok++;
    }
  }
  return ok;
}

test.serial("a successful quote: the lane answers it, with Koa's status, headers and bytes", async (t) => {
  const paths = quotes();
  const before = koaCalls;
  const ok = await sameAnswers(t, paths);
  t.true(ok >= paths.length, `quotes answered: ${ok} of ${2 * paths.length}`);
  // Koa saw only what the lane handed on: the quotes that failed.
  t.is(koaCalls - before, 2 * paths.length - ok);
});

/** Liquidity simulations the lane answers: every provision type over every fixture pool, both sides. */
function provisions(): string[] {
  const out: string[] = [];
  const path = (p: Record<string, string>) =>
    `/v1/liquidity_provision/simulate?${new URLSearchParams({ slippage_tolerance: "0.01", ...p })}`;
  for (const p of POOLS) {
    for (const [a, b] of [
      [p.token0, p.token1],
      [p.token1, p.token0],
    ] as const) {
      const pair = { pool_address: f(p.address), token_a: f(a), token_b: f(b) };
      out.push(path({ ...pair, provision_type: "Balanced", token_a_units: "1000000000" }));
      out.push(path({ ...pair, provision_type: "Balanced", token_b_units: "7000000" }));
      out.push(path({ ...pair, provision_type: "Arbitrary", token_a_units: "5000000", token_b_units: "0" }));
      out.push(
        path({ ...pair, provision_type: "Arbitrary", token_a_units: "3000", token_b_units: "900000000" }),
      );
    }
  }
  out.push(
    path({
      provision_type: "Initial",
      token_a: f(TON),
      token_b: f(STON),
      token_a_units: "5000000000",
      token_b_units: "1000000",
    }),
  );
  return out;
}

test.serial(
  "a liquidity simulation: the lane answers it, with Koa's status, headers and bytes",
  async (t) => {
    const [lane] = await servers;
    const withWallet = `${provisions()[0]!}&wallet_address=${f(WALLET)}`;
    const paths = [...provisions(), withWallet];
    const before = koaCalls;
    const ok = await sameAnswers(t, paths);
    t.is(ok, 2 * paths.length, "every one of them is simulated");
    t.is(koaCalls - before, 0, "and answered by the lane: Koa saw none of them");
    const wallet = await send(lane.url, withWallet);
    t.is(wallet.status, 200);
    t.truthy((JSON.parse(wallet.body) as { lp_account_address?: string }).lp_account_address);
  },
);

test.serial("a liquidity simulation the lane cannot answer is Koa's answer, unchanged", async (t) => {
  const [lane, plain] = await servers;
  const base = `/v1/liquidity_provision/simulate?pool_address=${f(P_CPI.address)}&token_a=${f(P_CPI.token0)}&token_b=${f(P_CPI.token1)}&slippage_tolerance=0.01`;
  const cases = [
    `${base}&provision_type=Half&token_a_units=1`,
    `${base}&provision_type=Balanced`,
    `${base}&provision_type=Balanced&token_a_units=1&token_b_units=1`,
    `${base}&provision_type=Arbitrary&token_a_units=0&token_b_units=0`,
    `${base.replace(f(P_CPI.token1), f(NOT))}&provision_type=Arbitrary&token_a_units=1&token_b_units=1`,
    `${base}&provision_type=Initial&token_a_units=1&token_b_units=1`,
    `/v1/liquidity_provision/simulate?provision_type=Initial&token_a=${f(TON)}&token_b=${f(USDT)}&token_a_units=1&token_b_units=1&slippage_tolerance=0.01`,
    `${base}&provision_type=Balanced&token_a_units=1&wallet_address=nonsense`,
  ];
  const before = koaCalls;
  for (const path of cases) {
    const [a, b] = await Promise.all([send(lane.url, path), send(plain.url, path)]);
    t.deepEqual(comparable(a), comparable(b), path);
    t.true(a.status >= 400 && a.status < 500, `${a.status} ${path}`);
  }
  t.is(koaCalls - before, cases.length, "every one of them reached Koa");
});

test.serial("what the lane hands on is Koa's answer, unchanged", async (t) => {
  const [lane, plain] = await servers;
  const good = `/v1/swap/simulate?offer_address=${f(P_V1.token0)}&ask_address=${f(P_V1.token1)}&units=1000&slippage_tolerance=0.01`;
  const cases: [string, Parameters<typeof send>[2]][] = [
    ["/v1/swap/simulate?offer_address=nonsense&ask_address=x&units=1&slippage_tolerance=0.01", {}],
    [good.replace("units=1000", "units=0"), {}],
    [good.replace("units=1000", `units=${2n ** 120n}`), {}],
    [good.replace(f(P_V1.token1), f(P_V1.token0)), {}],
    [good, { body: '{"units":"5"}', headers: { "content-type": "application/json" } }],
    [good, { headers: { origin: "https://app.example" } }],
    [good, { method: "GET" }],
    [good.replace("/v1/swap/", "/v1/swap//"), {}],
    ["/v1/reverse_swap/simulate", {}],
  ];
  const before = koaCalls;
  for (const [path, options] of cases) {
    const [a, b] = await Promise.all([send(lane.url, path, options), send(plain.url, path, options)]);
    t.deepEqual(comparable(a), comparable(b), path);
    t.not(a.status, 500, path);
  }
  t.is(koaCalls - before, cases.length, "every one of them reached Koa");
});

test.serial(
  "with the response memo in front, a quote the lane answered is repeated from memory",
  async (t) => {
    let version = 1;
    const memo = createResponseMemo({
      paths: memoizablePaths(),
      version: () => version,
      ttlMs: 60_000,
      clock: () => 0,
    });
    const app = createApp(deps, memo).callback();
    const { url, server } = await serve(memo.listener(quoteLane(deps, app, memo.keep)));
    try {
      const path = quotes()[0]!;
      const first = await send(url, path);
      t.is(first.status, 200);
      t.like(memo.stats(), { misses: 1, stored: 1, hits: 0 });
      const again = await send(url, path);
      t.deepEqual(comparable(again), comparable(first));
      t.like(memo.stats(), { hits: 1 });
      version++;
      const after = await send(url, path);
      t.deepEqual(comparable(after), comparable(first));
      t.like(memo.stats(), { misses: 2, stored: 2, hits: 1 });
    } finally {
      server.close();
    }
  },
);

test.serial(
  "a quote that fails in the lane is not computed again: Koa renders the lane's error",
  async (t) => {
    const inner = testDeps().data;
    let lookups = 0;
    const data = new Proxy(inner, {
      get(target, key) {
        const v = Reflect.get(target, key);
        if (key === "getPoolsByAssets") lookups++;
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const counted = testDeps({ data });
    const { url, server } = await serve(quoteLane(counted, createApp(counted).callback()));
    try {
      // More than the pool's whole reserve: no pool can pay it (422 naming the refusals).
      const path = `/v1/reverse_swap/simulate?offer_address=${f(P_V1.token0)}&ask_address=${f(P_V1.token1)}&units=${2n ** 100n}&slippage_tolerance=0.01`;
      const [plain] = await servers.then(([, p]) => [p]);
      const [a, b] = await Promise.all([send(url, path), send(plain!.url, path)]);
      t.is(a.status, 422);
      t.deepEqual(comparable(a), comparable(b));
      t.is(lookups, 1, "the pools of the pair were looked up once, by the lane");
    } finally {
      server.close();
    }
  },
);

/**
 * The lane and Koa alone over deps that keep everything in memory: the read model's lookups
 * (`referenceNow`) and a hot cache whose state of P_CPI differs from the store's (its reserves doubled: an
 * answer from the store's state instead of the cache's would differ). `calls` counts the cache's reads at
 * once and awaited, and lists the awaited read-model reads of `counted`.
 */
async function inMemoryServers(counted: readonly string[]) {
  const doubled = {
    ...P_CPI.state,
    reserve0: 2n * P_CPI.state.reserve0,
    reserve1: 2n * P_CPI.state.reserve1,
  };
  const calls = { now: 0, waited: 0, awaited: [] as string[] };
  const cache: PoolStateCache = {
    getPoolState: async (pool) => {
      calls.waited++;
      return pool === P_CPI.address ? doubled : null;
    },
    getPoolStateNow: (pool) => {
      calls.now++;
      return pool === P_CPI.address ? doubled : null;
    },
  };
  const cached = cachedReadModel(testDeps().data, { ttlMs: 60_000 });
  const data = new Proxy(cached, {
    get(target, key) {
      if (typeof key === "string" && counted.includes(key)) calls.awaited.push(key);
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const inMemory = testDeps({ data, cache });
  await data.listPools(); // the lookups' first read
  const [lane, koa] = await Promise.all([
    serve(quoteLane(inMemory, createApp(inMemory).callback())),
    serve(createApp(inMemory).callback()),
  ]);
  return {
    lane,
    koa,
    calls,
    close: () => {
      lane.server.close();
      koa.server.close();
    },
  };
}

test.serial(
  "with the reference lookups and the pool states in memory, the lane answers at once, with Koa's bytes",
  async (t) => {
    const { lane, koa: plain, calls, close } = await inMemoryServers(["getPoolsByAssets", "getPool"]);
    try {
      const good = `/v1/swap/simulate?offer_address=${f(P_V1.token0)}&ask_address=${f(P_V1.token1)}&units=1000&slippage_tolerance=0.01`;
      const refused = [
        good.replace(f(P_V1.token1), f(P_V1.token0)),
        good.replace(f(P_V1.token1), f(R_CPI.address)),
        `${good}&pool_address=${f(P_CPI.address)}`,
        `/v1/reverse_swap/simulate?offer_address=${f(P_V1.token0)}&ask_address=${f(P_V1.token1)}&units=${2n ** 100n}&slippage_tolerance=0.01`,
      ];
      let ok = 0;
      for (const path of [...quotes(), ...refused]) {
        const [a, b] = await Promise.all([send(lane.url, path), send(plain.url, path)]);
        t.deepEqual(comparable(a), comparable(b), path);
        if (a.status === 200) ok++;
        // Koa alone reads with the awaited lookups; the lane only with the lookups in memory.
        const lookups = calls.awaited.length;
        await send(lane.url, path);
        if (a.status === 200) t.is(calls.awaited.length, lookups, `the lane waited for nothing: ${path}`);
      }
      t.true(ok >= quotes().length, `quotes answered: ${ok}`);
      t.true(calls.now > 0 && calls.waited > 0);
    } finally {
      close();
    }
  },
);

test.serial(
  "with the reference lookups and the pool states in memory, a liquidity simulation is answered at once, with Koa's bytes",
  async (t) => {
    const {
      lane,
      koa: koaAlone,
      calls,
      close,
    } = await inMemoryServers(["getPool", "getRouter", "getAssets"]);
    const awaited = calls.awaited;
    try {
      const [, storeStates] = await servers;
      let differs = 0;
      for (const path of provisions().filter((p) => !p.includes("Initial"))) {
        const before = awaited.length;
        const a = await send(lane.url, path);
        t.is(a.status, 200, path);
        t.is(awaited.length, before, `pool, router and decimals came from the lookups in memory: ${path}`);
        t.deepEqual(comparable(a), comparable(await send(koaAlone.url, path)), path);
        if (a.body !== (await send(storeStates.url, path)).body) differs++;
      }
      // The pool with doubled reserves: its 8 simulations, all with other figures than the store's state gives.
      t.is(differs, 8);
    } finally {
      close();
    }
  },
);
