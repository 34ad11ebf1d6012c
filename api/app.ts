/**
 * `createApp(deps)`: the Koa application of the STON.fi-compatible REST API. Pure wiring — nothing runs at
 * import time; bin/ builds the adapters and listens. Middleware order: errors first (so every failure
 * below it is rendered), then the dependencies on `ctx.state`, the JSON body reader, the docs and the API.
 */
import Koa from "koa";
import { jsonBody } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { docsRouter } from "./docs.ts";
import { errorMiddleware } from "./errors.ts";
import { buildRouter } from "./route.ts";
import { AssetsController } from "./routes/assets.ts";
import { PoolsController } from "./routes/pools.ts";
import { ReferenceController } from "./routes/reference.ts";
import { SimulateController } from "./routes/simulate.ts";
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
] as const;

export function createApp(deps: ApiDeps): Koa {
  const app = new Koa();
  // Errors are rendered by our middleware; Koa's default handler would also print them to stderr.
  app.silent = true;
  const api = buildRouter(CONTROLLERS);
  const docs = docsRouter();
  app.use(errorMiddleware(deps.logger));
  app.use(async (ctx, next) => {
    ctx.state.deps = deps;
    await next();
  });
  app.use(jsonBody());
  app.use(docs.routes());
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
