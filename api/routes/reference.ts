/** Routers, markets, jetton wallet address (api.md §2 rows 1–3, 8). */
import type { Context } from "koa";
import {
  addressParams,
  dexV2Query,
  jettonAddressQuery,
  jettonAddressResponse,
  marketsResponse,
  routerListResponse,
  routerResponse,
} from "../../schemas/api/reference.ts";
import { depsOf } from "../deps.ts";
import { friendly } from "../mappers/common.ts";
import { pairsDto, routerDto } from "../mappers/reference.ts";
import { getRouter, jettonWalletAddress, listRouters, markets } from "../queries/reference.ts";
import { type Args, route } from "../route.ts";

const tags = ["reference"];

export class ReferenceController {
  @route({
    method: "get",
    path: "/v1/routers",
    tags,
    summary: "List routers",
    query: dexV2Query,
    response: routerListResponse,
  })
  async routers(ctx: Context, args: Args<typeof dexV2Query>) {
    const routers = await listRouters(depsOf(ctx), args.query.dex_v2);
    ctx.body = { router_list: routers.map(routerDto) };
  }

  @route({
    method: "get",
    path: "/v1/routers/{address}",
    tags,
    summary: "One router",
    params: addressParams,
    response: routerResponse,
  })
  async router(ctx: Context, args: Args<undefined, typeof addressParams>) {
    ctx.body = { router: routerDto(await getRouter(depsOf(ctx), args.params.address)) };
  }

  @route({
    method: "get",
    path: "/v1/markets",
    tags,
    summary: "Tradable asset pairs",
    query: dexV2Query,
    response: marketsResponse,
  })
  async markets(ctx: Context, args: Args<typeof dexV2Query>) {
    ctx.body = { pairs: pairsDto(await markets(depsOf(ctx), args.query.dex_v2)) };
  }

  @route({
    method: "get",
    path: "/v1/jetton/{address}/address",
    tags,
    summary: "Jetton wallet address of an owner",
    params: addressParams,
    query: jettonAddressQuery,
    response: jettonAddressResponse,
  })
  async jettonWallet(ctx: Context, args: Args<typeof jettonAddressQuery, typeof addressParams>) {
    const wallet = await jettonWalletAddress(depsOf(ctx), args.params.address, args.query.owner_address);
    ctx.body = { address: friendly(wallet) };
  }
}
