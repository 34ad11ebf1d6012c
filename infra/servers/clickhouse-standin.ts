/**
 * TEST DOUBLE — a stand-in for a ClickHouse server's HTTP interface, over the embedded chdb engine, so
 * several tondex processes (ingest, process replicas, serve replicas) can share one modern ClickHouse
 * engine in tests where no server package is installable (shared/reference/infra.md §2.1). It is not
 * production software: production points CLICKHOUSE_URL at a real ClickHouse server ≥ 24.8.
 *
 *   node --import tsx infra/servers/clickhouse-standin.ts --port 18123 --path .infra/clickhouse/data
 *   (infra/servers/infra.sh start clickhouse does this and waits for /ping)
 *
 * It speaks the subset of the interface that @clickhouse/client 1.23.1 uses:
 * - `GET /ping` (and `GET /`) → `Ok.\n`;
 * - SQL in the POST body, or in `?query=` (GET, or POST with the body appended as the server does); an
 *   `INSERT … FORMAT F` in `?query=` with the rows in the body is a raw insert (the client's `insert`);
 * - `param_<name>` URL parameters bound to `{name:Type}` placeholders, passed to the engine as the same
 *   escaped text a server receives (so strings, arrays and NULLs bind exactly as on a server);
 * - `database=` (`USE`), and every other URL parameter as a setting for that request (`SET k = v`, reset to
 *   the default on the next request that does not send it); HTTP-only parameters are ignored;
 * - a trailing `FORMAT X` becomes the output format (default TabSeparated, as a server's);
 * - gzip request bodies (`Content-Encoding: gzip`) and gzip responses (`enable_http_compression=1` with
 *   `Accept-Encoding: gzip`);
 * - errors: HTTP 500, the engine's `Code: N. DB::Exception: … (NAME)` text as the body and
 *   `X-ClickHouse-Exception-Code: N`, which the client turns into a `ClickHouseError`.
 * Not supported: multipart parameters, sessions (`session_id` is ignored), authentication (ignored), TLS,
 * the native protocol. Requests run one at a time against one chdb session, in arrival order.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { Session } from "chdb";

/** What the chdb addon answers (chdb 3.4.0, pinned in package.json). */
type NativeResult = { bytes: Buffer; rowsRead?: number; bytesRead?: number };
type NativeInsert = { rowsWritten: number; bytesWritten: number };
type Native = {
  QueryAsyncConnection(
    connection: unknown,
    sql: string,
    format: string,
    bound?: Record<string, string>,
  ): Promise<NativeResult>;
  InsertRawAsyncConnection(
    connection: unknown,
    prefix: string,
    data: Buffer,
    countLines: boolean,
  ): Promise<NativeInsert>;
};

/**
 * The addon itself, not chdb's JS wrapper: the wrapper escapes every string parameter again (it expects
 * JS values), while the HTTP interface receives parameters already in ClickHouse's escaped text form.
 */
function loadNative(): Native {
  const require = createRequire(import.meta.url);
  const loader = require(resolve(require.resolve("chdb"), "..", "dist", "loader.js")) as {
    loadNative(): Native;
  };
  return loader.loadNative();
}

/** URL parameters of the HTTP protocol itself; every other one is a setting. */
const HTTP_ONLY = new Set([
  "query",
  "query_id",
  "database",
  "default_format",
  "session_id",
  "session_timeout",
  "session_check",
  "role",
  "user",
  "password",
  "quota_key",
  "compress",
  "decompress",
  "buffer_size",
  "wait_end_of_query",
  "enable_http_compression",
]);

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TRAILING_FORMAT = /\s+FORMAT\s+([A-Za-z0-9_]+)\s*;?\s*$/i;
const INSERT_QUERY = /^\s*INSERT\s+INTO\b/i;

export type StandinRequest = {
  readonly sql: string;
  /** Rows of a raw insert (the body when `sql` came from `?query=` and is an INSERT). */
  readonly insertData: Buffer | null;
  readonly params: Record<string, string>;
  readonly settings: Record<string, string>;
  readonly database: string;
};

/** Splits a request into SQL, bound parameters, settings and database, as a server reads them. */
export function parseRequest(url: URL, body: Buffer): StandinRequest {
  const params: Record<string, string> = {};
  const settings: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key.startsWith("param_")) params[key.slice("param_".length)] = value;
    else if (!HTTP_ONLY.has(key) && SETTING_NAME.test(key)) settings[key] = value;
  }
  const database = url.searchParams.get("database") ?? "default";
  const query = url.searchParams.get("query");
  if (query !== null && INSERT_QUERY.test(query) && body.length > 0) {
    return { sql: query, insertData: body, params, settings, database };
  }
  const text = body.toString("utf8");
  const sql = query === null ? text : text === "" ? query : `${query}\n${text}`;
  return { sql, insertData: null, params, settings, database };
}

/** A setting value as a SQL literal for `SET`: numbers stay bare, anything else is quoted. */
function settingLiteral(value: string): string {
  if (/^-?\d+(\.\d+)?$/.test(value)) return value;
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function quoteIdentifier(name: string): string {
  return `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``;
}

export type Standin = { readonly port: number; close(): Promise<void> };

export async function startStandin(options: { port: number; path: string; host?: string }): Promise<Standin> {
  const native = loadNative();
  const session = new Session(options.path);
  const connection = (session as unknown as { connection: unknown }).connection;
  const run = (sql: string, format = "TabSeparated", bound?: Record<string, string>) =>
    bound === undefined
      ? native.QueryAsyncConnection(connection, sql, format)
      : native.QueryAsyncConnection(connection, sql, format, bound);
  /** Settings applied by earlier requests: reset when a request does not send them. */
  const applied = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();

  const execute = async (req: StandinRequest): Promise<{ body: Buffer; summary: object }> => {
    for (const name of applied) {
      if (!(name in req.settings)) {
        await run(`SET ${name} = DEFAULT`);
        applied.delete(name);
      }
    }
    for (const [name, value] of Object.entries(req.settings)) {
      await run(`SET ${name} = ${settingLiteral(value)}`);
      applied.add(name);
    }
    await run(`USE ${quoteIdentifier(req.database)}`);
    if (req.insertData !== null) {
      const written = await native.InsertRawAsyncConnection(connection, req.sql, req.insertData, true);
      return {
        body: Buffer.alloc(0),
        summary: { written_rows: String(written.rowsWritten), written_bytes: String(written.bytesWritten) },
      };
    }
    const match = TRAILING_FORMAT.exec(req.sql);
    const sql = match === null ? req.sql : req.sql.slice(0, match.index);
    const format = match?.[1] ?? "TabSeparated";
    const bound = Object.keys(req.params).length > 0 ? req.params : undefined;
    const result = await run(sql, format, bound);
    return {
      body: Buffer.from(result.bytes),
      summary: { read_rows: String(result.rowsRead ?? 0), read_bytes: String(result.bytesRead ?? 0) },
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://standin");
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
    if (url.pathname === "/ping" || (request.method === "GET" && url.pathname === "/" && !url.search)) {
      response.writeHead(200, { "Content-Type": "text/plain; charset=UTF-8" }).end("Ok.\n");
      return;
    }
    if (String(request.headers["content-type"] ?? "").startsWith("multipart/")) {
      response
        .writeHead(400)
        .end(
          "Code: 1. DB::Exception: multipart parameters are not supported by the test stand-in. (UNSUPPORTED_METHOD)",
        );
      return;
    }
    const req = parseRequest(url, body);
    const queryId = url.searchParams.get("query_id") ?? "";
    // One at a time: settings and the current database are session state.
    const outcome = queue.then(() => execute(req));
    queue = outcome.catch(() => undefined);
    try {
      const { body: out, summary } = await outcome;
      const gzip =
        url.searchParams.get("enable_http_compression") === "1" &&
        String(request.headers["accept-encoding"] ?? "").includes("gzip");
      response.writeHead(200, {
        "Content-Type": "text/plain; charset=UTF-8",
        "X-ClickHouse-Query-Id": queryId,
        "X-ClickHouse-Summary": JSON.stringify(summary),
        ...(gzip ? { "Content-Encoding": "gzip" } : {}),
      });
      response.end(gzip ? gzipSync(out) : out);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = /Code: (\d+)/.exec(message)?.[1] ?? "1001";
      response
        .writeHead(500, {
          "Content-Type": "text/plain; charset=UTF-8",
          "X-ClickHouse-Query-Id": queryId,
          "X-ClickHouse-Exception-Code": code,
        })
        .end(
          message.startsWith("Code:") ? message : `Code: ${code}. DB::Exception: ${message}. (STD_EXCEPTION)`,
        );
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.host ?? "127.0.0.1", () => ok());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : options.port,
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await queue;
      session.close();
    },
  };
}

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const standin = await startStandin({
    port: Number(argument("port", "18123")),
    path: resolve(argument("path", ".infra/clickhouse/data")),
  });
  console.log(`clickhouse stand-in (test double over chdb) listening on 127.0.0.1:${standin.port}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      standin.close().then(() => process.exit(0));
    });
  }
}
