/**
 * Versioned, idempotent schema migrations over `schemas/clickhouse/NNN_name.sql`.
 *
 * Applied files are recorded in `schema_migrations` (version, name, sha256 checksum). A run applies the
 * files not recorded yet, in version order, and refuses to start when an applied file was edited
 * afterwards or when the database has a version these files do not know (older code, newer schema).
 * ClickHouse has no transactional DDL, so statements are written `IF NOT EXISTS`: a run interrupted
 * half-way simply re-runs the whole file.
 */
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { NonRetryableError, RetryableError } from "../errors.ts";
import { sleep } from "../retry.ts";
import type { Store } from "./client.ts";

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL("../../schemas/clickhouse/", import.meta.url));

export type Migration = {
  readonly version: number;
  readonly name: string;
  readonly file: string;
  readonly checksum: string;
  readonly statements: readonly string[];
};
export type AppliedMigration = { version: number; name: string; checksum: string };

const FILE_NAME = /^(\d{3,})_([a-z0-9_]+)\.sql$/;

export function parseMigrationFileName(file: string): { version: number; name: string } | null {
  const m = FILE_NAME.exec(file);
  return m ? { version: Number(m[1]), name: m[2] as string } : null;
}

/** sha256 of the text with line endings normalised, so a CRLF checkout is not "a changed file". */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql.replace(/\r\n/g, "\n")).digest("hex");
}

/**
 * Splits SQL on `;` outside string literals ('…' with '' or \' escapes), quoted identifiers ("…", `…`),
 * `--` line comments and `/* … *\/` block comments. Statements holding only comments are dropped.
 */
export function splitSqlStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let code = false; // the current statement has something besides comments and whitespace
  let i = 0;
  const flush = (end: number) => {
    if (code) out.push(sql.slice(start, end).trim());
    start = end + 1;
    code = false;
  };
  while (i < sql.length) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const eol = sql.indexOf("\n", i);
      i = eol === -1 ? sql.length : eol + 1;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end === -1) throw new NonRetryableError(`unterminated /* comment at offset ${i}`);
      i = end + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      i = skipQuoted(sql, i, c);
      code = true;
    } else if (c === ";") {
      flush(i);
      i++;
    } else {
      if (!/\s/.test(c)) code = true;
      i++;
    }
  }
  flush(sql.length);
  return out;
}

/** Index just past the closing quote of the literal opened at `open`. */
function skipQuoted(sql: string, open: number, quote: string): number {
  for (let i = open + 1; i < sql.length; i++) {
    const c = sql[i];
    if (c === "\\") i++;
    else if (c === quote) {
      if (sql[i + 1] === quote)
        i++; // doubled quote: an escaped quote, not the end
      else return i + 1;
    }
  }
  throw new NonRetryableError(`unterminated ${quote} literal starting at offset ${open}`);
}

export function parseMigration(file: string, sql: string): Migration {
  const parsed = parseMigrationFileName(file);
  if (parsed === null) {
    throw new NonRetryableError(
      `migration file name ${file} must look like 001_name.sql (lowercase, digits, _)`,
    );
  }
  let statements: string[];
  try {
    statements = splitSqlStatements(sql);
  } catch (error) {
    throw new NonRetryableError(`migration ${file}: ${(error as Error).message}`, { cause: error });
  }
  return { ...parsed, file, checksum: migrationChecksum(sql), statements };
}

/** Every `.sql` file of `dir`, parsed and sorted by version; duplicate versions are an error. */
export async function loadMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  const migrations = await Promise.all(
    files.map(async (f) => parseMigration(f, await readFile(join(dir, f), "utf8"))),
  );
  migrations.sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    const [a, b] = [migrations[i - 1] as Migration, migrations[i] as Migration];
    if (a.version === b.version) {
      throw new NonRetryableError(`migrations ${a.file} and ${b.file} share version ${a.version}`);
    }
  }
  return migrations;
}

/** What to apply, given what the database recorded; throws on an edited or unknown applied migration. */
export function planMigrations(
  migrations: readonly Migration[],
  applied: readonly AppliedMigration[],
): Migration[] {
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  for (const a of applied) {
    const m = byVersion.get(a.version);
    if (m === undefined) {
      throw new NonRetryableError(
        `the database has migration ${a.version} (${a.name}) that this code does not know: ` +
          "it was migrated by a newer tondex; run that version or restore the schema",
        { context: { version: a.version } },
      );
    }
    if (m.checksum !== a.checksum) {
      throw new NonRetryableError(
        `migration ${m.file} was changed after it was applied (recorded checksum ${a.checksum.slice(0, 12)}…, ` +
          `file ${m.checksum.slice(0, 12)}…); restore the file and add a new migration for the change`,
        { context: { version: a.version, file: m.file } },
      );
    }
  }
  const done = new Set(applied.map((a) => a.version));
  return migrations.filter((m) => !done.has(m.version));
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations
(
  version UInt32 COMMENT 'NNN of the file name',
  name String COMMENT 'file name without version and extension',
  checksum String COMMENT 'sha256 (hex) of the file text with LF line endings',
  applied_at DateTime('UTC') COMMENT 'when it was applied'
)
ENGINE = ReplacingMergeTree
ORDER BY version
COMMENT 'schema migrations applied by infra/store/migrate.ts'`;

const appliedRow = z.object({ version: z.number().int(), name: z.string(), checksum: z.string() });

export type MigrateResult = { applied: string[]; alreadyApplied: number };

export async function migrate(
  store: Store,
  options: {
    dir?: string;
    migrations?: readonly Migration[];
    now?: () => number;
    lock?: Partial<MigrationLockOptions>;
    /**
     * A progress line after each statement of a pending migration: an upgrade's copies and backfills can
     * take minutes on a large data dir (migration 018: ~2 min on the 10M-swap bulk store).
     */
    log?: (fields: Record<string, unknown>, message: string) => void;
  } = {},
): Promise<MigrateResult> {
  const migrations = options.migrations ?? (await loadMigrations(options.dir));
  const now = options.now ?? Date.now;
  await store.command(MIGRATIONS_TABLE);
  const planned = async () =>
    planMigrations(
      migrations,
      await store.query(
        "SELECT version, name, checksum FROM schema_migrations FINAL ORDER BY version",
        appliedRow,
      ),
    );
  // Nothing to apply (every start after the first): no lock, so a process killed here leaves none behind.
  if ((await planned()).length === 0) return { applied: [], alreadyApplied: migrations.length };
  const underLock = () =>
    withMigrationLock(store, { ...DEFAULT_LOCK, ...options.lock }, async (assertHeld) => {
      // Planned again under the lock: another process may have applied them while this one waited.
      const pending = await planned();
      for (const m of pending) {
        const started = now();
        for (const [i, statement] of m.statements.entries()) {
          await assertHeld();
          await store.command(statement);
          const done = { migration: m.file, statement: i + 1, statements: m.statements.length };
          options.log?.(
            { ...done, elapsedMs: now() - started },
            `migration ${m.file}: ${i + 1}/${m.statements.length} statements`,
          );
        }
        await store.insert("schema_migrations", [
          { version: m.version, name: m.name, checksum: m.checksum, applied_at: Math.floor(now() / 1000) },
        ]);
      }
      return { applied: pending.map((m) => m.file), alreadyApplied: migrations.length - pending.length };
    });
  // A lock taken over mid-run (this process looked dead): the new holder re-plans, and so does this one.
  for (;;) {
    try {
      return await underLock();
    } catch (error) {
      if (!(error instanceof MigrationLockLost)) throw error;
    }
  }
}

/**
 * Processes started together on one ClickHouse (N `tondex process` replicas, `serve`, `ingest`) would
 * otherwise run the same migrations at once: one dropping a table (012) while another alters it, or
 * dropping rollups after the other has backfilled them. The lock is a table only one process can create
 * (`CREATE TABLE` without IF NOT EXISTS), named for its holder in its comment; the holder writes a
 * heartbeat row every `heartbeatMs`. A lock silent for `staleMs` (its holder died mid-migration; a lock
 * with no heartbeat yet counts from when this process first saw it) is taken over: after a random pause the
 * waiter checks that the same holder's lock is still there and still silent, and only then drops it, so
 * two waiters of one dead holder seldom drop each other's new lock; when one does (the check and the drop
 * are two statements), the new holder's first heartbeat finds its lock gone and it starts over. A holder
 * checks that the lock is still its own before each statement and stops (retryable) if it is not.
 */
class MigrationLockLost extends RetryableError {}

export type MigrationLockOptions = { heartbeatMs: number; staleMs: number; pollMs: number };

const DEFAULT_LOCK: MigrationLockOptions = { heartbeatMs: 2_000, staleMs: 20_000, pollMs: 250 };
export const MIGRATION_LOCK_TABLE = "schema_migrations_lock";

const lockAge = z.object({ age: z.coerce.number().nullable() });
const lockHolder = z.object({ comment: z.string() });

async function withMigrationLock<T>(
  store: Store,
  options: MigrationLockOptions,
  run: (assertHeld: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const me = `migration lock of ${randomUUID()} (infra/store/migrate.ts)`;
  /** The lock's holder (its comment), or null when no lock exists. */
  const holder = async (): Promise<string | null> =>
    (
      await store.query(
        "SELECT comment FROM system.tables WHERE database = currentDatabase() AND name = {name:String}",
        lockHolder,
        { name: MIGRATION_LOCK_TABLE },
      )
    )[0]?.comment ?? null;
  /** Milliseconds since holder `h`'s newest heartbeat (null: none yet); undefined once `h`'s lock is gone. */
  const heartbeatAge = (h: string): Promise<number | null | undefined> =>
    store
      .query(
        `SELECT if(count() = 0, NULL, dateDiff('millisecond', max(at), now64(3))) AS age FROM ${MIGRATION_LOCK_TABLE}`,
        lockAge,
      )
      .then(([row]) => (row === undefined || row.age === null ? null : row.age))
      .catch(async (error: unknown) => {
        // Released meanwhile, and maybe taken by another process since: h's lock is gone either way.
        if ((await holder()) !== h) return undefined;
        throw error;
      });
  /** When this process first saw each holder without a heartbeat (a holder that died before its first). */
  const firstSeen = new Map<string, number>();
  const silent = async (h: string): Promise<boolean | undefined> => {
    const age = await heartbeatAge(h);
    if (age === undefined) return undefined;
    if (age !== null) return age > options.staleMs;
    const seen = firstSeen.get(h) ?? Date.now();
    firstSeen.set(h, seen);
    return Date.now() - seen > options.staleMs;
  };
  // The holder may release the lock between any two of these statements: a failure while no lock table
  // exists is tried again (a few times in a row, so a CREATE that fails for another reason still surfaces).
  for (let vanished = 0; ; ) {
    try {
      await store.command(
        `CREATE TABLE ${MIGRATION_LOCK_TABLE} (at DateTime64(3, 'UTC')) ENGINE = Memory COMMENT '${me}'`,
      );
      break;
    } catch (error) {
      const h = await holder();
      if (h === null) {
        if (++vanished > 5) throw error;
        continue;
      }
      vanished = 0;
      const stale = await silent(h);
      if (stale === true) {
        // Another waiter may be taking the same dead lock over: pause at random, then drop it only if it is
        // still that holder's and still silent (a new holder's lock is left alone).
        await sleep(Math.floor(Math.random() * 4 * options.pollMs));
        if ((await holder()) === h && (await silent(h)) === true) {
          await store.command(`DROP TABLE IF EXISTS ${MIGRATION_LOCK_TABLE}`);
        }
      } else if (stale === false) await sleep(options.pollMs);
    }
  }
  const lost = () => new MigrationLockLost("the schema migration lock was taken over by another process");
  const beat = () => store.command(`INSERT INTO ${MIGRATION_LOCK_TABLE} SELECT now64(3)`);
  let beating: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const assertHeld = async () => {
    if ((await holder()) !== me) throw lost();
  };
  try {
    // Two waiters of one dead holder check it and drop it one after the other: the second drop may hit the
    // lock the first has just created. Its first heartbeat then finds no table (or another's): lost, and
    // the whole run starts over, waiting for the new holder.
    await beat().catch(async (error: unknown) => {
      if ((await holder().catch(() => null)) !== me) throw lost();
      throw error;
    });
    timer = setInterval(() => {
      beating = beat().catch(() => undefined);
    }, options.heartbeatMs);
    return await run(assertHeld);
  } finally {
    if (timer !== undefined) clearInterval(timer);
    await beating;
    // Never another holder's lock.
    if ((await holder().catch(() => null)) === me)
      await store.command(`DROP TABLE IF EXISTS ${MIGRATION_LOCK_TABLE}`);
  }
}
