/**
 * The CMC and CoinGecko feeds over the memory read model, values worked out by hand: the window is the
 * 24 h up to the newest indexed transaction (inclusive), a trade exactly 24 h before it is out; volumes are
 * base/quote amounts moved; last/high/low are trade prices (quote per base); unknown values are null.
 */
import test from "ava";
import type { FeedEventRecord } from "../../../api/read-model.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import {
  cmcResponse,
  geckoPairsResponse,
  geckoTickersResponse,
  geckoTradesResponse,
} from "../../../schemas/api/markets.ts";
import { P_CPI, raw, TON, USDT, WALLET } from "./fixtures.ts";
import { f, memoryData, request, startApi, testDeps } from "./harness.ts";

const hash = (n: number) => n.toString(16).padStart(64, "0");

async function setup() {
  const data = memoryData();
  const head = await new MemoryReadModel(data).getIndexedHead();
  if (head === null) throw new Error("the fixture indexes transactions");
  const swap = (
    n: number,
    utime: number,
    swapIn: 0 | 1,
    amount0: bigint,
    amount1: bigint,
  ): FeedEventRecord => ({
    block: { mcSeqno: n, utime },
    txHash: hash(n),
    lt: BigInt(100 + n),
    id: `${hash(n)}:0`,
    pool: P_CPI.address,
    asset0: USDT,
    asset1: TON,
    kind: "swap",
    swapIn,
    amount0,
    amount1,
    reserve0: null,
    reserve1: null,
    maker: WALLET,
    decimals0: 6,
    decimals1: 9,
  });
  data.feedEvents = [
    swap(1, head.utime - 86_400, 0, 5_000_000n, 1_000_000_000n), // 24 h before the head: outside
    swap(2, head.utime - 86_399, 0, 2_000_000n, 600_000_000n), // 2 USDT → 0.6 TON: 0.3
    swap(3, head.utime, 1, 1_000_000n, 400_000_000n), // 0.4 TON → 1 USDT: 0.4
  ];
  const api = await startApi(testDeps({ data: new MemoryReadModel(data) }));
  return { api, head };
}

test("CMC entry of a pool: 24 h volumes, last price, liquidity from its state, keyed by pool", async (t) => {
  const { api } = await setup();
  t.teardown(() => api.close());
  const cmc = cmcResponse.parse((await request(api, "GET", "/export/cmc/v1")).json);
  t.deepEqual((await request(api, "GET", "/export/aggregator_a/v1")).json, cmc);
  const e = cmc[f(P_CPI.address)];
  if (e === undefined) return t.fail("P_CPI is listed");
  t.like(e, {
    base_id: f(USDT),
    base_symbol: "USDT",
    base_volume: "3",
    quote_id: f(TON),
    quote_symbol: "TON",
    quote_volume: "1",
    last_price: "0.4",
    url: `https://app.ston.fi/pools/${f(P_CPI.address)}`,
    pool_address: f(P_CPI.address),
  });
  t.is(e.base_liquidity, P_CPI.state === null ? null : String(Number(P_CPI.state.reserve0) / 1e6));
});

test("CoinGecko pairs, tickers (high/low of the window) and historical trades (newest first, type, bounds)", async (t) => {
  const { api, head } = await setup();
  t.teardown(() => api.close());
  const base = "/export/coingecko/v1";
  const pairs = geckoPairsResponse.parse((await request(api, "GET", `${base}/pairs`)).json);
  const id = f(P_CPI.address);
  t.deepEqual(
    pairs.find((p) => p.pool_id === id),
    { ticker_id: id, base: f(USDT), target: f(TON), pool_id: id },
  );
  const tickers = geckoTickersResponse.parse((await request(api, "GET", `${base}/tickers`)).json);
  t.like(
    tickers.find((x) => x.pool_id === id),
    { base_volume: "3", target_volume: "1", last_price: "0.4", high: "0.4", low: "0.3" },
  );
  const quiet = tickers.find((x) => x.pool_id !== id);
  if (quiet !== undefined) t.like(quiet, { base_volume: "0", last_price: null, high: null, low: null });
  const trades = async (q: string) =>
    geckoTradesResponse.parse(
      (await request(api, "GET", `${base}/historical_trades?ticker_id=${id}${q}`)).json,
    );
  const all = await trades("");
  t.deepEqual(
    all.sell.map((x) => [x.trade_id, x.price, x.base_volume, x.target_volume]),
    [
      [`${hash(2)}:0`, "0.3", "2", "0.6"],
      [`${hash(1)}:0`, "0.2", "5", "1"],
    ],
  );
  t.deepEqual(all.buy, [
    {
      trade_id: `${hash(3)}:0`,
      price: "0.4",
      base_volume: "1",
      target_volume: "0.4",
      trade_timestamp: head.utime * 1000,
      type: "buy",
    },
  ]);
  t.deepEqual((await trades("&type=buy")).sell, []);
  t.is((await trades("&type=sell&limit=1")).sell.length, 1);
  const bounded = await trades(
    `&start_time=${(head.utime - 86_399) * 1000}&end_time=${(head.utime - 1) * 1000}`,
  );
  t.deepEqual(
    [...bounded.buy, ...bounded.sell].map((x) => x.trade_id),
    [`${hash(2)}:0`],
  );
  for (const [q, status] of [
    [`?ticker_id=${f(raw("no such pool"))}`, 404],
    ["?ticker_id=x", 400],
    [`?ticker_id=${id}&type=swap`, 400],
    [`?ticker_id=${id}&limit=0`, 400],
    [`?ticker_id=${id}&start_time=10&end_time=9`, 400],
  ] as const)
    t.is((await request(api, "GET", `${base}/historical_trades${q}`)).status, status, q);
});
