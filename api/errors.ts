/**
 * HTTP errors and the one error middleware that renders them. Every failure leaves as
 * `{"error": {"code", "message", "details"}}`: 4xx messages are shown, 5xx messages are generic and the
 * cause is only logged (koa `error-handling.md`). Bad input never reaches 500: zod errors, AMM input
 * errors and malformed JSON become 4xx naming the field; a backing service that is down becomes 503.
 */
import type { Context, Next } from "koa";
import { ZodError } from "zod";
import { isAmmInputError } from "../dex/amm/index.ts";
import { isRetryable } from "../infra/errors.ts";

export type FieldIssue = { field: string; message: string };

export class HttpError extends Error {
  override name = "HttpError";
  readonly isHttpError = true;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** 4xx messages are meant for the caller; 5xx messages may carry internals, so they are hidden. */
    readonly expose = status < 500,
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  /** `field` is the wire name of the offending parameter (e.g. `referral_fee_bps`). */
  constructor(field: string, message: string, code = "invalid_parameter") {
    super(400, code, `invalid parameter '${field}': ${message}`, [{ field, message }]);
  }
}

export class NotFoundError extends HttpError {
  constructor(what: string, details?: unknown) {
    super(404, "not_found", `${what} not found`, details);
  }
}

/** The request is well-formed but cannot be answered (e.g. no pool can pay the requested output). */
export class UnprocessableError extends HttpError {
  constructor(code: string, message: string, details?: unknown) {
    super(422, code, message, details);
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(message = "a backing service is unavailable, retry later") {
    super(503, "service_unavailable", message, undefined, true);
  }
}

export function isHttpError(e: unknown): e is HttpError {
  return typeof e === "object" && e !== null && (e as { isHttpError?: unknown }).isHttpError === true;
}

/** Connection-level failures of a backing service (Node system errors and undici codes). */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENOTFOUND",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/**
 * A backing service is down (the answer is 503): retryable by brand — infra's `RetryableError`
 * (`tondexError: "retryable"`) or `retryable: true` (ReadModelUnavailableError) — or a connection error
 * code, here or in the `cause` chain. Wider than infra's `isRetryable`, which trusts brands only.
 */
export function isServiceUnavailable(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  if (isRetryable(e)) return true;
  const o = e as { retryable?: unknown; code?: unknown; cause?: unknown };
  if (o.retryable === true) return true;
  if (typeof o.code === "string" && UNAVAILABLE_CODES.has(o.code)) return true;
  return o.cause !== undefined && o.cause !== e && isServiceUnavailable(o.cause);
}

function zodIssues(e: ZodError): FieldIssue[] {
  return e.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join(".") : "(root)",
    message: issue.message,
  }));
}

/** Any thrown value → the HttpError to answer with. Unknown errors become a generic 500. */
export function toHttpError(e: unknown): HttpError {
  if (isHttpError(e)) return e;
  if (e instanceof ZodError) {
    const issues = zodIssues(e);
    const first = issues[0] ?? { field: "(root)", message: "invalid" };
    return new HttpError(
      400,
      "invalid_parameter",
      `invalid parameter '${first.field}': ${first.message}`,
      issues,
    );
  }
  if (isAmmInputError(e)) {
    return new HttpError(
      422,
      e.code,
      e.message,
      e.field ? [{ field: e.field, message: e.message }] : undefined,
    );
  }
  if (isServiceUnavailable(e)) return new ServiceUnavailableError();
  const status = (e as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    // Koa's own client errors (http-errors), e.g. a malformed URL.
    return new HttpError(status, "bad_request", e instanceof Error ? e.message : "bad request");
  }
  return new HttpError(500, "internal_error", "internal server error");
}

export type ErrorLogger = { error(obj: object, msg?: string): void };

/** The one error body: `details` is always there (an empty list when there is nothing to add). */
export function errorBodyOf(error: HttpError): {
  error: { code: string; message: string; details: unknown };
} {
  return {
    error: {
      code: error.code,
      message: error.expose ? error.message : "internal server error",
      details: error.details !== undefined && error.expose ? error.details : [],
    },
  };
}

/** HTTP's own methods (RFC 9110 §9.3, PATCH, and QUERY, the IETF's safe method with a body, which Node parses). */
export const HTTP_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "DELETE",
  "CONNECT",
  "OPTIONS",
  "TRACE",
  "PATCH",
  "QUERY",
]);

/** An answer the router left without a body (no route, a method it does not serve) as an HttpError. */
function unmatched(ctx: Context): HttpError | null {
  if (ctx.body !== undefined && ctx.body !== null) return null;
  const where = `${ctx.method} ${ctx.path}`;
  if (ctx.status === 404) return new NotFoundError(`route ${where}`);
  const allowed = ctx.response.get("Allow");
  const details = allowed === "" ? [] : [{ field: "method", message: `allowed: ${allowed}` }];
  // The router calls every method outside its own list unimplemented (501), TRACE among them; but an
  // HTTP method is known to this server and only not served by the route: 405. 501 stays for methods it
  // does not know at all (WebDAV's PROPFIND).
  if (ctx.status === 405 || (ctx.status === 501 && HTTP_METHODS.has(ctx.method)))
    return new HttpError(405, "method_not_allowed", `method not allowed: ${where}`, details);
  if (ctx.status === 501)
    return new HttpError(501, "not_implemented", `method not implemented: ${where}`, details, true);
  return null;
}

/** First in the chain: renders errors, and turns unmatched routes (404/405/501 without a body) into errors. */
export function errorMiddleware(logger: ErrorLogger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      const error = unmatched(ctx);
      if (error !== null) throw error;
    } catch (e) {
      const error = toHttpError(e);
      if (error.status >= 500 && error.status !== 501) {
        logger.error({ err: e, method: ctx.method, path: ctx.path }, "request failed");
      }
      ctx.status = error.status;
      ctx.body = errorBodyOf(error);
    }
  };
}

/**
 * Node's HTTP parser refuses some requests before Koa sees them: a request line or headers over the limit
 * (431), a malformed request (400). Answer those in the same JSON error shape, then let the client finish
 * sending before the connection closes (closing while it still writes would reset the connection and hide
 * the answer).
 */
export function handleClientError(
  err: Error & { code?: string },
  socket: import("node:stream").Duplex,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const error = tooLarge
    ? new HttpError(
        431,
        "request_header_fields_too_large",
        "request line or headers too large (the URL is limited to about 16 KB)",
      )
    : new HttpError(400, "bad_request", "malformed HTTP request");
  const body = JSON.stringify(errorBodyOf(error));
  const reason = tooLarge ? "Request Header Fields Too Large" : "Bad Request";
  socket.on("error", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${error.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  socket.resume();
  setTimeout(() => socket.destroy(), 5_000).unref();
}
