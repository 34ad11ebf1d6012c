/**
 * `openStore`: the one door to ClickHouse. Both deployments use `@clickhouse/client`:
 * - embedded (CLICKHOUSE_URL unset): the chdb engine in this process, data under `${dataDir}/clickhouse`
 *   (`createClient({ connection: createChdbConnection({ path }) })`);
 * - server (CLICKHOUSE_URL set): a ClickHouse server over HTTP, refused below version 24.8.
 *
 * Every call sends STORE_SETTINGS, so results look the same on every engine version; callers get rows
 * validated by their zod schema, and every failure classified retryable or not (./errors.ts).
 * `insertAll` (a processed batch: its fact tables, then the cursor) is written by a worker thread on the
 * embedded engine (./insert-worker.ts), so the processor works on the next batch meanwhile.
 */
import { resolve } from "node:path";
import {
  type ClickHouseClient,
  ClickHouseLogLevel,
  type ClickHouseSettings,
  createClient,
} from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";
import type { z } from "zod";
import { formatZodError } from "../../schemas/raw-transaction.ts";
import { NonRetryableError } from "../errors.ts";
import { stringifyJson } from "../json.ts";
import { redactUrl } from "../redact.ts";
import { classifyStoreError } from "./errors.ts";
import {
  InsertFailed,
  InsertThreadGone,
  type InsertWorker,
  startInsertWorker,
  type ThreadInsert,
} from "./insert-worker.ts";
import { jsonEachRow } from "./row-json.ts";

/** The oldest server with everything the schema uses (UInt256, query parameters, modern settings). */
export const MIN_SERVER_VERSION = { major: 24, minor: 8 } as const;

/**
 * Sent with every query, never left to server defaults, because the defaults differ between versions
 * and chdb (shared/reference/infra.md §2.3).
 */
export const STORE_SETTINGS: ClickHouseSettings = {
  // UInt64/UInt256 as JSON strings: Node's JSON.parse would round bare numbers above 2^53.
  // (25.8 changed the default to 0; chdb 26.7 ships 0.)
  output_format_json_quote_64bit_integers: 1,
  // DateTime as unix seconds, the form rows are inserted in, so a row reads back equal to what was written.
  date_time_output_format: "unix_timestamp",
  // chdb defaults to async inserts; a batch must be written (and visible) when the insert returns,
  // because the bus commits right after.
  async_insert: 0,
  // A key the table does not have, or null in a non-Nullable column, is a bug to report, not to drop.
  input_format_skip_unknown_fields: 0,
  input_format_null_as_default: 0,
};

export type StoreOptions = {
  /** http(s) URL of a ClickHouse server (may name the database as its path); null: embedded chdb. */
  readonly clickhouseUrl: string | null;
  readonly dataDir: string;
  /** Per-request timeout for the HTTP client; the embedded engine has none. */
  readonly clickhouseRequestTimeoutMs?: number;
};

/** Bound query parameters: referenced in SQL as `{name:Type}`, never spliced into the text. */
export type QueryParams = Readonly<Record<string, unknown>>;
/**
 * How a query's rows are read: a zod schema, or a hand-written reader for the wide hot reads (thousands of
 * rows per request, where zod's per-row machinery cost more than the reading: api/queries/sql/fast-row.ts),
 * which returns the row or throws an Error naming the field that does not fit.
 */
export type RowSchema<T> = z.ZodType<T, z.ZodTypeDef, unknown> | RowReader<T>;
export type RowReader<T> = { readonly readRow: (row: Record<string, unknown>) => T };

export type Store = {
  readonly kind: "embedded" | "server";
  /** `SELECT version()` of the engine, e.g. "26.7.2.1". */
  readonly version: string;
  /** Runs a query (JSONEachRow) and validates each row with `schema`; a mismatch is a NonRetryableError. */
  query<T>(sql: string, schema: RowSchema<T>, params?: QueryParams): Promise<T[]>;
  /** DDL and other statements without a result. */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** One INSERT of all `rows` (JSONEachRow; bigints become decimal strings). */
  insert(table: string, rows: readonly object[]): Promise<void>;
  /**
   * `insert` of each entry (entries without rows are skipped), one after another, stopping at the first
   * failure: the entries after it are not written. The embedded engine writes them from a worker thread
   * (./insert-worker.ts), so the JS thread can work meanwhile.
   */
  insertAll(inserts: readonly TableRows[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type TableRows = { readonly table: string; readonly rows: readonly object[] };

type Version = { major: number; minor: number };

export function parseVersion(version: string): Version | null {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : null;
}

/** Throws a NonRetryableError naming the server's version and the minimum. */
export function checkServerVersion(version: string, where: string): void {
  const v = parseVersion(version);
  const min = MIN_SERVER_VERSION;
  if (v !== null && (v.major > min.major || (v.major === min.major && v.minor >= min.minor))) return;
  throw new NonRetryableError(
    `ClickHouse server at ${where} is version ${version || "(unknown)"}; tondex needs ${min.major}.${min.minor} or newer ` +
      "(UInt256 columns, {name:Type} query parameters). Upgrade the server, or unset CLICKHOUSE_URL to use the embedded engine.",
    { context: { version, minimum: `${min.major}.${min.minor}` } },
  );
}

/**
 * chdb runs one engine per process on one data path (a second path is rejected by the engine itself, and
 * two processes cannot share a path). This process-wide record mirrors that engine-level singleton so a
 * second path fails with a clear message, and opens of the same path share one client.
 */
/** The client's own console logging is off: every failure is thrown, classified, and logged by the caller. */
const QUIET = { level: ClickHouseLogLevel.OFF };

/**
 * chdb's connection is typed against @clickhouse/client-common 1.23.0 while @clickhouse/client 1.23.1
 * bundles its own copy of the same types; they differ only nominally (the runtime contract is the same,
 * which the integration tests exercise), hence the cast.
 */
type ClientConnection = NonNullable<Parameters<typeof createClient>[0]>["connection"];

type RawInsert = (table: string, rows: readonly object[]) => Promise<void>;
/** Writes the inserts in order; a failure of entry i is thrown as InsertFailed(i, error). */
type RawInsertAll = (inserts: readonly TableRows[]) => Promise<void>;
type EmbeddedHandle = {
  client: ClickHouseClient;
  rawInsert: RawInsert;
  rawInsertAll: RawInsertAll;
  /** Ends the insert thread (after its queued inserts), if it was started. */
  closeInserts: () => Promise<void>;
  version: string;
};
/** Set as soon as an open starts, so two concurrent opens of one path share one engine too. */
let embedded: { path: string; handle: Promise<EmbeddedHandle>; opens: number } | null = null;

/** STORE_SETTINGS that matter to an insert, for chdb's raw insert (which takes plain values). */
const INSERT_SETTINGS = {
  async_insert: 0,
  input_format_skip_unknown_fields: 0,
  input_format_null_as_default: 0,
};

const versionRow = (row: unknown): string => {
  const v = (row as { v?: unknown } | undefined)?.v;
  return typeof v === "string" ? v : "";
};

async function selectVersion(client: ClickHouseClient): Promise<string> {
  // Sent without STORE_SETTINGS: a server too old to know them must still answer, to be refused clearly.
  const rs = await client.query({ query: "SELECT version() AS v", format: "JSONEachRow" });
  const rows = await rs.json<unknown>();
  return versionRow(rows[0]);
}

async function openEmbedded(dataDir: string): Promise<EmbeddedHandle> {
  const path = resolve(dataDir, "clickhouse");
  if (embedded !== null) {
    if (embedded.path !== path) {
      throw new NonRetryableError(
        `the embedded ClickHouse engine (chdb) is already open at ${embedded.path} in this process; ` +
          `it cannot also open ${path} (one engine and one data path per process). ` +
          "Close the other store first, run a separate process, or set CLICKHOUSE_URL.",
        { context: { open: embedded.path, requested: path } },
      );
    }
    embedded.opens++;
    return embedded.handle;
  }
  const record = { path, handle: startEmbedded(path), opens: 1 };
  embedded = record;
  record.handle.catch(() => {
    if (embedded === record) embedded = null;
  });
  return record.handle;
}

async function startEmbedded(path: string): Promise<EmbeddedHandle> {
  let client: ClickHouseClient;
  let connection: ReturnType<typeof createChdbConnection>;
  try {
    connection = createChdbConnection({ path });
    client = createClient({
      connection: connection as unknown as ClientConnection,
      json: { parse: JSON.parse, stringify: stringifyJson },
      log: QUIET,
    });
  } catch (error) {
    throw classifyStoreError(error, "open", { sql: `chdb path ${path}` });
  }
  const version = await selectVersion(client).catch(async (error: unknown) => {
    await client.close();
    throw classifyStoreError(error, "open");
  });
  // Inserts bypass the client: its chdb path inlines the whole JSON body into one SQL string, which the
  // engine parses single-threaded; the raw insert hands a Buffer to chdb's parallel parser. Measured on
  // 100k swap rows (179 MB of JSON): ~10 s through the client, ~3.5 s raw (test/integration/store.test.ts).
  const rawInsert: RawInsert = async (table, rows) => {
    const values = jsonEachRow(rows);
    await connection.chdb.rawInsert({ table, values, format: "JSONEachRow", settings: INSERT_SETTINGS });
  };
  // Started on the first insertAll; null once it could not run (then this thread writes, as before).
  let worker: InsertWorker | null | undefined;
  const rawInsertAll: RawInsertAll = async (inserts) => {
    if (worker === undefined) {
      try {
        worker = startInsertWorker(path, INSERT_SETTINGS);
      } catch {
        worker = null;
      }
    }
    if (worker !== null) {
      const thread = worker;
      try {
        try {
          return await thread.run(inserts.map(forThread));
        } catch (error) {
          if (!(error instanceof Error && error.name === "DataCloneError")) throw error;
          // A value structured clone refuses (postMessage throws before sending): encode it all here.
          return await thread.run(inserts.map((i) => ({ table: i.table, values: jsonEachRow(i.rows) })));
        }
      } catch (error) {
        if (!(error instanceof InsertThreadGone)) throw error;
        // Whatever the thread wrote of this request is written again below: inserts are idempotent.
        worker = null;
      }
    }
    await sequentially(inserts, ({ table, rows }) => rawInsert(table, rows));
  };
  const closeInserts = async () => {
    const w = worker;
    worker = null;
    await w?.close();
  };
  return { client, rawInsert, rawInsertAll, closeInserts, version };
}

/**
 * Plain rows go to the insert thread as they are (it encodes them); rows a structured clone would change
 * (another prototype, whose toJSON or getters JSON.stringify would use) are encoded here.
 */
function forThread(insert: TableRows): ThreadInsert {
  for (const row of insert.rows) {
    const proto = Object.getPrototypeOf(row);
    if (proto !== Object.prototype && proto !== null) {
      return { table: insert.table, values: jsonEachRow(insert.rows) };
    }
  }
  return { table: insert.table, rows: insert.rows };
}

/** `write` for each entry in order; a failure of entry i is thrown as InsertFailed(i, error). */
async function sequentially<T>(inserts: readonly T[], write: (i: T) => Promise<unknown>): Promise<void> {
  for (const [index, i] of inserts.entries()) {
    try {
      await write(i);
    } catch (error) {
      throw new InsertFailed(index, error instanceof Error ? error : new Error(String(error)));
    }
  }
}

async function openServer(
  url: string,
  timeoutMs: number | undefined,
): Promise<{ client: ClickHouseClient; version: string }> {
  const client = createClient({
    url,
    ...(timeoutMs !== undefined ? { request_timeout: timeoutMs } : {}),
    json: { parse: JSON.parse, stringify: stringifyJson },
    log: QUIET,
  });
  try {
    const version = await selectVersion(client);
    checkServerVersion(version, redactUrl(url));
    return { client, version };
  } catch (error) {
    await client.close();
    throw classifyStoreError(error, "open");
  }
}

export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.clickhouseUrl === null) {
    const { client, rawInsert, rawInsertAll, closeInserts, version } = await openEmbedded(options.dataDir);
    let closed = false;
    return wrap(client, "embedded", version, rawInsert, rawInsertAll, async () => {
      if (closed) return;
      closed = true;
      if (embedded === null || --embedded.opens > 0) return;
      embedded = null;
      await closeInserts();
      await client.close();
    });
  }
  const { client, version } = await openServer(options.clickhouseUrl, options.clickhouseRequestTimeoutMs);
  const insert: RawInsert = async (table, rows) => {
    await client.insert({ table, values: rows, format: "JSONEachRow", clickhouse_settings: STORE_SETTINGS });
  };
  const insertAll: RawInsertAll = (inserts) => sequentially(inserts, (i) => insert(i.table, i.rows));
  return wrap(client, "server", version, insert, insertAll, () => client.close());
}

/**
 * The rows of a `JSONCompact` answer as the objects `JSONEachRow` gives (one per row, keyed by column name,
 * the same values). Read as one document: thousands of rows cost far less than one parse per row (the
 * client decodes and parses each JSONEachRow line apart; a 4,000-row export-feed range: ~13 ms less).
 */
function rowsOfCompact(answer: unknown): Record<string, unknown>[] {
  const { meta, data } = (answer ?? {}) as { meta?: unknown; data?: unknown };
  if (!Array.isArray(meta) || !Array.isArray(data))
    throw new NonRetryableError("ClickHouse answer without meta and data (JSONCompact)");
  const names = meta.map((m: { name?: unknown }) => String(m.name));
  return data.map((values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row;
  });
}

function wrap(
  client: ClickHouseClient,
  kind: Store["kind"],
  version: string,
  insertRows: RawInsert,
  insertAllRows: RawInsertAll,
  close: () => Promise<void>,
): Store {
  const settings = STORE_SETTINGS;
  // Statements in flight: close() lets them end first. The embedded engine runs a statement on a thread
  // of its own, and closing its session under one can take the process down; background readers (the
  // priced catalogue's refresh, the DEX TVL keeper) may still be reading when a command stops.
  const running = new Set<Promise<unknown>>();
  let closing = false;
  const tracked = <T>(start: () => Promise<T>): Promise<T> => {
    if (closing) return Promise.reject(new NonRetryableError("the store is closed"));
    const work = start();
    running.add(work);
    const done = () => running.delete(work);
    work.then(done, done);
    return work;
  };
  return {
    kind,
    version,
    async query<T>(sql: string, schema: RowSchema<T>, params: QueryParams = {}): Promise<T[]> {
      let rows: Record<string, unknown>[];
      try {
        rows = await tracked(() =>
          client
            .query({ query: sql, format: "JSONCompact", query_params: params, clickhouse_settings: settings })
            .then(async (rs) => rowsOfCompact(await rs.json<unknown>())),
        );
      } catch (error) {
        throw classifyStoreError(error, "query", { sql });
      }
      if ("readRow" in schema)
        return rows.map((row, i) => {
          try {
            return schema.readRow(row);
          } catch (error) {
            throw new NonRetryableError(
              `ClickHouse row ${i} does not match its schema: ${error instanceof Error ? error.message : String(error)}`,
              { context: { sql: sql.slice(0, 200) } },
            );
          }
        });
      return rows.map((row, i) => {
        const parsed = schema.safeParse(row);
        if (parsed.success) return parsed.data;
        throw new NonRetryableError(
          `ClickHouse row ${i} does not match its schema: ${formatZodError(parsed.error).join("; ")}`,
          { context: { sql: sql.slice(0, 200) } },
        );
      });
    },
    async command(sql, params = {}) {
      try {
        await tracked(() =>
          client.command({ query: sql, query_params: params, clickhouse_settings: settings }),
        );
      } catch (error) {
        throw classifyStoreError(error, "command", { sql });
      }
    },
    async insert(table, rows) {
      if (rows.length === 0) return;
      try {
        await tracked(() => insertRows(table, rows));
      } catch (error) {
        throw classifyStoreError(error, "insert", { table });
      }
    },
    async insertAll(inserts) {
      const nonEmpty = inserts.filter((i) => i.rows.length > 0);
      if (nonEmpty.length === 0) return;
      try {
        await tracked(() => insertAllRows(nonEmpty));
      } catch (error) {
        const failed = error instanceof InsertFailed ? error : null;
        const table = failed === null ? undefined : nonEmpty[failed.index]?.table;
        throw classifyStoreError(failed?.error ?? error, "insert", table === undefined ? {} : { table });
      }
    },
    async ping() {
      const result = await tracked(() => client.ping());
      if (!result.success) throw classifyStoreError(result.error, "ping");
    },
    async close() {
      // What is running ends first (its failures are its callers'); what starts after close() fails there.
      closing = true;
      await Promise.allSettled([...running]);
      await close();
    },
  };
}
