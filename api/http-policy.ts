/**
 * What browsers and proxies expect of the API: CORS (@koa/cors) and compression (koa-compress), as Koa
 * middleware placed before the error middleware, so error bodies get the same treatment.
 *
 * CORS: browser dApps call the API from other origins. `corsOrigins` is `*` (any origin) or a list of
 * exact origins; a request whose Origin is allowed gets `Access-Control-Allow-Origin`, and a preflight
 * (OPTIONS with Access-Control-Request-Method) is answered 204 for GET, HEAD and POST. A request without
 * an Origin is not a cross-origin request and gets no CORS headers from the middleware; every response
 * says `Vary: Origin` (`withVaryOrigin`, at the listener, so answers given without Koa say it too), as
 * a shared cache must not hand a browser an answer stored for another origin.
 *
 * Compression: JSON and other compressible bodies of at least `compressMinBytes` are sent br or gzip
 * (deflate too) when the client accepts it; `Vary: Accept-Encoding` is set. Not the routes the response
 * memo and the quote lane answer without Koa (swap quotes): their answers are about 1 KB, sent at the
 * highest rates, and compressing each would cost more than it saves; leaving them out of compression
 * everywhere keeps Koa's answer and the fast paths' byte for byte the same.
 */
import type { RequestListener } from "node:http";
import cors from "@koa/cors";
import type { Middleware } from "koa";
import compress from "koa-compress";

export type HttpPolicy = {
  /** `*` or exact origins (`https://app.example`). */
  readonly corsOrigins: "*" | readonly string[];
  /** Smallest body compressed, in bytes. */
  readonly compressMinBytes: number;
};

export const DEFAULT_HTTP_POLICY: HttpPolicy = { corsOrigins: "*", compressMinBytes: 1024 };

/** Preflight answers are reused by browsers for this long (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = 600;

export function corsMiddleware(policy: HttpPolicy): Middleware {
  const allowed = policy.corsOrigins === "*" ? null : new Set(policy.corsOrigins);
  const middleware = cors({
    // The allowed origin, or '' (no CORS headers): a listed origin is echoed, `*` answers any origin.
    origin: (ctx) => {
      const origin = ctx.get("Origin");
      if (allowed === null) return "*";
      return allowed.has(origin) ? origin : "";
    },
    allowMethods: ["GET", "HEAD", "POST"],
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
  return (ctx, next) => (ctx.get("Origin") === "" ? next() : middleware(ctx, next));
}

export function compressMiddleware(
  policy: HttpPolicy,
  uncompressedPaths: { has(path: string): boolean },
): Middleware {
  const middleware = compress({ threshold: policy.compressMinBytes });
  return (ctx, next) => (uncompressedPaths.has(ctx.path) ? next() : middleware(ctx, next));
}

/** Every answer, from Koa or a fast path in front of it, says that it depends on the Origin. */
export function withVaryOrigin(next: RequestListener): RequestListener {
  return (req, res) => {
    res.setHeader("Vary", "Origin");
    next(req, res);
  };
}
