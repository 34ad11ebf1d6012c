/**
 * `createApp(deps)`: the Koa application of the STON.fi-compatible REST API. Pure wiring — nothing runs at
 * import time; bin/ builds the adapters and listens. Middleware order: CORS and compression
 * (api/http-policy.ts), errors (so every failure below it is rendered), then the dependencies on
 * `ctx.state`, the JSON body reader, the docs and the API.
 */
import type { RequestListener } from "node:http";
import Koa from "koa";
import { jsonBody } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { docsRouter } from "./docs.ts";
import { errorMiddleware } from "./errors.ts";
import { compressMiddleware, corsMiddleware, DEFAULT_HTTP_POLICY, withVaryOrigin } from "./http-policy.ts";
import { laneErrors, quoteLane } from "./quote-lane.ts";
import { createResponseMemo, type ResponseMemo } from "./response-memo.ts";
import { buildRouter, fixedPathMethods, memoizablePaths } from "./route.ts";
import { AssetsController } from "./routes/assets.ts";
import { DexScreenerController } from "./routes/dexscreener.ts";
import { MarketsController } from "./routes/markets.ts";
import { OhlcvController } from "./routes/ohlcv.ts";
import { PoolsController } from "./routes/pools.ts";
import { ReferenceController } from "./routes/reference.ts";
import { SimulateController } from "./routes/simulate.ts";
import { StatsController } from "./routes/stats.ts";
import { TransactionsController } from "./routes/transactions.ts";
import { WalletsController } from "./routes/wallets.ts";

export type { ApiDeps } from "./deps.ts";

export const CONTROLLERS = [
  ReferenceController,
  AssetsController,
  PoolsController,
  SimulateController,
  TransactionsController,
  WalletsController,
  DexScreenerController,
  MarketsController,
  StatsController,
  OhlcvController,
] as const;

/** The Koa app; with `memo`, its `capture()` keeps the answers `memo.listener` will repeat. */
export function createApp(deps: ApiDeps, memo?: ResponseMemo): Koa {
  const app = new Koa();
  // Errors are rendered by our middleware; Koa's default handler would also print them to stderr.
  app.silent = true;
  const api = buildRouter(CONTROLLERS);
  const docs = docsRouter();
  // Outside the error middleware: error answers get CORS headers and compression too.
  const http = deps.http ?? DEFAULT_HTTP_POLICY;
  app.use(corsMiddleware(http));
  app.use(compressMiddleware(http, memoizablePaths()));
  app.use(errorMiddleware(deps.logger));
  app.use(async (ctx, next) => {
    ctx.state.deps = deps;
    await next();
  });
  if (memo !== undefined) app.use(memo.capture());
  app.use(laneErrors());
  app.use(jsonBody());
  app.use(docs.routes());
  app.use(fixedPathMethods());
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}

/**
 * The request listener a server mounts: the app behind the quote lane (api/quote-lane.ts: successful
 * swap and reverse-swap quotes without the Koa stack), behind the response memo when `deps.responseMemo`
 * is set (see api/response-memo.ts). `memo` is returned for its statistics.
 */
export function apiListener(deps: ApiDeps): { listener: RequestListener; memo?: ResponseMemo } {
  if (deps.responseMemo === undefined)
    return { listener: withVaryOrigin(quoteLane(deps, createApp(deps).callback())) };
  const memo = createResponseMemo({
    paths: memoizablePaths(),
    version: deps.responseMemo.version,
    ttlMs: deps.responseMemo.ttlMs,
    clock: deps.clock,
  });
  return {
    listener: withVaryOrigin(memo.listener(quoteLane(deps, createApp(deps, memo).callback(), memo.keep))),
    memo,
  };
}
