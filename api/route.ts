/**
 * The one place that knows koa-swagger-decorator (STYLE risk note: its last release is from 2023).
 * Controllers use `@route({...})` and `Args<...>` from here; `buildRouter` mounts them and
 * `openApiDocument` renders the OpenAPI 3 document. Replacing the library means rewriting this file only.
 *
 * How the library behaves, and what this file does about it:
 * - it validates `request.query` / `request.params` (zod `parse`) and the `@body` schema before the
 *   handler runs; a ZodError reaches the error middleware, which answers 400 with the field paths;
 * - it never validates responses, so the API tests parse every body with the route's response schema;
 * - one decorated method is one route, so aliases become generated methods delegating to the original;
 * - its registry is global and re-registers every route on each document build, so the document is
 *   built once per process;
 * - it extends its own (CommonJS) copy of zod with `.openapi()`, while our schemas come from the ESM copy,
 *   so the same extension is applied to ours before the first document build.
 */
import { createRequire } from "node:module";
import type { Context, Middleware } from "koa";
import {
  body as bodyDecorator,
  registry,
  responses as responsesDecorator,
  routeConfig,
  SwaggerRouter,
} from "koa-swagger-decorator";
import { prepareDocs } from "koa-swagger-decorator/dist/lib/swagger-builder.js";
import { type AnyZodObject, type ZodTypeAny, z } from "zod";
import { errorBody } from "../schemas/api/objects.ts";
import { HTTP_METHODS } from "./errors.ts";
import { withAddressExamples } from "./openapi-examples.ts";

export type HttpMethod = "get" | "post";

export type RouteSpec = {
  method: HttpMethod;
  /** OpenAPI path syntax: `/v1/pools/{address}`. */
  path: string;
  /** Other paths answering the same request (legacy and documented variants). */
  aliases?: readonly { method: HttpMethod; path: string }[];
  summary: string;
  tags: readonly string[];
  query?: AnyZodObject;
  params?: AnyZodObject;
  /** JSON body; an empty body is read as `{}` (see api/body.ts). */
  body?: AnyZodObject;
  response: ZodTypeAny;
  description?: string;
  /**
   * The response is a function of the request and the indexed data alone (no clock, no live wallet
   * reads), so api/response-memo.ts may answer repeats from memory. Only for paths without parameters.
   * `{ unless }`: the same, except for requests whose query names one of these parameters (a live read of
   * a wallet's contracts).
   */
  memo?: true | { readonly unless: readonly string[] };
};

type Out<S, Fallback> = S extends ZodTypeAny ? z.output<S> : Fallback;

/** What a handler receives: the parsed query, path params and body. */
export type Args<Q = undefined, P = undefined, B = undefined> = {
  query: Out<Q, Record<string, unknown>>;
  params: Out<P, Record<string, string>>;
  body: Out<B, unknown>;
};

const ERROR_REF = "ErrorBody";
const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ERROR_REF}` } } },
});

type Method = (...args: unknown[]) => unknown;

function decorate(
  target: object,
  name: string,
  descriptor: PropertyDescriptor,
  spec: RouteSpec,
  at: {
    method: HttpMethod;
    path: string;
    deprecated: boolean;
  },
): void {
  routeConfig({
    method: at.method,
    path: at.path,
    summary: spec.summary,
    description: spec.description,
    tags: [...spec.tags],
    deprecated: at.deprecated || undefined,
    request: { query: spec.query, params: spec.params },
    responses: {
      400: errorResponse("invalid parameter (the message and details name the field)"),
      404: errorResponse("unknown address or route"),
      422: errorResponse("well-formed, but no pool can answer it"),
      431: errorResponse("request line or headers too large (the URL is limited to about 16 KB)"),
      503: errorResponse("a backing service is unavailable"),
    },
  })(target, name, descriptor);
  if (spec.body) bodyDecorator(spec.body)(target, name, descriptor);
  // The decorator is typed for objects only; unions (swap status) are registered the same way.
  responsesDecorator(spec.response as AnyZodObject)(target, name, descriptor);
}

const memoizable = new Map<string, readonly string[]>();

/**
 * The paths (and alias paths) of every route declared with `memo`, each with the query parameters whose
 * presence makes a request of it not memoizable (none for `memo: true`).
 */
export function memoizablePaths(): ReadonlyMap<string, readonly string[]> {
  return memoizable;
}

/** Every fixed path (no `{param}`) declared, with the methods it serves. */
const fixedPaths = new Map<string, Set<string>>();

/**
 * A fixed path wins over a template that also matches it (OpenAPI's rule: `/v1/pools/query` is not the
 * pool `query`), so a method the fixed path does not serve is 405 with its Allow list, not a 400 about
 * the template's parameter. Leaves the status bodiless for the error middleware to render.
 */
export function fixedPathMethods(): Middleware {
  return async (ctx, next) => {
    const methods = fixedPaths.get(ctx.path.length > 1 ? ctx.path.replace(/\/$/, "") : ctx.path);
    if (methods === undefined || methods.has(ctx.method) || !HTTP_METHODS.has(ctx.method)) return next();
    if (ctx.method === "OPTIONS") return next();
    if (ctx.method === "HEAD" && methods.has("GET")) return next();
    ctx.status = 405;
    ctx.set("Allow", [...methods, ...(methods.has("GET") ? ["HEAD"] : [])].join(", "));
  };
}

/** Method decorator: declares a route (and its aliases) with its zod schemas. */
export function route(spec: RouteSpec) {
  for (const at of [spec, ...(spec.aliases ?? [])]) {
    if (at.path.includes("{")) continue;
    const methods = fixedPaths.get(at.path) ?? new Set<string>();
    fixedPaths.set(at.path, methods.add(at.method.toUpperCase()));
  }
  if (spec.memo !== undefined) {
    const unless = spec.memo === true ? [] : spec.memo.unless;
    for (const at of [spec, ...(spec.aliases ?? [])]) {
      if (at.path.includes("{")) throw new Error(`memo needs a fixed path, not ${at.path}`);
      memoizable.set(at.path, unless);
    }
  }
  return (target: object, name: string, descriptor: PropertyDescriptor): PropertyDescriptor => {
    decorate(target, name, descriptor, spec, { method: spec.method, path: spec.path, deprecated: false });
    const original = descriptor.value as Method;
    (spec.aliases ?? []).forEach((alias, i) => {
      const aliasName = `${name}Alias${i + 1}`;
      const aliasDescriptor: PropertyDescriptor = {
        value(this: unknown, ...args: unknown[]) {
          return original.apply(this, args);
        },
        writable: true,
        configurable: true,
      };
      decorate(target, aliasName, aliasDescriptor, spec, { ...alias, deprecated: true });
      Object.defineProperty(target, aliasName, aliasDescriptor);
    });
    return descriptor;
  };
}

export type ControllerClass = new (ctx: Context) => object;

/** A Koa router serving every decorated method of `controllers`. */
export function buildRouter(controllers: readonly ControllerClass[]): SwaggerRouter {
  const router = new SwaggerRouter({
    spec: { info: { title: "tondex — STON.fi API v1 compatible", version: "1.168.0" } },
  });
  for (const controller of controllers) router.applyRoute(controller);
  return router;
}

let document: object | null = null;

/** The OpenAPI 3 document of every decorated route; built on first use, then reused. */
export function openApiDocument(): object {
  if (document === null) {
    const libraryRequire = createRequire(createRequire(import.meta.url).resolve("koa-swagger-decorator"));
    const { extendZodWithOpenApi } = libraryRequire("@asteasolutions/zod-to-openapi") as {
      extendZodWithOpenApi: (zod: typeof z) => void;
    };
    extendZodWithOpenApi(z);
    registry.register(ERROR_REF, errorBody);
    document = withAddressExamples(prepareDocs() as object);
  }
  return document;
}
