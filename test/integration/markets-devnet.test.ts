/**
 * The CMC and CoinGecko feeds over a devnet run indexed by the real pipeline, 20 chain minutes per block so
 * the run spans more than the 24 h window: every field of every entry is present and fits its schema, and
 * every volume equals an independent recomputation from the stored swap rows of the same window (each
 * executed leg's offered amount on the side of the router wallet it offered, its output on the other),
 * decimalised with the devnet catalogue's decimals; last/high/low are trades of the window; the historical
 * trades of a pool are its window's swap rows, newest first.
 */
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import { timestamp } from "../../api/mappers/common.ts";
import { decimalise, priceNative } from "../../api/mappers/dexscreener.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { ratio, toDecimalString } from "../../dex/amm/index.ts";
import { ASSETS } from "../../ingest/devnet/sim/catalog.ts";
import {
  cmcPair,
  cmcResponse,
  geckoPair,
  geckoPairsResponse,
  geckoTicker,
  geckoTickersResponse,
  geckoTradesResponse,
} from "../../schemas/api/markets.ts";
import { poolStatsResponse } from "../../schemas/api/stats.ts";
import { type ApiDevnet, assetAddress, startApiDevnet } from "../helpers/api-devnet.ts";
import { f, request } from "../unit/api/harness.ts";

const test = anyTest as TestFn<{ env: ApiDevnet }>;

test.before(async (t) => {
  t.context = {
    env: await startApiDevnet({ seed: 23, marketBlocks: 110, blockSeconds: 1200, pricing: true }),
  };
});
test.after.always((t) => t.context.env?.close());

async function get<T>(t: { context: { env: ApiDevnet } }, path: string, schema: z.ZodType<T>): Promise<T> {
  const r = await request(t.context.env.api, "GET", path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return schema.parse(JSON.parse(r.text));
}

const num = z.union([z.number(), z.string()]).transform(Number);
const leg = z.object({
  id: z.string(),
  pool: z.string(),
  offer_router_wallet: z.string().nullable(),
  amount_in: z.string().transform(BigInt),
  amount_out: z.string().transform(BigInt),
  utime: num,
  mc_seqno: num,
  lt: z.string().transform(BigInt),
});

/** The window's executed legs straight from `swaps`, with token0's side from `pools`. */
async function recompute(env: ApiDevnet) {
  const head = await new ClickHouseReadModel(env.pipeline.store).getIndexedHead();
  if (head === null) throw new Error("nothing indexed");
  const until = head.utime;
  const since = until - 86_400 + 1;
  const token0 = new Map(
    (
      await env.pipeline.store.query(
        "SELECT pool, token0_wallet FROM pools FINAL",
        z.object({ pool: z.string(), token0_wallet: z.string().nullable() }),
      )
    ).map((p) => [p.pool, p.token0_wallet]),
  );
  const all = await env.pipeline.store.query(
    `SELECT id, assumeNotNull(pool) AS pool, offer_router_wallet, amount_in, assumeNotNull(amount_out) AS amount_out,
       toUInt32(utime) AS utime, mc_seqno, lt
     FROM swaps FINAL WHERE pool IS NOT NULL AND amount_out > 0 AND amount_in > 0`,
    leg,
  );
  const inWindow = all.filter((s) => s.utime >= since && s.utime <= until);
  const trades = inWindow.map((s) => {
    const a0 = s.offer_router_wallet === token0.get(s.pool);
    return { ...s, a0, amount0: a0 ? s.amount_in : s.amount_out, amount1: a0 ? s.amount_out : s.amount_in };
  });
  return { all, trades, since, until };
}

test("CMC and CoinGecko feeds: every field present, volumes equal the swap rows of the window", async (t) => {
  const { env } = t.context;
  const cmc = await get(t, "/export/cmc/v1", cmcResponse);
  t.deepEqual(await get(t, "/export/aggregator_a/v1", cmcResponse), cmc);
  const { all, trades, since, until } = await recompute(env);
  t.log(`${all.length} executed legs, ${trades.length} in the window ${since}..${until}`);
  t.true(trades.length > 100 && all.length > trades.length, "the window cuts the run");
  const decimals = new Map(ASSETS.map((a) => [assetAddress(env.devnet, a.symbol), a.decimals]));
  const entries = Object.entries(cmc);
  t.true(entries.length >= 10);
  const tickers = new Map(
    (await get(t, "/export/coingecko/v1/tickers", geckoTickersResponse)).map((x) => [x.pool_id, x]),
  );
  const pairs = await get(t, "/export/coingecko/v1/pairs", geckoPairsResponse);
  t.is(pairs.length, entries.length);
  t.is(tickers.size, entries.length);
  let priced = 0;
  const lastTrade = new Map<string, { amount0: bigint; amount1: bigint; d0: number; d1: number }>();
  for (const [key, e] of entries) {
    t.deepEqual(Object.keys(e).sort(), Object.keys(cmcPair.shape).sort(), `${key}: every field`);
    const raw = [...trades].filter((s) => f(s.pool) === key);
    const d0 = decimals.get(e.base_id) as number;
    const d1 = decimals.get(e.quote_id) as number;
    const v0 = raw.reduce((n, s) => n + s.amount0, 0n);
    const v1 = raw.reduce((n, s) => n + s.amount1, 0n);
    t.is(e.base_volume, decimalise(v0, d0), `${key} base volume`);
    t.is(e.quote_volume, decimalise(v1, d1), `${key} quote volume`);
    const last = raw
      .sort((x, y) => x.mc_seqno - y.mc_seqno || (x.lt < y.lt ? -1 : x.lt > y.lt ? 1 : x.id < y.id ? -1 : 1))
      .at(-1);
    t.is(
      e.last_price,
      last === undefined ? null : priceNative(last.amount0, d0, last.amount1, d1),
      `${key} last price`,
    );
    if (last !== undefined) lastTrade.set(key, { ...last, d0, d1 });
    t.not(e.base_liquidity, null, `${key}: the devnet pool's state is known`);
    const ticker = tickers.get(key);
    if (ticker === undefined) return t.fail(`${key}: no ticker`);
    t.deepEqual(Object.keys(ticker).sort(), Object.keys(geckoTicker.shape).sort());
    t.is(ticker.base_volume, e.base_volume);
    t.is(ticker.target_volume, e.quote_volume);
    t.is(ticker.last_price, e.last_price);
    if (raw.length > 0) {
      const prices = raw.map((s) => Number(priceNative(s.amount0, d0, s.amount1, d1)));
      t.is(Number(ticker.high), Math.max(...prices), `${key} high`);
      t.is(Number(ticker.low), Math.min(...prices), `${key} low`);
    } else t.deepEqual([ticker.high, ticker.low], [null, null]);
    if (ticker.liquidity_in_usd !== null) priced++;
    if (ticker.bid !== null && ticker.ask !== null) t.true(Number(ticker.bid) < Number(ticker.ask));
  }
  t.true(priced > 0, "some pool's TVL is priced");
  for (const p of pairs) t.deepEqual(Object.keys(p).sort(), Object.keys(geckoPair.shape).sort());
  // The analytics figures of the same window (/v1/stats/pool, read from the rollups): the same pool sides
  // and volumes as the feed, and the same last trade (its price at the stats' 18 digits, half-up).
  const stats = await get(
    t,
    `/v1/stats/pool?since=${timestamp(since)}&until=${timestamp(until)}`,
    poolStatsResponse,
  );
  const byPool = new Map(stats.stats.map((s) => [s.pool_address, s]));
  let traded = 0;
  for (const [key, e] of entries) {
    const s = byPool.get(key);
    if (s === undefined) {
      t.is(e.base_volume, "0", `${key}: no stats row, so no trade in the window`);
      continue;
    }
    traded++;
    const last = lastTrade.get(key);
    const price =
      last === undefined
        ? null
        : toDecimalString(
            ratio(last.amount1 * 10n ** BigInt(last.d0), last.amount0 * 10n ** BigInt(last.d1)),
            18,
            "half-up",
          );
    t.deepEqual(
      [s.base_id, s.quote_id, s.base_volume, s.quote_volume, s.last_price],
      [e.base_id, e.quote_id, e.base_volume, e.quote_volume, price],
      `${key}: /v1/stats/pool and the CMC feed agree`,
    );
  }
  t.true(traded >= 5, `${traded} pools traded in the window`);
});

test("historical_trades: a pool's window of swap rows, newest first, by type and time bounds", async (t) => {
  const { env } = t.context;
  const { all } = await recompute(env);
  const counts = new Map<string, number>();
  for (const s of all) counts.set(s.pool, (counts.get(s.pool) ?? 0) + 1);
  const [pool, n] = [...counts].sort((x, y) => y[1] - x[1])[0] as [string, number];
  const rows = all.filter((s) => s.pool === pool).sort((x, y) => y.utime - x.utime || (y.lt > x.lt ? 1 : -1));
  const base = `/export/coingecko/v1/historical_trades?ticker_id=${f(pool)}`;
  const both = await get(t, `${base}&limit=1000`, geckoTradesResponse);
  t.is(both.buy.length + both.sell.length, n);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const tr of [...both.buy, ...both.sell]) {
    const r = byId.get(tr.trade_id);
    if (r === undefined) return t.fail(`${tr.trade_id} is not a swap row`);
    t.is(tr.trade_timestamp, r.utime * 1000);
  }
  const buys = await get(t, `${base}&type=buy&limit=5`, geckoTradesResponse);
  t.deepEqual(buys.sell, []);
  t.deepEqual(buys.buy, both.buy.slice(0, 5));
  const mid = rows[Math.floor(rows.length / 2)] as (typeof rows)[number];
  const bounded = await get(
    t,
    `${base}&start_time=${mid.utime * 1000}&end_time=${mid.utime * 1000}`,
    geckoTradesResponse,
  );
  t.true(bounded.buy.length + bounded.sell.length >= 1);
  for (const tr of [...bounded.buy, ...bounded.sell]) t.is(tr.trade_timestamp, mid.utime * 1000);
  t.is((await request(env.api, "GET", "/export/coingecko/v1/historical_trades?ticker_id=nope")).status, 400);
  const unknown = `0:${"AB".repeat(32)}`;
  t.is(
    (await request(env.api, "GET", `/export/coingecko/v1/historical_trades?ticker_id=${unknown}`)).status,
    404,
  );
});
