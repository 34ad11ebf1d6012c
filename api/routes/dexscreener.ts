/** The DexScreener adapter feed (api.md §10.2), also under the specification's neutral name aggregator_b. */
import type { Context } from "koa";
import {
  assetResponse,
  eventsQuery,
  eventsResponse,
  feedAddressParams,
  latestBlockResponse,
  pairResponse,
} from "../../schemas/api/dexscreener.ts";
import { depsOf } from "../deps.ts";
import { eventsOf, feedAssetOf, feedPairOf, latestBlock } from "../queries/dexscreener.ts";
import { type Args, route } from "../route.ts";

const tags = ["export"];
const BASE = "/export/dexscreener/v1";
const ALIAS = "/export/aggregator_b/v1";
const at = (path: string) => ({
  path: `${BASE}${path}`,
  aliases: [{ method: "get" as const, path: `${ALIAS}${path}` }],
});

export class DexScreenerController {
  @route({
    method: "get",
    ...at("/latest-block"),
    tags,
    summary: "The newest block whose events are all stored (masterchain seqno, unix seconds)",
    response: latestBlockResponse,
  })
  async latestBlock(ctx: Context) {
    ctx.body = { block: await latestBlock(depsOf(ctx)) };
  }

  @route({
    method: "get",
    ...at("/asset/{address}"),
    tags,
    summary: "An asset of the feed",
    params: feedAddressParams,
    response: assetResponse,
  })
  async asset(ctx: Context, args: Args<undefined, typeof feedAddressParams>) {
    ctx.body = { asset: await feedAssetOf(depsOf(ctx), args.params.address) };
  }

  @route({
    method: "get",
    ...at("/pair/{address}"),
    tags,
    summary: "A pair (pool) of the feed, under both wrapper keys `pair` and `pool`",
    params: feedAddressParams,
    response: pairResponse,
  })
  async pair(ctx: Context, args: Args<undefined, typeof feedAddressParams>) {
    const pair = await feedPairOf(depsOf(ctx), args.params.address);
    ctx.body = { pair, pool: pair };
  }

  @route({
    method: "get",
    ...at("/events"),
    tags,
    summary: "Swap, join and exit events of the blocks fromBlock..toBlock (inclusive)",
    query: eventsQuery,
    response: eventsResponse,
  })
  async events(ctx: Context, args: Args<typeof eventsQuery>) {
    ctx.body = { events: await eventsOf(depsOf(ctx), args.query.fromBlock, args.query.toBlock) };
  }
}
