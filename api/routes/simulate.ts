/** Swap, reverse swap and liquidity provision simulations (api.md §2 rows 16–18). */
import type { Context } from "koa";
import {
  liquiditySimulateQuery,
  liquiditySimulateResponse,
  swapSimulateQuery,
  swapSimulateResponse,
} from "../../schemas/api/simulate.ts";
import { depsOf } from "../deps.ts";
import { simulateLiquidityRequest } from "../queries/liquidity-simulations.ts";
import { simulateSwapRequest } from "../queries/swap-simulations.ts";
import { type Args, route } from "../route.ts";

const tags = ["simulation"];

export class SimulateController {
  @route({
    method: "post",
    path: "/v1/swap/simulate",
    memo: true,
    tags,
    summary: "Simulate selling exactly `units` of the offer asset",
    query: swapSimulateQuery,
    response: swapSimulateResponse,
  })
  async swap(ctx: Context, args: Args<typeof swapSimulateQuery>) {
    ctx.body = await simulateSwapRequest(depsOf(ctx), args.query, "swap");
  }

  @route({
    method: "post",
    path: "/v1/reverse_swap/simulate",
    memo: true,
    tags,
    summary: "Simulate buying exactly `units` of the ask asset",
    query: swapSimulateQuery,
    response: swapSimulateResponse,
  })
  async reverseSwap(ctx: Context, args: Args<typeof swapSimulateQuery>) {
    ctx.body = await simulateSwapRequest(depsOf(ctx), args.query, "reverse");
  }

  @route({
    method: "post",
    path: "/v1/liquidity_provision/simulate",
    // With `wallet_address` the answer counts what the wallet's LpAccount holds (a live chain read).
    memo: { unless: ["wallet_address"] },
    tags,
    summary: "Simulate providing liquidity (Initial, Balanced, Arbitrary incl. single-sided)",
    description:
      "The deposit joins what the wallet's LpAccount holds (`wallet_address`): LP and `estimated_token_*_units` " +
      "count both; `min_token_*_units` count this request's part only. `min_lp_units` is at least 1 when LP is " +
      "minted (an LpAccount never calls the pool with `min_lp_out` 0). An Initial provision that would mint " +
      "nothing is a 422 `below_minimum_liquidity` naming the amounts: v2 keeps 1001 LP of the first deposit " +
      "locked (constant product: `token_a_units · token_b_units ≥ 1004004`); the v1 LpAccount forwards only " +
      "amounts above 1000 each.",
    query: liquiditySimulateQuery,
    response: liquiditySimulateResponse,
  })
  async liquidity(ctx: Context, args: Args<typeof liquiditySimulateQuery>) {
    ctx.body = await simulateLiquidityRequest(depsOf(ctx), args.query);
  }
}
