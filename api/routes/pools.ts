/** Pools (api.md §2 rows 9–12, with the legacy `/v1/pool/query`). */
import type { Context } from "koa";
import { catalogQueryBody, catalogQueryString, mergeCatalogInput } from "../../schemas/api/assets.ts";
import { byMarketParams, poolListResponse, poolResponse } from "../../schemas/api/pools.ts";
import { addressParams, dexV2Query } from "../../schemas/api/reference.ts";
import { poolTvlResponse, tvlQuery } from "../../schemas/api/tvl.ts";
import { depsOf } from "../deps.ts";
import { poolDto } from "../mappers/pools.ts";
import { poolTvlDto } from "../mappers/tvl.ts";
import { getPool, listPools, poolsByMarket, queryPools } from "../queries/pools.ts";
import { tvlHistory } from "../queries/tvl.ts";
import { type Args, route } from "../route.ts";

const tags = ["pools"];

export class PoolsController {
  @route({
    method: "get",
    path: "/v1/pools",
    tags,
    summary: "All pools",
    query: dexV2Query,
    response: poolListResponse,
  })
  async list(ctx: Context, args: Args<typeof dexV2Query>) {
    ctx.body = { pool_list: (await listPools(depsOf(ctx), args.query.dex_v2)).map(poolDto) };
  }

  @route({
    method: "get",
    path: "/v1/pools/{address}",
    tags,
    summary: "One pool",
    params: addressParams,
    response: poolResponse,
  })
  async one(ctx: Context, args: Args<undefined, typeof addressParams>) {
    ctx.body = { pool: poolDto(await getPool(depsOf(ctx), args.params.address)) };
  }

  @route({
    method: "get",
    path: "/v1/pools/by_market/{asset0}/{asset1}",
    tags,
    summary: "Every pool trading an asset pair",
    params: byMarketParams,
    response: poolListResponse,
  })
  async byMarket(ctx: Context, args: Args<undefined, typeof byMarketParams>) {
    const pools = await poolsByMarket(depsOf(ctx), args.params.asset0, args.params.asset1);
    ctx.body = { pool_list: pools.map(poolDto) };
  }

  @route({
    method: "post",
    path: "/v1/pools/query",
    aliases: [{ method: "post", path: "/v1/pool/query" }],
    tags,
    summary: "Pools whose assets match a condition (query string or JSON body)",
    query: catalogQueryString,
    body: catalogQueryBody,
    response: poolListResponse,
  })
  async query(ctx: Context, args: Args<typeof catalogQueryString, undefined, typeof catalogQueryBody>) {
    const pools = await queryPools(depsOf(ctx), mergeCatalogInput(args.query, args.body));
    ctx.body = { pool_list: pools.map(poolDto) };
  }

  @route({
    method: "get",
    path: "/v1/pools/{address}/tvl",
    tags,
    summary: "A pool's TVL history (tondex extension): one point per hour or day boundary",
    description:
      "As `/v1/stats/tvl`, for one pool: its TVL at each boundary (README Pricing); null where its state or prices are not known.",
    params: addressParams,
    query: tvlQuery,
    response: poolTvlResponse,
  })
  async tvl(ctx: Context, args: Args<typeof tvlQuery, typeof addressParams>) {
    const pool = args.params.address;
    ctx.body = poolTvlDto(pool, await tvlHistory(depsOf(ctx), { ...args.query, pool }));
  }
}
