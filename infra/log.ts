/**
 * Structured logs (pino), one JSON line per event. Created once in bin/ and passed down in the context.
 * Secrets never reach the output: values under secret key names (TON_API_KEY, passwords, authorization)
 * are censored at any depth, and passwords inside URLs (CLICKHOUSE_URL, REDIS_URL, ...) are masked in
 * both the logged objects and the message text.
 */
import { type DestinationStream, type LevelWithSilent, type Logger, pino } from "pino";
import { redactUrl, SECRET_KEYS } from "./redact.ts";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const CENSORED = "[redacted]";
const secretKeys = new Set<string>(SECRET_KEYS.map((k) => k.toLowerCase()));
/** Deep enough for a config object or an error cause chain; deeper values are left as they are. */
const MAX_DEPTH = 6;

function scrub(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactUrl(value);
  // bigint is not JSON: log amounts and lt as decimal strings.
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  // Errors are left to the `err` serializer below (pino runs serializers after this formatter).
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      secretKeys.has(k.toLowerCase()) && v !== null && v !== undefined ? CENSORED : scrub(v, depth + 1, seen);
  }
  return out;
}

export type LoggerOptions = {
  readonly level: LogLevel;
  /** Bound on every line, e.g. the subcommand ("process", "serve"). */
  readonly name?: string;
  /** Where lines go (default stdout); tests pass a collecting stream. */
  readonly destination?: DestinationStream;
};

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level as LevelWithSilent,
      ...(options.name !== undefined ? { name: options.name } : {}),
      serializers: {
        err: (error: Error) => scrub(pino.stdSerializers.err(error), 0, new WeakSet()),
      },
      formatters: {
        log: (object) => scrub(object, 0, new WeakSet()) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const clean = args.map((a) => (typeof a === "string" ? redactUrl(a) : a)) as Parameters<
            typeof method
          >;
          method.apply(this, clean);
        },
      },
    },
    options.destination,
  );
}
