/**
 * Classifies what `@clickhouse/client` (HTTP or chdb) throws into the taxonomy of infra/errors.ts:
 * unavailability and overload are retryable, everything the server rejects as a query is not.
 */
import { type AppError, errorMessage, NonRetryableError, RetryableError } from "../errors.ts";
import { redactUrl } from "../redact.ts";

/** Node socket errors meaning "the server is not there (yet)": a restart or network blip. */
const RETRYABLE_SYSTEM_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  // DNS failure: in a container orchestrator the service name often resolves only after start-up.
  "ENOTFOUND",
]);

/**
 * ClickHouse exception codes (src/Common/ErrorCodes.cpp) for overload or transient unavailability.
 * Everything else the server returns (syntax, unknown identifier, type mismatch, ...) is a bug or a schema
 * mismatch that no retry will fix.
 */
const RETRYABLE_CLICKHOUSE_CODES = new Set([
  "159", // TIMEOUT_EXCEEDED
  "202", // TOO_MANY_SIMULTANEOUS_QUERIES
  "203", // NO_FREE_CONNECTION
  "209", // SOCKET_TIMEOUT
  "210", // NETWORK_ERROR
  "241", // MEMORY_LIMIT_EXCEEDED (the server's total limit is usually shared with other queries)
  "242", // TABLE_IS_READ_ONLY (replica lost its keeper session)
  "252", // TOO_MANY_PARTS (merges are behind; back off)
  "279", // ALL_CONNECTION_TRIES_FAILED
  "319", // UNKNOWN_STATUS_OF_INSERT
  "999", // KEEPER_EXCEPTION
]);

/** The client's own socket timeout ("Timeout error.") and a dropped keep-alive socket. */
const RETRYABLE_MESSAGES = [/^Timeout error\./, /socket hang up/i];

function field(error: unknown, name: string): unknown {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>)[name] : undefined;
}

export function isRetryableStoreFailure(error: unknown): boolean {
  const code = field(error, "code");
  if (typeof code === "string" && RETRYABLE_SYSTEM_CODES.has(code)) return true;
  // ClickHouseError: `code` is the numeric exception code as a string, `type` its name.
  if (typeof code === "string" && /^\d+$/.test(code)) return RETRYABLE_CLICKHOUSE_CODES.has(code);
  // chdb's own errors (ChdbQueryError, ChdbInsertError) carry the engine code as a number.
  const engineCode = field(error, "clickhouseCode");
  if (typeof engineCode === "number") return RETRYABLE_CLICKHOUSE_CODES.has(String(engineCode));
  const message = errorMessage(error);
  if (RETRYABLE_MESSAGES.some((re) => re.test(message))) return true;
  const cause = field(error, "cause");
  return cause !== undefined && cause !== error && isRetryableStoreFailure(cause);
}

export type StoreOperation = "open" | "query" | "command" | "insert" | "ping" | "migrate";

/** Wraps a client failure with what was being done; the SQL is cut short and URLs lose their passwords. */
export function classifyStoreError(
  error: unknown,
  operation: StoreOperation,
  details: { sql?: string; table?: string } = {},
): AppError {
  if (typeof error === "object" && error !== null && "tondexError" in error) return error as AppError;
  const code = field(error, "code");
  const type = field(error, "type");
  const message = redactUrl(errorMessage(error));
  const context = {
    operation,
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof type === "string" ? { type } : {}),
    ...(details.table !== undefined ? { table: details.table } : {}),
    ...(details.sql !== undefined ? { sql: details.sql.replace(/\s+/g, " ").trim().slice(0, 200) } : {}),
  };
  const text = `ClickHouse ${operation}${details.table ? ` into ${details.table}` : ""} failed: ${message}`;
  return isRetryableStoreFailure(error)
    ? new RetryableError(text, { cause: error, context })
    : new NonRetryableError(text, { cause: error, context });
}
