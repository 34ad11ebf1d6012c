/** Swap, reverse swap and liquidity provision simulations (api.md §2 rows 16–18). */
import type { Context } from "koa";
import {
  liquiditySimulateQuery,
  liquiditySimulateResponse,
  swapSimulateQuery,
  swapSimulateResponse,
} from "../../schemas/api/simulate.ts";
import { depsOf } from "../deps.ts";
import { simulateLiquidityRequest } from "../queries/liquidity.ts";
import { simulateSwapRequest } from "../queries/simulations.ts";
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
    tags,
    summary: "Simulate providing liquidity (Initial, Balanced, Arbitrary incl. single-sided)",
    query: liquiditySimulateQuery,
    response: liquiditySimulateResponse,
  })
  async liquidity(ctx: Context, args: Args<typeof liquiditySimulateQuery>) {
    ctx.body = await simulateLiquidityRequest(depsOf(ctx), args.query);
  }
}
