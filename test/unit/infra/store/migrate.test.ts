import test from "ava";
import {
  type AppliedMigration,
  loadMigrations,
  migrationChecksum,
  parseMigration,
  parseMigrationFileName,
  planMigrations,
  splitSqlStatements,
} from "../../../../infra/store/migrate.ts";

test("file names: NNN_name.sql", (t) => {
  t.deepEqual(parseMigrationFileName("001_facts.sql"), { version: 1, name: "facts" });
  t.deepEqual(parseMigrationFileName("0120_pool_states_v2.sql"), { version: 120, name: "pool_states_v2" });
  t.is(parseMigrationFileName("1_facts.sql"), null);
  t.is(parseMigrationFileName("001-facts.sql"), null);
  t.is(parseMigrationFileName("001_Facts.sql"), null);
  t.throws(() => parseMigration("facts.sql", "SELECT 1"), { message: /must look like 001_name.sql/ });
});

test("statements split on ; outside strings, quoted identifiers and comments", (t) => {
  const sql = [
    "-- header; with a semicolon",
    "CREATE TABLE a (x String COMMENT 'it''s; fine', y String COMMENT 'back\\'slash;') ENGINE = Memory;",
    "/* block; comment */",
    'SELECT "we;ird", `id;ent` FROM a -- trailing; comment',
    ";",
    "  -- only a comment;",
    "SELECT 2",
  ].join("\n");
  t.deepEqual(splitSqlStatements(sql), [
    "-- header; with a semicolon\nCREATE TABLE a (x String COMMENT 'it''s; fine', y String COMMENT 'back\\'slash;') ENGINE = Memory",
    '/* block; comment */\nSELECT "we;ird", `id;ent` FROM a -- trailing; comment',
    "-- only a comment;\nSELECT 2",
  ]);
  t.deepEqual(splitSqlStatements("-- nothing\n/* at all */ ;  ;\n"), []);
  t.throws(() => splitSqlStatements("SELECT 'open"), { message: /unterminated ' literal/ });
  t.throws(() => splitSqlStatements("SELECT 1 /* open"), { message: /unterminated \/\* comment/ });
});

test("checksums ignore CRLF vs LF but nothing else", (t) => {
  t.is(migrationChecksum("a\r\nb"), migrationChecksum("a\nb"));
  t.not(migrationChecksum("a\nb"), migrationChecksum("a\nb "));
  t.is(migrationChecksum(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
});

const m1 = parseMigration("001_a.sql", "CREATE TABLE IF NOT EXISTS a (x UInt8) ENGINE = Memory;");
const m2 = parseMigration("002_b.sql", "CREATE TABLE IF NOT EXISTS b (x UInt8) ENGINE = Memory;");
const applied = (m: typeof m1, checksum = m.checksum): AppliedMigration => ({
  version: m.version,
  name: m.name,
  checksum,
});

test("plan: pending migrations in order; an edited or unknown applied migration is refused", (t) => {
  t.deepEqual(
    planMigrations([m1, m2], []).map((m) => m.file),
    ["001_a.sql", "002_b.sql"],
  );
  t.deepEqual(
    planMigrations([m1, m2], [applied(m1)]).map((m) => m.file),
    ["002_b.sql"],
  );
  t.deepEqual(planMigrations([m1, m2], [applied(m1), applied(m2)]), []);
  t.throws(() => planMigrations([m1, m2], [applied(m1, "0".repeat(64))]), {
    message: /migration 001_a.sql was changed after it was applied \(recorded checksum 000000000000…/,
  });
  t.throws(() => planMigrations([m1], [applied(m1), applied(m2)]), {
    message: /the database has migration 2 \(b\) that this code does not know/,
  });
});

test("the project's schema files are numbered from 1 without gaps and every statement re-runs safely", async (t) => {
  const migrations = await loadMigrations();
  t.true(migrations.length >= 3);
  t.deepEqual(
    migrations.map((m) => m.version),
    migrations.map((_, i) => i + 1),
  );
  t.deepEqual(
    migrations.slice(0, 3).map((m) => [m.file, m.statements.length]),
    [
      ["001_facts.sql", 4],
      ["002_operations.sql", 6],
      ["003_state.sql", 4],
    ],
  );
  // A run interrupted half-way re-runs its whole file: only idempotent statements.
  const idempotent = [
    /^CREATE TABLE IF NOT EXISTS [a-z_0-9]+\n\(/,
    // A copy of another table's columns (rollup levels), and a drop before re-creating (rollups rebuilt by a backfill).
    /^CREATE TABLE IF NOT EXISTS [a-z_0-9]+ AS [a-z_0-9]+\n/,
    /^DROP TABLE IF EXISTS [a-z_0-9]+$/,
    /^ALTER TABLE [a-z_0-9]+ (ADD COLUMN IF NOT EXISTS|MODIFY COLUMN IF EXISTS|DROP COLUMN IF EXISTS|ADD INDEX IF NOT EXISTS) /,
    /^CREATE MATERIALIZED VIEW IF NOT EXISTS [a-z_0-9]+ TO [a-z_0-9]+ AS\n/,
    // A copy of deduplicated rows into a ReplacingMergeTree keyed by the same id: a re-run copies the
    // same rows again, which its deduplication removes (013's liquidity_by_block).
    /^INSERT INTO liquidity_by_block\nSELECT [^;]+\nFROM liquidity FINAL\n/,
    // Writing a MATERIALIZED column's values into existing parts: a re-run computes the same values (015).
    /^ALTER TABLE [a-z_0-9]+ MATERIALIZE COLUMN [a-z_0-9]+ SETTINGS mutations_sync = 2$/,
    // A view copying each inserted row as it is into a table sorted by time (015, 016, 022), and the copy of
    // the rows already there: same key and version, so rows copied twice are equal and collapse.
    /^CREATE MATERIALIZED VIEW IF NOT EXISTS [a-z_0-9]+ TO [a-z_0-9]+\nAS SELECT \* FROM [a-z_0-9]+$/,
    /^INSERT INTO ([a-z_0-9]+)_by_(?:bucket|at|utime) SELECT \* FROM \1$/,
    // A table copied and swapped in (017): the file first drops `_next`, so a re-run from any statement
    // copies the table in place again and swaps that copy in.
    /^CREATE TABLE ([a-z_0-9]+)_next\n\(/,
    /^INSERT INTO ([a-z_0-9]+)_next SELECT [a-z_0-9, ]+ FROM \1$/,
    /^EXCHANGE TABLES ([a-z_0-9]+) AND \1_next$/,
    /^DROP TABLE [a-z_0-9]+_next$/,
    // The lookup copy of wallet_ids (018): the file first drops and re-creates it, so a re-run copies
    // wallet_ids into an empty table again.
    /^INSERT INTO wallet_id_lookup SELECT wallet, id FROM wallet_ids$/,
    // Each pool's first state day (020): a minimum inserted twice is the same minimum.
    /^INSERT INTO pool_first_state_day SELECT pool, min\(at\) AS first_day FROM pool_state_rollup_1d GROUP BY pool$/,
  ];
  for (const m of migrations) {
    for (const [i, s] of m.statements.entries()) {
      const statement = s.replace(/^(\s*--[^\n]*\n)+\s*/, "");
      t.true(
        idempotent.some((re) => re.test(statement)),
        `${m.file}: not an idempotent statement: ${s.slice(0, 80)}`,
      );
      // A table swapped in is created only after the file dropped what an interrupted run left of it.
      const next = /^CREATE TABLE ([a-z_0-9]+_next)\n/.exec(statement)?.[1];
      if (next !== undefined) {
        t.true(
          m.statements.slice(0, i).some((p) => p.endsWith(`DROP TABLE IF EXISTS ${next}`)),
          `${m.file}: ${next} created without dropping it first`,
        );
      }
    }
  }
});
