/** Candles (a tondex extension; schemas/api/ohlcv.ts, README "Statistics"). */
import type { Context } from "koa";
import { ohlcvParams, ohlcvQuery, ohlcvResponse } from "../../schemas/api/ohlcv.ts";
import { depsOf } from "../deps.ts";
import { ohlcvDto } from "../mappers/ohlcv.ts";
import { poolOhlcv } from "../queries/ohlcv.ts";
import { type Args, route } from "../route.ts";

export class OhlcvController {
  @route({
    method: "get",
    path: "/v1/pools/{address}/ohlcv",
    tags: ["stats"],
    summary: "Candles of a pool (tondex extension, GeckoTerminal parameters)",
    description:
      "Trade-based OHLCV: open/close are the interval's first/last executed trade by chain order, high/low " +
      "its extreme trade prices; UTC epoch-aligned intervals labelled by their start; empty intervals are " +
      "omitted unless include_empty_intervals=true (then previous close, volume 0). Prices of the base " +
      "(token0; token=quote: token1) in the other token's whole units, or USD (currency=usd).",
    params: ohlcvParams,
    query: ohlcvQuery,
    response: ohlcvResponse,
  })
  async ohlcv(ctx: Context, args: Args<typeof ohlcvQuery, typeof ohlcvParams>) {
    const q = args.query;
    const view = await poolOhlcv(depsOf(ctx), args.params.address, {
      timeframe: q.timeframe,
      aggregate: q.aggregate,
      before: q.before_timestamp,
      limit: q.limit,
      currency: q.currency,
      token: q.token,
      includeEmpty: q.include_empty_intervals,
    });
    ctx.body = ohlcvDto(view);
  }
}
