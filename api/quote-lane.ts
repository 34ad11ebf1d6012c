/**
 * The quote lane: swap, reverse-swap and liquidity-provision simulations answered without the Koa stack.
 * Bots and wallets ask for a different amount almost every time, so the response memo rarely helps them,
 * and for a simulation the middleware stack costs more than the simulation itself (liquidity through Koa:
 * ~0.10× a bare server for distinct requests, p99 17–44 ms at half of that load; bench/api.ts).
 *
 * The lane computes exactly what the Koa route does — the same query schema (`swapSimulateQuery`, or
 * `quoteQuery`, its output without zod for the queries it takes; `liquiditySimulateQuery`, or
 * `liquidityQuery`), the same answer (`bestSwapAnswer`, whose `simulateSwapRequest` the route awaits;
 * `simulateLiquidityRequest`, at once `simulateLiquidityNow`), the same JSON — and answers only what it is
 * sure of: a bodiless `POST /v1/swap/simulate`, `/v1/reverse_swap/simulate` or
 * `/v1/liquidity_provision/simulate` whose query parses and whose answer succeeds, sent with the headers
 * Koa sends for it (these paths are never compressed: api/http-policy.ts). Everything else goes to `next`
 * (Koa): a query the schema refuses and cross-origin requests (an `Origin`: CORS headers come from the
 * middleware that owns them) untouched; a simulation that fails carries its error along, and
 * `laneErrors()` — early in the Koa stack — throws it there, so it is rendered where every error is,
 * without computing it twice. Nothing reads the request body: the lane only takes requests without one.
 *
 * With the response memo in front, a quote the lane answers is kept like one Koa answered (`keep`).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { Context, Middleware, Next } from "koa";
import {
  type LiquiditySimulateQuery,
  type LiquiditySimulationDto,
  liquidityQuery,
  liquiditySimulateQuery,
  quoteQuery,
  swapSimulateQuery,
} from "../schemas/api/simulate.ts";
import type { ApiDeps } from "./deps.ts";
import { simulateLiquidityNow, simulateLiquidityRequest } from "./queries/liquidity-simulations.ts";
import type { SwapAnswer } from "./queries/simulate.ts";
import { bestSwapAnswer, bestSwapAnswerNow, type Mode } from "./queries/swap-simulations.ts";

export const QUOTE_PATHS: Readonly<Record<string, Mode | "liquidity">> = {
  "/v1/swap/simulate": "swap",
  "/v1/reverse_swap/simulate": "reverse",
  "/v1/liquidity_provision/simulate": "liquidity",
};

/** What Koa sends with a JSON object body (koa `response.body` setter and `respond`). */
const JSON_TYPE = "application/json; charset=utf-8";

/** Where an answered quote goes besides the response: the response memo's `keep`. */
export type KeepAnswer = (
  req: IncomingMessage,
  headers: Record<string, string | number>,
  body: string,
) => void;

/** A quote that failed in the lane: its error, for `laneErrors()` to throw in the Koa stack. */
const FAILED = Symbol("tondex.quoteLane.failed");
type LaneRequest = IncomingMessage & { [FAILED]?: { error: unknown } };

/** Koa middleware: a request the lane failed to quote fails here with the lane's error. */
export function laneErrors(): Middleware {
  return async (ctx: Context, next: Next) => {
    const failed = (ctx.req as LaneRequest)[FAILED];
    if (failed !== undefined) throw failed.error;
    return next();
  };
}

/** Only requests without a body and without headers another layer would answer differently. */
function plain(req: IncomingMessage): boolean {
  const h = req.headers;
  const length = h["content-length"];
  return (
    (length === undefined || length === "0") && h["transfer-encoding"] === undefined && h.origin === undefined
  );
}

// Per request, module functions rather than closures: the tsx transform names every named closure it
// makes (a property definition each time).

/** Not a quote (4xx/5xx): Koa answers it, with the error rendered where every error is. */
function toKoa(req: IncomingMessage, res: ServerResponse, next: RequestListener, error: unknown): void {
  (req as LaneRequest)[FAILED] = { error };
  next(req, res);
}

function send(req: IncomingMessage, res: ServerResponse, answer: SwapAnswer, keep?: KeepAnswer): void {
  // The JSON text Koa sends for the answer's object (`SwapAnswer.json`).
  sendJson(req, res, answer.json(), keep);
}

/** Sent as text: node:http writes it with the head in one write. */
function sendJson(req: IncomingMessage, res: ServerResponse, body: string, keep?: KeepAnswer): void {
  const headers = { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) };
  keep?.(req, headers, body);
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
}

export function quoteLane(deps: ApiDeps, next: RequestListener, keep?: KeepAnswer): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const mode = req.method === "POST" ? QUOTE_PATHS[q < 0 ? url : url.slice(0, q)] : undefined;
    if (mode === undefined || q < 0 || !plain(req)) return next(req, res);
    const params = parseQuery(url.slice(q + 1));
    if (mode === "liquidity") return liquidity(deps, params, req, res, next, keep);
    // The plain query of a quote without zod (its per-field machinery costs more than the quote); the
    // schema itself for anything else.
    let query = quoteQuery(params);
    if (query === undefined) {
      const parsed = swapSimulateQuery.safeParse(params);
      if (!parsed.success) return next(req, res);
      query = parsed.data;
    }
    // At once when everything the quote reads is in memory (no promise per read); else awaited.
    let now: SwapAnswer | undefined;
    try {
      now = bestSwapAnswerNow(deps, query, mode);
    } catch (error) {
      return toKoa(req, res, next, error);
    }
    if (now !== undefined) return send(req, res, now, keep);
    bestSwapAnswer(deps, query, mode).then(
      (answer) => send(req, res, answer, keep),
      (error: unknown) => toKoa(req, res, next, error),
    );
  };
}

/** A liquidity simulation: the route's schema and answer; what Koa would send for its object (JSON.stringify). */
function liquidity(
  deps: ApiDeps,
  params: Record<string, unknown>,
  req: IncomingMessage,
  res: ServerResponse,
  next: RequestListener,
  keep: KeepAnswer | undefined,
): void {
  // As a quote's query: without zod for the queries it takes, the schema itself for anything else.
  let query = liquidityQuery(params);
  if (query === undefined) {
    const parsed = liquiditySimulateQuery.safeParse(params);
    if (!parsed.success) {
      next(req, res);
      return;
    }
    query = parsed.data;
  }
  // At once when everything the simulation reads is in memory; else awaited.
  let now: LiquiditySimulationDto | undefined;
  try {
    now = simulateLiquidityNow(deps, query);
  } catch (error) {
    toKoa(req, res, next, error);
    return;
  }
  if (now !== undefined) {
    sendJson(req, res, JSON.stringify(now), keep);
    return;
  }
  simulateLiquidity(deps, query).then(
    (body) => sendJson(req, res, body, keep),
    (error: unknown) => toKoa(req, res, next, error),
  );
}

async function simulateLiquidity(deps: ApiDeps, q: LiquiditySimulateQuery): Promise<string> {
  return JSON.stringify(await simulateLiquidityRequest(deps, q));
}
