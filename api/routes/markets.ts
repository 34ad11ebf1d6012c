/** The CoinMarketCap DEX feed (api.md §10.1, also as aggregator_a) and a CoinGecko-style DEX feed (analytics.md §4). */
import type { Context } from "koa";
import {
  cmcResponse,
  geckoPairsResponse,
  geckoTickersResponse,
  geckoTradesQuery,
  geckoTradesResponse,
} from "../../schemas/api/markets.ts";
import { depsOf } from "../deps.ts";
import { cmcFeed, geckoHistoricalTrades, geckoPairs, geckoTickers } from "../queries/markets.ts";
import { type Args, route } from "../route.ts";

const tags = ["export"];
const GECKO = "/export/coingecko/v1";

export class MarketsController {
  @route({
    method: "get",
    path: "/export/cmc/v1",
    aliases: [{ method: "get", path: "/export/aggregator_a/v1" }],
    tags,
    summary: "Every pool with its assets, 24 h volumes, liquidity and last price, keyed by pool address",
    response: cmcResponse,
  })
  async cmc(ctx: Context) {
    ctx.body = await cmcFeed(depsOf(ctx));
  }

  @route({
    method: "get",
    path: `${GECKO}/pairs`,
    tags,
    summary: "Every pool as a CoinGecko pair (ticker_id = pool address)",
    response: geckoPairsResponse,
  })
  async pairs(ctx: Context) {
    ctx.body = await geckoPairs(depsOf(ctx));
  }

  @route({
    method: "get",
    path: `${GECKO}/tickers`,
    tags,
    summary: "24 h tickers: last price, volumes, liquidity in USD, bid/ask, high/low",
    response: geckoTickersResponse,
  })
  async tickers(ctx: Context) {
    ctx.body = await geckoTickers(depsOf(ctx));
  }

  @route({
    method: "get",
    path: `${GECKO}/historical_trades`,
    tags,
    summary: "A pool's trades, newest first (start_time/end_time in unix ms, inclusive)",
    query: geckoTradesQuery,
    response: geckoTradesResponse,
  })
  async historicalTrades(ctx: Context, args: Args<typeof geckoTradesQuery>) {
    ctx.body = await geckoHistoricalTrades(depsOf(ctx), args.query);
  }
}
