/** Statistics endpoints (api.md §9), read from the rollups; figures defined in README "Statistics". */
import type { Context } from "koa";
import {
  dexStatsQuery,
  dexStatsResponse,
  feeAccrualsResponse,
  feeStatsResponse,
  feeWithdrawalsResponse,
  poolStatsListQuery,
  poolStatsQuery,
  poolStatsResponse,
  referrerStatsQuery,
} from "../../schemas/api/stats.ts";
import { dexTvlResponse, tvlQuery } from "../../schemas/api/tvl.ts";
import { operationsResponse } from "../../schemas/api/wallets.ts";
import { depsOf } from "../deps.ts";
import {
  dexStatsDto,
  feeAccrualDto,
  feeStatsDto,
  feeWithdrawalDto,
  poolStatsListDto,
} from "../mappers/stats.ts";
import { dexTvlDto } from "../mappers/tvl.ts";
import { operationDto } from "../mappers/wallets.ts";
import {
  dexStats,
  feeAccruals,
  feeStats,
  feeWithdrawals,
  poolStats,
  statsOperations,
} from "../queries/stats.ts";
import { tvlHistory } from "../queries/tvl.ts";
import { type Args, route } from "../route.ts";

const tags = ["stats"];
const WINDOW =
  "`since` and `until` (UTC, `YYYY-MM-DDTHH:MM:SS`) are both inclusive; `since` must not be after `until`.";

export class StatsController {
  @route({
    method: "get",
    path: "/v1/stats/dex",
    tags,
    summary: "DEX-wide trades and unique wallets in a window",
    description: `${WINDOW} Without them: from the DEX launch (2022-11-18) to the newest indexed block.`,
    query: dexStatsQuery,
    response: dexStatsResponse,
  })
  async dex(ctx: Context, args: Args<typeof dexStatsQuery>) {
    ctx.body = dexStatsDto(await dexStats(depsOf(ctx), args.query));
  }

  @route({
    method: "get",
    path: "/v1/stats/pool",
    tags,
    summary: "Per-pool volumes, trades and prices in a window",
    description: `${WINDOW} Each pool's \`unique_wallets\` (tondex) is given for one pool (\`pool_address\`), and for every pool with \`unique_wallets=true\` (at 30 days, about twice the time of the list without it).`,
    query: poolStatsListQuery,
    response: poolStatsResponse,
  })
  async pool(ctx: Context, args: Args<typeof poolStatsListQuery>) {
    const q = args.query;
    const view = await poolStats(depsOf(ctx), {
      since: q.since,
      until: q.until,
      pool: q.pool_address,
      wallets: q.unique_wallets === true,
    });
    ctx.body = poolStatsListDto(view);
  }

  @route({
    method: "get",
    path: "/v1/stats/operations",
    tags,
    summary: "Every DEX operation in a window (or of one pool)",
    description: WINDOW,
    query: poolStatsQuery,
    response: operationsResponse,
  })
  async operations(ctx: Context, args: Args<typeof poolStatsQuery>) {
    const q = args.query;
    const views = await statsOperations(depsOf(ctx), {
      since: q.since,
      until: q.until,
      pool: q.pool_address,
    });
    ctx.body = { operations: views.map(operationDto) };
  }

  @route({
    method: "get",
    path: "/v1/stats/fees",
    tags,
    summary: "A referrer's accrued and withdrawn referral fees per asset",
    description: WINDOW,
    query: referrerStatsQuery,
    response: feeStatsResponse,
  })
  async fees(ctx: Context, args: Args<typeof referrerStatsQuery>) {
    const q = args.query;
    ctx.body = feeStatsDto(
      await feeStats(depsOf(ctx), { since: q.since, until: q.until, referrer: q.referrer_address }),
    );
  }

  @route({
    method: "get",
    path: "/v1/stats/fee_accruals",
    tags,
    summary: "Swaps that paid a referrer (v1 direct payments and v2 vault deposits)",
    description: WINDOW,
    query: referrerStatsQuery,
    response: feeAccrualsResponse,
  })
  async feeAccruals(ctx: Context, args: Args<typeof referrerStatsQuery>) {
    const q = args.query;
    const ops = await feeAccruals(depsOf(ctx), {
      since: q.since,
      until: q.until,
      referrer: q.referrer_address,
    });
    ctx.body = { operations: ops.map(feeAccrualDto) };
  }

  @route({
    method: "get",
    path: "/v1/stats/fee_withdrawals",
    tags,
    summary: "A referrer's v2 vault withdrawals",
    description: WINDOW,
    query: referrerStatsQuery,
    response: feeWithdrawalsResponse,
  })
  async feeWithdrawals(ctx: Context, args: Args<typeof referrerStatsQuery>) {
    const q = args.query;
    const rows = await feeWithdrawals(depsOf(ctx), {
      since: q.since,
      until: q.until,
      referrer: q.referrer_address,
    });
    ctx.body = { withdrawals: rows.map(feeWithdrawalDto) };
  }

  @route({
    method: "get",
    path: "/v1/stats/tvl",
    tags,
    summary: "DEX TVL history (tondex extension): one point per hour or day boundary",
    description:
      "`since`/`until` (UTC, `YYYY-MM-DDTHH:MM:SS`, inclusive; default the 30 days, or 7 days of hours, before the newest indexed transaction) and `interval` (`day`, default, or `hour`). Each point is the TVL at that instant, from every pool's state then (README Pricing); at most 1000 points.",
    query: tvlQuery,
    response: dexTvlResponse,
  })
  async tvl(ctx: Context, args: Args<typeof tvlQuery>) {
    ctx.body = dexTvlDto(await tvlHistory(depsOf(ctx), args.query));
  }
}
