/**
 * HTTP client for toncenter's index API v3 (public toncenter.com, or a self-hosted ton-indexer) and its v2
 * endpoints behind the same host. Shared by the mainnet source (ingest/mainnet) and chain-state reads, so one
 * token bucket bounds every request the process makes to one API key.
 *
 * Facts it relies on:
 * - Rate limits (docs.ton.org/ecosystem/api/toncenter/rate-limit): 1 request/s without a key, 10 with a free
 *   key; over the limit the API answers HTTP 429 with `{"ok": false, "result": "Ratelimit exceed", "code": 429}`
 *   and asks clients to back off exponentially. The key goes in the `X-API-Key` header.
 * - ton-index-go (toncenter/ton-indexer `ton-index-go/index/models/types.go`, `RequestError`) answers its own
 *   errors as `{"error": "<message>"}` with a 4xx/5xx status; the v2 API answers `{"ok": false, "error": …,
 *   "code": …}`. Both shapes are read for the error message.
 *
 * Every answer is parsed with a zod schema; a mismatch is a NonRetryableError naming the field path.
 */
import type { z } from "zod";
import { AppError, NonRetryableError, RetryableError } from "../errors.ts";
import type { Metrics } from "../metrics.ts";
import { backoffDelayMs, type RetryOptions, sleep as realSleep } from "../retry.ts";

export type QueryValue = string | number | bigint | boolean | undefined | readonly (string | number)[];
export type Query = Readonly<Record<string, QueryValue>>;

/** What the client reports; infra/metrics.ts `toncenterMetrics(metrics)` adapts the Prometheus counters. */
export type ToncenterObserver = {
  /** One HTTP attempt ended: `outcome` is the status code, or "timeout" / "network". */
  request?(endpoint: string, outcome: string): void;
  /** An attempt is being retried after `reason` (the outcome that failed). */
  retry?(endpoint: string, reason: string, delayMs: number): void;
  /** Time a request waited for a rate-limit token (only reported when > 0). */
  rateLimitWait?(ms: number): void;
};

export type ToncenterClientOptions = {
  /** Base URL, e.g. https://toncenter.com (paths like /api/v3/masterchainInfo are appended). */
  readonly url: string;
  readonly apiKey?: string | undefined;
  /** The plan's limit: every request of this client (all endpoints, all callers) fits within it. */
  readonly requestsPerSecond: number;
  /** Requests allowed back to back before spacing applies (default 1: strictly spaced, never a burst over the limit). */
  readonly burst?: number;
  /** Per attempt, including reading the body. */
  readonly timeoutMs: number;
  /** Retry policy for 429, 5xx, timeouts and network errors (default TONCENTER_RETRY_DEFAULTS). */
  readonly retry?: Partial<Pick<RetryOptions, "retries" | "initialDelayMs" | "maxDelayMs" | "factor">>;
  readonly observer?: ToncenterObserver;
  /** Injected for tests. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  readonly random?: () => number;
};

/**
 * A follower must outlast a short outage or a burst of 429s rather than crash: about a minute of patience
 * (0.5 s doubling, capped at 10 s) before the error reaches the caller, who may retry the whole block.
 */
export const TONCENTER_RETRY_DEFAULTS = {
  retries: 10,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
  factor: 2,
} as const;

/** An HTTP answer that is an error; `status` and the API's own message kept for the caller. */
export class ToncenterHttpError extends AppError {
  override name = "ToncenterHttpError";
  readonly tondexError: "retryable" | "non_retryable";
  constructor(
    readonly endpoint: string,
    readonly status: number,
    readonly apiMessage: string,
    readonly retryAfterMs: number | null,
  ) {
    super(`toncenter ${endpoint}: HTTP ${status}${apiMessage ? `: ${apiMessage}` : ""}`, {
      context: { endpoint, status },
    });
    // 429 (rate limit), 408 and 5xx are the server's state, not the request's fault.
    this.tondexError = status === 429 || status === 408 || status >= 500 ? "retryable" : "non_retryable";
  }
}

/** An answer that does not have the documented shape: retrying would return the same. */
export class ToncenterSchemaError extends NonRetryableError {
  override name = "ToncenterSchemaError";
}

/**
 * Token bucket in its GCRA form: `tat` is the theoretical arrival time of the next request. Reservations are
 * taken synchronously, so concurrent callers are served in call order and never exceed the rate together.
 */
export class RateLimiter {
  private tat = 0;
  private readonly intervalMs: number;
  constructor(
    requestsPerSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    if (!(requestsPerSecond > 0))
      throw new NonRetryableError(`requestsPerSecond must be > 0, got ${requestsPerSecond}`);
    this.intervalMs = 1000 / requestsPerSecond;
  }

  /** Milliseconds the caller must wait before sending; the slot is reserved. */
  reserve(): number {
    const now = this.now();
    const tat = Math.max(this.tat, now);
    const sendAt = tat - (this.burst - 1) * this.intervalMs;
    this.tat = tat + this.intervalMs;
    return Math.max(0, sendAt - now);
  }

  /** The server said to wait (Retry-After): nobody sends before `ms` from now. */
  pause(ms: number): void {
    this.tat = Math.max(this.tat, this.now() + ms + (this.burst - 1) * this.intervalMs);
  }
}

type Outcome = { endpoint: string; reason: string; error: unknown; retryAfterMs: number | null };

export class ToncenterClient {
  private readonly base: string;
  private readonly limiter: RateLimiter;
  private readonly retryOptions: RetryOptions;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: ToncenterClientOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.limiter = new RateLimiter(options.requestsPerSecond, options.burst ?? 1, options.now ?? Date.now);
    this.retryOptions = { ...TONCENTER_RETRY_DEFAULTS, ...options.retry };
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
  }

  get<S extends z.ZodTypeAny>(path: string, query: Query, schema: S): Promise<z.output<S>> {
    return this.request("GET", `${path}${queryString(query)}`, path, undefined, schema);
  }

  post<S extends z.ZodTypeAny>(path: string, body: unknown, schema: S): Promise<z.output<S>> {
    return this.request("POST", path, path, JSON.stringify(body), schema);
  }

  private async request<S extends z.ZodTypeAny>(
    method: string,
    pathAndQuery: string,
    endpoint: string,
    body: string | undefined,
    schema: S,
  ): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      const waitMs = this.limiter.reserve();
      if (waitMs > 0) {
        this.options.observer?.rateLimitWait?.(waitMs);
        await this.sleep(waitMs);
      }
      const result = await this.attempt(method, pathAndQuery, endpoint, body);
      if (!("reason" in result)) return parseAnswer(method, endpoint, result.json, schema);
      const retryable = result.error instanceof AppError && result.error.tondexError === "retryable";
      if (!retryable || attempt >= this.retryOptions.retries) throw result.error;
      const backoff = backoffDelayMs(this.retryOptions, attempt + 1, this.random);
      if (result.retryAfterMs !== null) this.limiter.pause(result.retryAfterMs);
      const delayMs = Math.max(backoff, result.retryAfterMs ?? 0);
      this.options.observer?.retry?.(endpoint, result.reason, delayMs);
      await this.sleep(delayMs);
    }
  }

  /** One HTTP exchange: the parsed JSON, or the classified failure. */
  private async attempt(
    method: string,
    pathAndQuery: string,
    endpoint: string,
    body: string | undefined,
  ): Promise<{ json: unknown } | Outcome> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.options.apiKey) headers["x-api-key"] = this.options.apiKey;
    const observe = (outcome: string) => this.options.observer?.request?.(endpoint, outcome);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(`${this.base}${pathAndQuery}`, {
        method,
        headers,
        body: body ?? null,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await response.text();
    } catch (cause) {
      const timeout =
        cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
      const reason = timeout ? "timeout" : "network";
      observe(reason);
      const message = timeout
        ? `toncenter ${endpoint}: no answer within ${this.options.timeoutMs} ms`
        : `toncenter ${endpoint}: ${cause instanceof Error ? cause.message : String(cause)}`;
      return {
        endpoint,
        reason,
        retryAfterMs: null,
        error: new RetryableError(message, { cause, context: { endpoint } }),
      };
    }
    observe(String(response.status));
    if (response.ok) {
      try {
        return { json: JSON.parse(text) };
      } catch {
        // A proxy's HTML error page with a 200: treat as the server being unwell.
        const error = new RetryableError(`toncenter ${endpoint}: answer is not JSON: ${text.slice(0, 120)}`);
        return { endpoint, reason: "not_json", retryAfterMs: null, error };
      }
    }
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now());
    const error = new ToncenterHttpError(endpoint, response.status, errorText(text), retryAfterMs);
    return { endpoint, reason: String(response.status), retryAfterMs, error };
  }
}

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function parseAnswer<S extends z.ZodTypeAny>(
  method: string,
  endpoint: string,
  json: unknown,
  schema: S,
): z.output<S> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `/${i.path.join("/")}: ${i.message}`);
  throw new ToncenterSchemaError(
    `toncenter ${method} ${endpoint}: unexpected answer at ${issues.join("; ")}`,
    {
      context: { endpoint, path: parsed.error.issues[0]?.path.join("/") },
    },
  );
}

/** The API's message from either error shape, else the start of the body. */
export function errorText(text: string): string {
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === "object") {
      const o = json as Record<string, unknown>;
      for (const key of ["error", "result", "message"])
        if (typeof o[key] === "string") return o[key] as string;
    }
  } catch {
    // not JSON: fall through
  }
  return text.slice(0, 200).trim();
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === "") return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** The client's observer over the Prometheus counters of infra/metrics.ts. */
export function metricsObserver(
  metrics: Pick<Metrics, "apiRequests" | "apiRetries" | "apiRateLimitWaitSeconds">,
): ToncenterObserver {
  return {
    request: (endpoint, outcome) => metrics.apiRequests.inc({ endpoint, outcome }),
    retry: (endpoint, reason) => metrics.apiRetries.inc({ endpoint, reason }),
    rateLimitWait: (ms) => metrics.apiRateLimitWaitSeconds.inc(ms / 1000),
  };
}
