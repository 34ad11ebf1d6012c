/**
 * The error taxonomy of the adapters (STYLE practice 7): errors are named by what the caller should do.
 * - `RetryableError`: the backing service is unavailable or slow (connection refused, timeout, too many
 *   queries); the same call may succeed later, so shells retry with back-off and never commit meanwhile.
 * - `NonRetryableError`: retrying cannot help (an SQL error, a schema mismatch, bad configuration); the
 *   consumer stops and the process exits through the structured logger.
 *
 * Checks go through the `tondexError` brand rather than `instanceof`, so they survive two copies of this
 * module in one process (squid's `isSqdForkException`).
 */

export type ErrorContext = Readonly<Record<string, unknown>>;
export type ErrorKind = "retryable" | "non_retryable";

export abstract class AppError extends Error {
  abstract readonly tondexError: ErrorKind;
  readonly context: ErrorContext;

  constructor(message: string, options: { cause?: unknown; context?: ErrorContext } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.context = options.context ?? {};
  }
}

export class RetryableError extends AppError {
  override name = "RetryableError";
  readonly tondexError = "retryable" as const;
}

export class NonRetryableError extends AppError {
  override name = "NonRetryableError";
  readonly tondexError = "non_retryable" as const;
}

/** Invalid configuration: every problem found, reported at once. */
export class ConfigError extends NonRetryableError {
  override name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join("; ")}`, { context: { problems } });
  }
}

function kindOf(error: unknown): ErrorKind | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const kind = (error as { tondexError?: unknown }).tondexError;
  return kind === "retryable" || kind === "non_retryable" ? kind : undefined;
}

export function isAppError(error: unknown): error is AppError {
  return kindOf(error) !== undefined;
}

/** True only for errors classified as retryable; unknown errors are not (a bug should not loop forever). */
export function isRetryable(error: unknown): boolean {
  return kindOf(error) === "retryable";
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
