/** Wallet endpoints (api.md §2 rows 22–25, 29–31). */
import type { Context } from "koa";
import { assetListResponse, assetResponse } from "../../schemas/api/assets.ts";
import { poolListResponse, poolResponse } from "../../schemas/api/pools.ts";
import { dexV2Query } from "../../schemas/api/reference.ts";
import {
  feeVaultsResponse,
  lastTransactionsQuery,
  lastTransactionsResponse,
  operationsResponse,
  walletAssetParams,
  walletOperationsQuery,
  walletParams,
  walletPoolParams,
} from "../../schemas/api/wallets.ts";
import { depsOf } from "../deps.ts";
import { assetDto } from "../mappers/assets.ts";
import { poolDto } from "../mappers/pools.ts";
import { feeVaultsDto, lastTransactionsDto, operationDto } from "../mappers/wallets.ts";
import { walletAsset, walletAssets } from "../queries/assets.ts";
import { walletPool, walletPools } from "../queries/pools.ts";
import { walletFeeVaults, walletLastTransactions, walletOperations } from "../queries/wallets.ts";
import { type Args, route } from "../route.ts";

const tags = ["wallets"];
type WalletArgs<Q = undefined> = Args<Q, typeof walletParams>;

export class WalletsController {
  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/assets",
    tags,
    summary: "Assets with this wallet's balances",
    params: walletParams,
    response: assetListResponse,
  })
  async assets(ctx: Context, args: WalletArgs) {
    const views = await walletAssets(depsOf(ctx), args.params.wallet);
    ctx.body = { asset_list: views.map((v) => assetDto(v.asset, v.tags, v.wallet)) };
  }

  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/assets/{asset}",
    tags,
    summary: "One asset with this wallet's balance",
    params: walletAssetParams,
    response: assetResponse,
  })
  async asset(ctx: Context, args: Args<undefined, typeof walletAssetParams>) {
    const v = await walletAsset(depsOf(ctx), args.params.wallet, args.params.asset);
    ctx.body = { asset: assetDto(v.asset, v.tags, v.wallet) };
  }

  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/pools",
    tags,
    summary: "Pools where this wallet has liquidity",
    params: walletParams,
    query: dexV2Query,
    response: poolListResponse,
  })
  async pools(ctx: Context, args: WalletArgs<typeof dexV2Query>) {
    const views = await walletPools(depsOf(ctx), args.params.wallet, args.query.dex_v2);
    ctx.body = { pool_list: views.map(poolDto) };
  }

  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/pools/{pool}",
    tags,
    summary: "One pool with this wallet's position",
    params: walletPoolParams,
    response: poolResponse,
  })
  async pool(ctx: Context, args: Args<undefined, typeof walletPoolParams>) {
    ctx.body = { pool: poolDto(await walletPool(depsOf(ctx), args.params.wallet, args.params.pool)) };
  }

  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/operations",
    tags,
    summary: "DEX operations of this wallet",
    params: walletParams,
    query: walletOperationsQuery,
    response: operationsResponse,
  })
  async operations(ctx: Context, args: WalletArgs<typeof walletOperationsQuery>) {
    const q = args.query;
    const views = await walletOperations(depsOf(ctx), args.params.wallet, {
      since: q.since,
      until: q.until,
      types: q.op_type,
      dexV2: q.dex_v2,
    });
    ctx.body = { operations: views.map(operationDto) };
  }

  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/transactions/last",
    tags,
    summary: "Last transactions and seqno",
    params: walletParams,
    query: lastTransactionsQuery,
    response: lastTransactionsResponse,
  })
  async lastTransactions(ctx: Context, args: WalletArgs<typeof lastTransactionsQuery>) {
    const q = args.query;
    const txs = await walletLastTransactions(depsOf(ctx), args.params.wallet, {
      limit: q.limit,
      since: q.min_tx_timestamp,
    });
    ctx.body = lastTransactionsDto(txs);
  }

  @route({
    method: "get",
    path: "/v1/wallets/{wallet}/fee_vaults",
    tags,
    summary: "Referral fee vaults owned by this wallet",
    params: walletParams,
    response: feeVaultsResponse,
  })
  async feeVaults(ctx: Context, args: WalletArgs) {
    ctx.body = feeVaultsDto(await walletFeeVaults(depsOf(ctx), args.params.wallet));
  }
}
