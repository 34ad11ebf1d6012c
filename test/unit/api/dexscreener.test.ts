/**
 * The DexScreener adapter feed over the memory read model: the pure mapping (decimalisation, priceNative,
 * indexes) with values computed by hand, and the routes checked by the rule validator
 * (test/helpers/dexscreener-validator.ts) and the response schemas.
 */
import test from "ava";
import { decimalise, feedEvents, priceNative } from "../../../api/mappers/dexscreener.ts";
import type { FeedEventRecord } from "../../../api/read-model.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import {
  assetResponse,
  eventsResponse,
  latestBlockResponse,
  pairResponse,
} from "../../../schemas/api/dexscreener.ts";
import { validateFeed } from "../../helpers/dexscreener-validator.ts";
import { ASSETS, P_CPI, P_V1, R_CPI, raw, TON, USDT, WALLET } from "./fixtures.ts";
import { f, memoryData, request, startApi, testDeps } from "./harness.ts";

const hash = (n: number) => n.toString(16).padStart(64, "0");

test("decimalise: exact, no exponent, trailing zeros dropped, round-trips", (t) => {
  t.is(decimalise(1_500_000_000n, 9), "1.5");
  t.is(decimalise(1n, 9), "0.000000001");
  t.is(decimalise(0n, 6), "0");
  t.is(decimalise(123n, 0), "123");
  t.is(decimalise(10n ** 40n + 1n, 18), "10000000000000000000000.000000000000000001");
  for (const rawAmount of [1n, 999n, 10n ** 30n, 123_456_789_012_345_678_901n]) {
    const [i, frac = ""] = decimalise(rawAmount, 9).split(".");
    t.is(BigInt(i + frac.padEnd(9, "0")), rawAmount);
  }
});

test("priceNative: asset0 in asset1 from the decimalised amounts, never 0", (t) => {
  // 2 TON (9 decimals) for 6.1 USDT (6 decimals): 3.05 USDT per TON.
  t.is(priceNative(2_000_000_000n, 9, 6_100_000n, 6), "3.05");
  // 1/3: 50 digits, rounded half-up.
  t.is(priceNative(3n, 0, 1n, 0), `0.${"3".repeat(50)}`);
  t.is(priceNative(3n, 0, 2n, 0), `0.${"6".repeat(49)}7`);
  // Below 10^-50: the smallest positive step, not 0.
  t.is(priceNative(10n ** 60n, 0, 1n, 0), `0.${"0".repeat(49)}1`);
});

const ev = (over: Partial<FeedEventRecord>): FeedEventRecord => ({
  block: { mcSeqno: 10, utime: 1_726_000_000 },
  txHash: hash(1),
  lt: 100n,
  id: `${hash(1)}:0`,
  pool: P_CPI.address,
  asset0: USDT,
  asset1: TON,
  kind: "swap",
  swapIn: 1,
  amount0: 3_000_000n,
  amount1: 1_000_000_000n,
  reserve0: 6_097_000_000_000n,
  reserve1: 2_000_001_000_000_000n,
  maker: WALLET,
  decimals0: 6,
  decimals1: 9,
  ...over,
});

test("feedEvents: txnIndex per transaction in a block, eventIndex per event in it; withheld events keep the indexes of the rest", (t) => {
  const records = [
    ev({}),
    ev({ id: `${hash(1)}:1`, kind: "join", swapIn: null, reserve0: null, reserve1: null }),
    ev({ txHash: hash(2), lt: 101n, id: `${hash(2)}:0`, asset0: raw("unknown"), decimals0: null }),
    ev({ txHash: hash(3), lt: 102n, id: `${hash(3)}:0`, swapIn: 0 }),
    ev({ block: { mcSeqno: 11, utime: 1_726_000_005 }, txHash: hash(4), lt: 200n, id: `${hash(4)}:0` }),
  ];
  const out = feedEvents(records);
  t.deepEqual(
    out.map((e) => [e.block.blockNumber, e.txnIndex, e.eventIndex, e.eventType]),
    [
      [10, 0, 0, "swap"],
      [10, 0, 1, "join"],
      [10, 2, 0, "swap"],
      [11, 0, 0, "swap"],
    ],
  );
  t.deepEqual(out[0], {
    block: { blockNumber: 10, blockTimestamp: 1_726_000_000 },
    eventType: "swap",
    txnId: hash(1),
    txnIndex: 0,
    eventIndex: 0,
    maker: f(WALLET),
    pairId: f(P_CPI.address),
    amount1In: "1",
    amount0Out: "3",
    priceNative: "0.33333333333333333333333333333333333333333333333333",
    reserves: { asset0: "6097000", asset1: "2000001" },
  });
  // Unknown reserves are absent, never 0.
  t.false("reserves" in (out[1] as object));
  t.like(out[2], { amount0In: "3", amount1Out: "1" });
});

function feedData() {
  const data = memoryData();
  data.feedHead = { mcSeqno: 12, utime: 1_726_000_010 };
  data.feedEvents = [
    ev({}),
    ev({
      txHash: hash(5),
      lt: 50n,
      id: `${hash(5)}:0`,
      block: { mcSeqno: 12, utime: 1_726_000_010 },
      kind: "exit",
      swapIn: null,
      amount0: 97_000_000n,
      amount1: 1_000_000_000n,
      reserve0: 6_096_903_000_000n,
      reserve1: 2_000_000_000_000_000n,
    }),
    ev({
      txHash: hash(6),
      lt: 51n,
      id: `${hash(6)}:0`,
      block: { mcSeqno: 12, utime: 1_726_000_010 },
      pool: P_V1.address,
      asset0: TON,
      asset1: USDT,
      decimals0: 9,
      decimals1: 6,
      swapIn: 0,
      amount0: 1_000_000_000n,
      amount1: 2_990_000n,
      reserve0: null,
      reserve1: null,
    }),
  ];
  return data;
}

test("the feed over the memory model keeps every rule the validator checks", async (t) => {
  const api = await startApi(testDeps({ data: new MemoryReadModel(feedData()) }));
  t.teardown(() => api.close());
  const decimals = new Map(ASSETS.map((a) => [f(a.address), a.decimals as number]));
  for (const base of ["/export/dexscreener/v1", "/export/aggregator_b/v1"]) {
    const report = await validateFeed(
      async (path) => {
        const r = await request(api, "GET", path);
        return { status: r.status, text: r.text };
      },
      base,
      { decimals: (id) => decimals.get(id), notMakers: new Set([f(R_CPI.address), f(P_CPI.address)]) },
    );
    t.deepEqual(report.violations, [], base);
    t.is(report.events.length, 3);
    t.is(report.latest, 12);
  }
});

test("response shapes and errors", async (t) => {
  const api = await startApi(testDeps({ data: new MemoryReadModel(feedData()) }));
  t.teardown(() => api.close());
  const base = "/export/dexscreener/v1";
  const lb = await request(api, "GET", `${base}/latest-block`);
  t.deepEqual(latestBlockResponse.parse(lb.json), {
    block: { blockNumber: 12, blockTimestamp: 1_726_000_010 },
  });
  const pair = await request(api, "GET", `${base}/pair/${P_CPI.address}`);
  const p = pairResponse.parse(pair.json);
  t.deepEqual(p.pair, { id: f(P_CPI.address), dexKey: "stonfi", asset0Id: f(USDT), asset1Id: f(TON) });
  t.deepEqual(p.pool, p.pair);
  const asset = await request(api, "GET", `${base}/asset/${f(USDT)}`);
  t.deepEqual(assetResponse.parse(asset.json).asset, {
    id: f(USDT),
    name: "USDT token",
    symbol: "USDT",
    totalSupply: null,
  });
  eventsResponse.parse((await request(api, "GET", `${base}/events?fromBlock=0&toBlock=12`)).json);
  t.deepEqual((await request(api, "GET", `${base}/events?fromBlock=11&toBlock=11`)).json, { events: [] });
  const cases: [string, number, string][] = [
    ["fromBlock=5&toBlock=4", 400, "fromBlock"],
    ["fromBlock=0&toBlock=13", 400, "toBlock"],
    ["fromBlock=0", 400, "toBlock"],
    ["fromBlock=1.5&toBlock=4", 400, "fromBlock"],
    ["fromBlock=0&toBlock=99999999999", 400, "toBlock"],
  ];
  for (const [q, status, field] of cases) {
    const r = await request(api, "GET", `${base}/events?${q}`);
    t.is(r.status, status, q);
    t.regex(r.text, new RegExp(field), q);
  }
  const wide = new MemoryReadModel({ ...feedData(), feedHead: { mcSeqno: 20_000, utime: 1_726_100_000 } });
  const api2 = await startApi(testDeps({ data: wide }));
  t.teardown(() => api2.close());
  t.is((await request(api2, "GET", `${base}/events?fromBlock=1&toBlock=10000`)).status, 200);
  const tooWide = await request(api2, "GET", `${base}/events?fromBlock=0&toBlock=10000`);
  t.is(tooWide.status, 400);
  t.regex(tooWide.text, /at most 10000 blocks/);
  t.is((await request(api, "GET", `${base}/pair/${f(raw("no such pool"))}`)).status, 404);
  t.is((await request(api, "GET", `${base}/asset/${f(raw("no such asset"))}`)).status, 404);
  const empty = await startApi(testDeps({ data: new MemoryReadModel({}) }));
  t.teardown(() => empty.close());
  t.is((await request(empty, "GET", `${base}/latest-block`)).status, 404);
});

test("decimalise by digit shift: 0 and 18 decimals, UInt256 amounts, exactly raw / 10^decimals", (t) => {
  t.is(decimalise(5n, 0), "5");
  t.is(decimalise(10n ** 30n + 1n, 18), "1000000000000.000000000000000001");
  t.is(
    decimalise(2n ** 256n - 1n, 77),
    "1.15792089237316195423570985008687907853269984665640564039457584007913129639935",
  );
  t.is(decimalise(1_000_000n, 6), "1");
  t.is(decimalise(120n, 3), "0.12");
  t.throws(() => decimalise(-1n, 9), { instanceOf: RangeError });
});
