/**
 * A small JSON body reader (no body-parser dependency): reads at most `limitBytes`, parses JSON, and leaves
 * `ctx.request.body` as the parsed value, or `{}` when the request has no body — several POST routes take
 * their parameters from the query string and an optional body (api.md §1.4).
 */
import type { Context, Next } from "koa";
import { BadRequestError, HttpError } from "./errors.ts";

declare module "koa" {
  interface Request {
    body?: unknown;
  }
}

async function readText(ctx: Context, limitBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limitBytes)
      throw new HttpError(413, "body_too_large", `request body exceeds ${limitBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function jsonBody(limitBytes = 64 * 1024) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== "POST" && ctx.method !== "PUT" && ctx.method !== "PATCH") {
      ctx.request.body = {};
      return next();
    }
    const text = await readText(ctx, limitBytes);
    if (text.trim().length === 0) {
      ctx.request.body = {};
      return next();
    }
    const type = ctx.request.type;
    if (type !== "" && type !== "application/json" && !type.endsWith("+json")) {
      throw new HttpError(415, "unsupported_media_type", "request bodies must be application/json");
    }
    try {
      ctx.request.body = JSON.parse(text) as unknown;
    } catch {
      throw new BadRequestError("(body)", "not valid JSON", "invalid_json");
    }
    return next();
  };
}
