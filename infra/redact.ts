/**
 * Secrets never reach logs or error messages: URL passwords (CLICKHOUSE_URL, REDIS_URL, KAFKA_BROKERS with
 * credentials) are replaced by `***`, and TON_API_KEY-like fields are censored by key name (infra/log.ts).
 */

const URL_WITH_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@]*):[^@\s/]*@/gi;

/** `http://user:secret@host:8123/db` → `http://user:***@host:8123/db`; any text, not only a lone URL. */
export function redactUrl(text: string): string {
  return text.replace(URL_WITH_PASSWORD, "$1:***@");
}

/** Key names whose values are secrets wherever they appear. */
export const SECRET_KEYS = ["tonApiKey", "TON_API_KEY", "apiKey", "password", "authorization"] as const;
