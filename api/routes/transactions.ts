/**
 * Swap status, transaction query, action tree (api.md §2 rows 19–21). The documented POST forms take
 * their parameters from the query string or a JSON body (body wins).
 */
import type { Context } from "koa";
import {
  actionTreeBody,
  actionTreeParams,
  actionTreeQuery,
  actionTreeResponse,
  swapStatusQuery,
  swapStatusResponse,
  txQueryBody,
  txQueryQuery,
  txQueryResponse,
} from "../../schemas/api/transactions.ts";
import { depsOf } from "../deps.ts";
import { BadRequestError } from "../errors.ts";
import { actionTreeDto } from "../mappers/action-tree.ts";
import { swapStatusDto, txQueryDto } from "../mappers/transactions.ts";
import { actionTree, findSwapStatus, queryTransaction } from "../queries/transactions.ts";
import { type Args, route } from "../route.ts";

const tags = ["transactions"];

/** Fields present in the body replace the query string's. */
const merged = <T extends object>(query: T, body: T): T => ({
  ...query,
  ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
});

export class TransactionsController {
  @route({
    method: "get",
    path: "/v1/swap/status",
    tags,
    summary: "Outcome of a swap",
    query: swapStatusQuery,
    response: swapStatusResponse,
  })
  async swapStatus(ctx: Context, args: Args<typeof swapStatusQuery>) {
    const q = args.query;
    const found = await findSwapStatus(depsOf(ctx), {
      router: q.router_address,
      owner: q.owner_address,
      queryId: q.query_id,
    });
    ctx.body = swapStatusDto(found);
  }

  @route({
    method: "get",
    path: "/v1/transactions/query",
    tags,
    summary: "Find a wallet transaction",
    query: txQueryQuery,
    response: txQueryResponse,
  })
  async query(ctx: Context, args: Args<typeof txQueryQuery>) {
    ctx.body = txQueryDto(await queryTransaction(depsOf(ctx), args.query));
  }

  @route({
    method: "post",
    path: "/v1/transaction/query",
    tags,
    summary: "Find a wallet transaction (documented POST form)",
    query: txQueryQuery,
    body: txQueryBody,
    response: txQueryResponse,
  })
  async queryPost(ctx: Context, args: Args<typeof txQueryQuery, undefined, typeof txQueryBody>) {
    ctx.body = txQueryDto(await queryTransaction(depsOf(ctx), merged(args.query, args.body)));
  }

  @route({
    method: "get",
    path: "/v1/transactions/{hash}/action_tree",
    tags,
    summary: "STON.fi actions triggered by a transaction",
    params: actionTreeParams,
    response: actionTreeResponse,
  })
  async actionTree(ctx: Context, args: Args<undefined, typeof actionTreeParams>) {
    ctx.body = actionTreeDto(await actionTree(depsOf(ctx), args.params.hash));
  }

  @route({
    method: "post",
    path: "/v1/transaction/action_tree",
    tags,
    summary: "Action tree (documented POST form; `hash` or `tx_hash`)",
    query: actionTreeQuery,
    body: actionTreeBody,
    response: actionTreeResponse,
  })
  async actionTreePost(ctx: Context, args: Args<typeof actionTreeQuery, undefined, typeof actionTreeBody>) {
    const m = merged(args.query, args.body);
    const hash = m.hash ?? m.tx_hash;
    if (hash === undefined) throw new BadRequestError("hash", "required");
    ctx.body = actionTreeDto(await actionTree(depsOf(ctx), hash));
  }
}
