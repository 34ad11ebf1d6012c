/** Asset catalogue (api.md §2 rows 4–7). */
import type { Context } from "koa";
import {
  assetListResponse,
  assetResponse,
  assetV2ListResponse,
  catalogQueryBody,
  catalogQueryString,
  mergeCatalogInput,
} from "../../schemas/api/assets.ts";
import { addressParams } from "../../schemas/api/reference.ts";
import { depsOf } from "../deps.ts";
import { BadRequestError } from "../errors.ts";
import { assetDto, assetV2Dto } from "../mappers/assets.ts";
import { assetTags, getAsset, queryAssets } from "../queries/assets.ts";
import { type Args, route } from "../route.ts";

const tags = ["assets"];
type QueryArgs = Args<typeof catalogQueryString, undefined, typeof catalogQueryBody>;

const catalogInput = (args: QueryArgs) => mergeCatalogInput(args.query, args.body);

export class AssetsController {
  @route({
    method: "get",
    path: "/v1/assets",
    tags,
    summary: "The asset catalogue",
    response: assetListResponse,
  })
  async list(ctx: Context) {
    const assets = await depsOf(ctx).data.listAssets();
    ctx.body = { asset_list: assets.map((a) => assetDto(a, [...assetTags(a)])) };
  }

  @route({
    method: "get",
    path: "/v1/assets/{address}",
    tags,
    summary: "One asset",
    params: addressParams,
    response: assetResponse,
  })
  async one(ctx: Context, args: Args<undefined, typeof addressParams>) {
    const asset = await getAsset(depsOf(ctx), args.params.address);
    ctx.body = { asset: assetDto(asset, [...assetTags(asset)]) };
  }

  @route({
    method: "post",
    path: "/v1/assets/query",
    tags,
    summary: "Assets matching a tag condition and search terms (JSON body; query string accepted)",
    query: catalogQueryString,
    body: catalogQueryBody,
    response: assetV2ListResponse,
  })
  async query(ctx: Context, args: QueryArgs) {
    const views = await queryAssets(depsOf(ctx), catalogInput(args));
    ctx.body = { asset_list: views.map((v) => assetV2Dto(v.asset, v.tags, v.wallet)) };
  }

  @route({
    method: "post",
    path: "/v1/assets/search",
    tags,
    summary: "Legacy asset search by search_string",
    query: catalogQueryString,
    body: catalogQueryBody,
    response: assetV2ListResponse,
  })
  async search(ctx: Context, args: QueryArgs) {
    const input = catalogInput(args);
    if (input.searchTerms.length === 0) throw new BadRequestError("search_string", "required");
    const views = await queryAssets(depsOf(ctx), input);
    ctx.body = { asset_list: views.map((v) => assetV2Dto(v.asset, v.tags, v.wallet)) };
  }
}
