/**
 * The one retry helper (STYLE practice 10, kafkajs `retry`): jittered exponential back-off, and a `bail`
 * that stops at once. By default only errors classified retryable (infra/errors.ts) are retried.
 */
import { isRetryable } from "./errors.ts";

export type RetryOptions = {
  /** Retries after the first attempt (0 = try once). */
  retries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  shouldRetry?: (error: unknown) => boolean;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
};

/** Production: about 15 s of patience in total (0.3 + 0.6 + ... capped at 5 s), enough to ride out a restart. */
export const RETRY_DEFAULTS = { retries: 6, initialDelayMs: 300, maxDelayMs: 5_000, factor: 2 } as const;
/** Tests: the same shape, milliseconds instead of seconds. */
export const RETRY_TEST_DEFAULTS = { retries: 3, initialDelayMs: 1, maxDelayMs: 5, factor: 2 } as const;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Delay before retry `attempt` (1-based): exponential, capped, then jittered into [50%, 100%]. */
export function backoffDelayMs(options: RetryOptions, attempt: number, random: () => number): number {
  const exponential = options.initialDelayMs * options.factor ** (attempt - 1);
  const capped = Math.min(options.maxDelayMs, exponential);
  return Math.round(capped * (0.5 + random() / 2));
}

class Bail {
  constructor(readonly error: unknown) {}
}

export async function retry<T>(
  fn: (attempt: number, bail: (error: unknown) => never) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const shouldRetry = options.shouldRetry ?? isRetryable;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  const bail = (error: unknown): never => {
    throw new Bail(error);
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt, bail);
    } catch (error) {
      if (error instanceof Bail) throw error.error;
      if (attempt >= options.retries || !shouldRetry(error)) throw error;
      const delayMs = backoffDelayMs(options, attempt + 1, random);
      options.onRetry?.(error, attempt + 1, delayMs);
      await wait(delayMs);
    }
  }
}
