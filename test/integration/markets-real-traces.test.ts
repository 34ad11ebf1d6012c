/**
 * The CoinMarketCap and CoinGecko feeds over the recorded mainnet traces, replayed through the real CLI
 * (test/helpers/replayed-traces.ts). Without chain access no jetton's name, symbol or decimals is known, so
 * no pool is listed (decimals are never invented). With the metadata a chain read would store (9 decimals,
 * a name and a symbol for every jetton: a stand-in, test/helpers addChainMetadata), every pool whose tokens
 * the replay learnt is listed; the 24-hour window ends at the newest indexed block, which only the newest
 * trace's leg falls in (TON → NOT through swap.coffee, 2025-06-05): its volumes and price come from the
 * trace's own amounts (INDEX.md: 44426053349 nanoton in, 64948588105456 NOT units out), every other pool
 * traded "0" with no price, and no pool's reserves are known (null, not 0).
 */
import { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import {
  cmcResponse,
  geckoPairsResponse,
  geckoTickersResponse,
  geckoTradesResponse,
} from "../../schemas/api/markets.ts";
import { poolListResponse } from "../../schemas/api/pools.ts";
import { addChainMetadata, getJson, type ReplayedTraces, replayTraces } from "../helpers/replayed-traces.ts";

const test = anyTest as TestFn<ReplayedTraces>;

test.before(async (t) => {
  t.context = await replayTraces();
});
test.after.always(async (t) => {
  await t.context.close?.();
});

const raw = (friendly: string) => Address.parse(friendly).toRawString().toUpperCase();
const TON = "0:0000000000000000000000000000000000000000000000000000000000000000";
/** The newest trace's STON.fi leg (INDEX.md, mixed-dedust-coffee-stonfi-v2). */
const COFFEE = { pool: "0:FD066810", tonIn: "44.426053349", notOut: "64948.588105456" };

test.serial("without chain access no pool is listed: decimals are never invented", async (t) => {
  t.deepEqual(await getJson(t, "/export/cmc/v1", cmcResponse), {});
  t.deepEqual(await getJson(t, "/export/coingecko/v1/pairs", geckoPairsResponse), []);
  t.deepEqual(await getJson(t, "/export/coingecko/v1/tickers", geckoTickersResponse), []);
});

test.serial(
  "with the jettons' metadata: every pool of known tokens, the window's one trade, no reserves",
  async (t) => {
    t.true((await addChainMetadata(t.context.store)) > 0);
    const pools = (await getJson(t, "/v1/pools", poolListResponse)).pool_list;
    const known = pools.filter((p) => p.token0_address !== null && p.token1_address !== null);
    const cmc = await getJson(t, "/export/cmc/v1", cmcResponse);
    t.deepEqual(Object.keys(cmc).sort(), known.map((p) => p.address).sort());
    t.true(known.length >= 6, `${known.length} pools of known tokens`);
    const pairs = await getJson(t, "/export/coingecko/v1/pairs", geckoPairsResponse);
    t.deepEqual(pairs.map((p) => p.pool_id).sort(), Object.keys(cmc).sort());
    const tickers = new Map(
      (await getJson(t, "/export/coingecko/v1/tickers", geckoTickersResponse)).map((x) => [x.pool_id, x]),
    );
    let traded = 0;
    for (const [pool, e] of Object.entries(cmc)) {
      t.deepEqual(
        [e.base_liquidity, e.quote_liquidity],
        [null, null],
        `${pool}: no state without chain access`,
      );
      const ticker = tickers.get(pool);
      if (ticker === undefined) return t.fail(`${pool}: no ticker`);
      t.deepEqual([ticker.bid, ticker.ask, ticker.liquidity_in_usd], [null, null, null], pool);
      t.deepEqual(
        [ticker.base_volume, ticker.target_volume, ticker.last_price],
        [e.base_volume, e.quote_volume, e.last_price],
      );
      if (!raw(pool).startsWith(COFFEE.pool)) {
        t.deepEqual(
          [e.base_volume, e.quote_volume, e.last_price],
          ["0", "0", null],
          `${pool}: no trade in the 24 h`,
        );
        t.deepEqual([ticker.high, ticker.low], [null, null], pool);
        continue;
      }
      traded++;
      // base = the pool's token0; the leg sold TON to the pool for NOT
      const tonIsBase = raw(e.base_id) === TON;
      const [base, quote] = tonIsBase ? [COFFEE.tonIn, COFFEE.notOut] : [COFFEE.notOut, COFFEE.tonIn];
      t.deepEqual([e.base_volume, e.quote_volume], [base, quote]);
      // one trade: last = high = low = quote per base of its amounts
      const price = Number(quote) / Number(base);
      for (const p of [e.last_price, ticker.high, ticker.low]) {
        t.true(p !== null && Math.abs(Number(p) / price - 1) < 1e-12, `${p} ≉ ${price}`);
      }
      const trades = await getJson(
        t,
        `/export/coingecko/v1/historical_trades?ticker_id=${pool}`,
        geckoTradesResponse,
      );
      const side = tonIsBase ? trades.sell : trades.buy;
      t.is(trades.buy.length + trades.sell.length, 1);
      t.is(side.length, 1, tonIsBase ? "TON (base) sold to the pool" : "NOT (base) bought from the pool");
      t.deepEqual(
        [side[0]?.base_volume, side[0]?.target_volume, side[0]?.price],
        [base, quote, e.last_price],
      );
    }
    t.is(traded, 1);
  },
);
