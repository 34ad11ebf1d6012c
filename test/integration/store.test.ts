/**
 * The store on the real embedded engine (chdb). chdb allows ONE data path per process and ava runs each
 * test file in its own process, so every test here shares one temporary path, opened once and removed
 * in teardown; tests run serially because they share it (and the migrations run first).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { z } from "zod";
import { int, rowReader, text, unsigned } from "../../api/queries/sql/fast-row.ts";
import { isRetryable, NonRetryableError } from "../../infra/errors.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import {
  countFacts,
  latestPoolStates,
  poolStatesAround,
  selectFacts,
} from "../../infra/store/facts-reader.ts";
import { readCursor, writeBatch } from "../../infra/store/facts-writer.ts";
import {
  DEFAULT_MIGRATIONS_DIR,
  loadMigrations,
  MIGRATION_LOCK_TABLE,
  migrate,
  parseMigration,
} from "../../infra/store/migrate.ts";
import { cursor, FACT_TABLES, type FactRows, type FactTableName } from "../../schemas/facts.ts";
import { BIG, MAX_U256, SAMPLE, swapRow, UTIME } from "./_facts.ts";

const test = anyTest as TestFn<{ dir: string; store: Store }>;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-store-${Math.random().toString(36).slice(2)}-`));
  t.context = { dir, store: await openStore({ clickhouseUrl: null, dataDir: dir }) };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  rmSync(t.context.dir, { recursive: true, force: true });
});

const position = (mc_seqno: number, partition_id = 0) => ({
  consumer: "test",
  partition_id,
  mc_seqno,
  next_offset: BigInt(mc_seqno) * 10n,
});

test.serial(
  "a data dir of the first schema upgrades: later migrations apply once, rows are kept",
  async (t) => {
    const { store } = t.context;
    t.is(store.kind, "embedded");
    t.regex(store.version, /^\d+\.\d+\./);
    const all = await loadMigrations();
    const first = all.slice(0, 3);
    t.deepEqual(await migrate(store, { migrations: first }), {
      applied: ["001_facts.sql", "002_operations.sql", "003_state.sql"],
      alreadyApplied: 0,
    });
    // A row written under the first schema (assets.decimals was UInt8 then).
    await store.command(
      "INSERT INTO assets (address, kind, decimals, version) VALUES ('0:AB', 'jetton', 6, 1)",
    );
    t.deepEqual(await migrate(store), { applied: all.slice(3).map((m) => m.file), alreadyApplied: 3 });
    t.deepEqual(await migrate(store), { applied: [], alreadyApplied: all.length });
    const rows = await store.query(
      "SELECT version, name FROM schema_migrations FINAL ORDER BY version",
      z.object({ version: z.number(), name: z.string() }),
    );
    t.deepEqual(
      rows,
      all.map((m) => ({ version: m.version, name: m.name })),
    );
    const kept = await store.query(
      "SELECT address, decimals FROM assets FINAL WHERE address = '0:AB'",
      z.object({ address: z.string(), decimals: z.number().nullable() }),
    );
    t.deepEqual(kept, [{ address: "0:AB", decimals: 6 }]);
    await store.command("ALTER TABLE assets DELETE WHERE address = '0:AB' SETTINGS mutations_sync = 1");
  },
);

test.serial("a changed applied migration is refused and nothing is applied", async (t) => {
  const { store } = t.context;
  const migrations = await loadMigrations();
  const original = await readFile(join(DEFAULT_MIGRATIONS_DIR, "001_facts.sql"), "utf8");
  const edited = parseMigration("001_facts.sql", `${original}\n-- an innocent-looking edit\n`);
  const extra = parseMigration(
    `${String(migrations.length + 1).padStart(3, "0")}_extra.sql`,
    "CREATE TABLE IF NOT EXISTS extra (x UInt8) ENGINE = Memory;",
  );
  const error = await t.throwsAsync(migrate(store, { migrations: [edited, ...migrations.slice(1), extra] }));
  t.false(isRetryable(error));
  t.regex(error?.message ?? "", /^migration 001_facts.sql was changed after it was applied/);
  const tables = await store.query(
    "SELECT name FROM system.tables WHERE database = currentDatabase() AND name = 'extra'",
    z.object({ name: z.string() }),
  );
  t.deepEqual(tables, [], "the pending extra migration was not applied either");
});

test.serial("the tables match schemas/facts.ts: columns, types, sorting keys, comments", async (t) => {
  const { store } = t.context;
  const column = z.object({ name: z.string(), type: z.string(), comment: z.string() });
  for (const spec of [...Object.values(FACT_TABLES), cursor]) {
    const columns = await store.query(
      "SELECT name, type, comment FROM system.columns WHERE database = currentDatabase() AND table = {t:String} ORDER BY position",
      column,
      { t: spec.name },
    );
    t.deepEqual(
      columns.map((c) => `${c.name} ${c.type}`),
      Object.entries(spec.columns).map(([name, c]) => `${name} ${c.ch}`),
      spec.name,
    );
    t.deepEqual(
      columns.filter((c) => c.comment.trim() === "").map((c) => c.name),
      [],
      `${spec.name}: every column is documented`,
    );
    const [table] = await store.query(
      "SELECT sorting_key AS key, engine FROM system.tables WHERE database = currentDatabase() AND name = {t:String}",
      z.object({ key: z.string(), engine: z.string() }),
      { t: spec.name },
    );
    t.deepEqual(table, { key: spec.orderBy.join(", "), engine: "ReplacingMergeTree" }, spec.name);
  }
});

test.serial("a batch written twice reads back once, exactly as written, with its cursor", async (t) => {
  const { store } = t.context;
  const first = await writeBatch(store, SAMPLE, position(12), { now: () => UTIME * 1000 });
  await writeBatch(store, SAMPLE, position(12), { now: () => UTIME * 1000 });
  t.is(first.total, 14);
  t.is(first.rows.swaps, 2);
  for (const name of Object.keys(FACT_TABLES) as FactTableName[]) {
    const expected = SAMPLE[name] ?? [];
    const got = await selectFacts(store, name, {});
    t.deepEqual(got, [...expected].sort(byKey(name)), name);
    t.is(await countFacts(store, name), BigInt(expected.length), name);
  }
  t.deepEqual(await readCursor(store, "test"), {
    mcSeqno: 12,
    partitions: [{ consumer: "test", partition_id: 0, mc_seqno: 12, next_offset: 120n, written_at: UTIME }],
  });
});

/** Orders sample rows like the table's sorting key (all keys here compare as strings or numbers). */
function byKey(name: FactTableName) {
  const key = FACT_TABLES[name].orderBy as readonly string[];
  return (x: object, y: object) => {
    for (const k of key) {
      const [a, b] = [(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]] as [
        string,
        string,
      ];
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  };
}

test.serial("UInt256 round-trips exactly and filters by bound parameters", async (t) => {
  const { store } = t.context;
  const rows: FactRows = {
    swaps: [
      swapRow(100, { amount_in: BIG, amount_out: MAX_U256, min_out: 0n }),
      swapRow(101, { amount_in: 2n ** 128n, amount_out: 1n }),
    ],
  };
  await writeBatch(store, rows, position(13));
  const got = await selectFacts(store, "swaps", { where: { amount_in: BIG } });
  t.is(got.length, 1);
  t.is(got[0]?.amount_in, 1606938044258990275541962092341162602522202993782792835301377n);
  t.is(got[0]?.amount_out, 115792089237316195423570985008687907853269984665640564039457584007913129639935n);
  t.is(got[0]?.min_out, 0n);
  const both = await selectFacts(store, "swaps", {
    where: {
      amount_in: [BIG, 2n ** 128n],
      pool: "0:2222222222222222222222222222222222222222222222222222222222222222",
    },
    orderBy: ["amount_in"],
    descending: true,
    limit: 5,
  });
  t.deepEqual(
    both.map((r) => r.amount_in),
    [BIG, 2n ** 128n],
  );
  t.deepEqual(
    (await selectFacts(store, "swaps", { where: { pool: null } })).map((r) => r.id),
    [swapRow(2).id],
  );
  const sum = await store.query(
    "SELECT toString(sum(amount_in)) AS s FROM swaps FINAL WHERE id IN {ids:Array(String)}",
    z.object({ s: z.string() }),
    { ids: [swapRow(100).id, swapRow(101).id] },
  );
  t.deepEqual(sum, [{ s: (BIG + 2n ** 128n).toString() }]);
});

test.serial(
  "the cursor keeps the highest mc_seqno per partition; readCursor reports the lowest",
  async (t) => {
    const { store } = t.context;
    await writeBatch(store, {}, position(20, 1));
    await writeBatch(store, {}, position(15, 0));
    await writeBatch(store, {}, position(14, 0)); // an older batch re-delivered late
    const state = await readCursor(store, "test");
    t.is(state.mcSeqno, 15);
    t.deepEqual(
      state.partitions.map((p) => [p.partition_id, p.mc_seqno]),
      [
        [0, 15],
        [1, 20],
      ],
    );
    t.deepEqual(await readCursor(store, "nobody"), { mcSeqno: null, partitions: [] });
  },
);

test.serial("latestPoolStates picks the highest lt per pool", async (t) => {
  const { store } = t.context;
  const base = SAMPLE.pool_states?.[0];
  if (base === undefined) throw new Error("sample has a pool state");
  const other = `0:${"B".repeat(64)}`;
  await writeBatch(
    store,
    {
      pool_states: [
        { ...base, lt: 9n, reserve0: 1n },
        { ...base, lt: 8n, reserve0: 2n },
        { ...base, pool: other, lt: 3n, reserve0: 3n },
      ],
    },
    position(21),
  );
  const latest = await latestPoolStates(store);
  t.deepEqual(
    latest.map((s) => [s.pool, s.lt, s.reserve0]),
    [
      [base.pool, 9n, 1n],
      [other, 3n, 3n],
    ],
  );
  t.deepEqual(
    (await latestPoolStates(store, [other])).map((s) => s.lt),
    [3n],
  );
});

test.serial(
  "poolStatesAround: each pool's last state at or before a block, then every later one",
  async (t) => {
    const { store } = t.context;
    const base = SAMPLE.pool_states?.[0];
    if (base === undefined) throw new Error("sample has a pool state");
    const [c, d] = [`0:${"C".repeat(64)}`, `0:${"D".repeat(64)}`];
    await writeBatch(
      store,
      {
        pool_states: [
          { ...base, pool: c, lt: 1n, mc_seqno: 10 },
          { ...base, pool: c, lt: 2n, mc_seqno: 11 },
          { ...base, pool: c, lt: 3n, mc_seqno: 12 },
          { ...base, pool: c, lt: 4n, mc_seqno: 13 },
          { ...base, pool: d, lt: 5n, mc_seqno: 14 },
        ],
      },
      position(22),
    );
    const around = (await poolStatesAround(store, 11)).filter((s) => s.pool === c || s.pool === d);
    t.deepEqual(
      around.map((s) => [s.pool, s.lt]),
      [
        [c, 2n],
        [c, 3n],
        [c, 4n],
        [d, 5n],
      ],
    );
  },
);

test.serial("one engine per process: a second data path is refused, the same path is shared", async (t) => {
  const other = await t.throwsAsync(
    openStore({ clickhouseUrl: null, dataDir: join(t.context.dir, "elsewhere") }),
  );
  t.regex(other?.message ?? "", /already open at .* in this process; it cannot also open .*elsewhere/);
  const [again, concurrent] = await Promise.all([
    openStore({ clickhouseUrl: null, dataDir: t.context.dir }),
    openStore({ clickhouseUrl: null, dataDir: t.context.dir }),
  ]);
  t.is(await countFacts(again, "blocks"), 1n);
  await again.close();
  await concurrent.close();
  await concurrent.close(); // closing twice is harmless
  t.is(await countFacts(t.context.store, "blocks"), 1n, "closing the second handle left the first open");
});

test.serial("a row that does not fit its table is a non-retryable error naming the table", async (t) => {
  const bad = { ...SAMPLE.blocks?.[0], unexpected: 1 };
  const error = await t.throwsAsync(t.context.store.insert("blocks", [bad]));
  t.false(isRetryable(error));
  t.regex(error?.message ?? "", /^ClickHouse insert into blocks failed/);
});

test.serial(
  "rows read by a zod schema or a hand-written reader are the same; a misfit names row and field",
  async (t) => {
    const { store } = t.context;
    const sql = `SELECT number AS n, toUInt256(number) * toUInt256('1000000000000000000000') AS big, NULL AS none,
    toString(number) AS s FROM system.numbers LIMIT 3`;
    const viaZod = await store.query(
      sql,
      z.object({ n: z.coerce.number(), big: z.string().transform(BigInt), none: z.null(), s: z.string() }),
    );
    const reader = rowReader((r) => ({
      n: int(r, "n"),
      big: unsigned(r, "big"),
      none: r.none as null,
      s: text(r, "s"),
    }));
    const viaReader = await store.query(sql, reader);
    t.deepEqual(viaReader, viaZod);
    t.deepEqual(viaReader[2], { n: 2, big: 2_000_000_000_000_000_000_000n, none: null, s: "2" });
    const error = await t.throwsAsync(
      store.query("SELECT 1 AS n, 'x' AS big, NULL AS none, 'y' AS s", reader),
    );
    t.true(error instanceof NonRetryableError);
    t.is(
      error?.message,
      'ClickHouse row 0 does not match its schema: big: expected a decimal integer string, got "x"',
    );
  },
);

test.serial("insertAll writes in order from the insert thread and stops at the first failure", async (t) => {
  const { store } = t.context;
  const block = SAMPLE.blocks?.[0];
  if (block === undefined) throw new Error("sample has a block");
  const before = await countFacts(store, "blocks");
  const failure = await t.throwsAsync(
    store.insertAll([
      { table: "blocks", rows: [{ ...block, mc_seqno: 90_001 }] },
      { table: "swaps", rows: [] },
      { table: "blocks", rows: [{ ...block, mc_seqno: 90_002, unexpected: 1 }] },
      { table: cursor.name, rows: [{ ...position(90_003), written_at: UTIME }] },
    ]),
  );
  t.false(isRetryable(failure));
  t.regex(
    failure?.message ?? "",
    /^ClickHouse insert into blocks failed/,
    "the failing entry's table is named",
  );
  t.is(await countFacts(store, "blocks"), before + 1n, "the entry before the failure was written");
  const cursorAfter = (await readCursor(store, "test")).partitions.find((p) => p.partition_id === 0);
  t.not(cursorAfter?.mc_seqno, 90_003, "the cursor after the failure was not written");
  // Rows cross to the thread by structured clone; a row with another prototype is encoded here instead.
  class Block {
    constructor(readonly mc_seqno: number) {}
    toJSON() {
      return { ...block, mc_seqno: this.mc_seqno };
    }
  }
  await store.insertAll([
    { table: "blocks", rows: [{ ...block, mc_seqno: 90_004 }] },
    { table: "blocks", rows: [new Block(90_005)] },
  ]);
  const written = await selectFacts(store, "blocks", { orderBy: ["mc_seqno"] });
  t.deepEqual(
    written.filter((b) => b.mc_seqno > 90_000).map((b) => b.mc_seqno),
    [90_001, 90_004, 90_005],
  );
});

test.serial("throughput: one 100k-row swaps insert", async (t) => {
  const { store } = t.context;
  const rows = Array.from({ length: 100_000 }, (_, i) => swapRow(1_000_000 + i));
  const started = performance.now();
  await writeBatch(store, { swaps: rows }, position(30));
  const seconds = (performance.now() - started) / 1000;
  t.log(`100000 swap rows in ${seconds.toFixed(2)} s = ${Math.round(100_000 / seconds)} rows/s`);
  t.is(await countFacts(store, "swaps"), 100_000n + 4n, "plus the 4 swaps of the earlier tests");
});

test.serial(
  "migrations run one process at a time: a held lock is waited for, a stale one taken over once by two waiters, three runs apply once",
  async (t) => {
    const { store } = t.context;
    const all = await loadMigrations();
    const extra = (n: number) =>
      parseMigration(
        `${String(all.length + n).padStart(3, "0")}_lock_test_${n}.sql`,
        `CREATE TABLE IF NOT EXISTS lock_test_${n} (x UInt8) ENGINE = Memory;`,
      );
    const lock = { heartbeatMs: 50, staleMs: 5_000, pollMs: 20 };
    const holdLock = async (heartbeatAgeSeconds: number) => {
      await store.command(`CREATE TABLE ${MIGRATION_LOCK_TABLE} (at DateTime('UTC')) ENGINE = Memory`);
      await store.command(`INSERT INTO ${MIGRATION_LOCK_TABLE} SELECT now() - ${heartbeatAgeSeconds}`);
    };
    // Held by another process whose heartbeat is fresh: waited for until it is released.
    await holdLock(0);
    let done = false;
    const waiting = migrate(store, { migrations: [...all, extra(1)], lock }).then((r) => {
      done = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    t.false(done, "waits while the lock is held");
    await store.command(`DROP TABLE ${MIGRATION_LOCK_TABLE}`);
    t.deepEqual(await waiting, { applied: [extra(1).file], alreadyApplied: all.length });
    // Left by a process that died mid-migration (silent for a minute): taken over.
    await holdLock(60);
    t.deepEqual(await migrate(store, { migrations: [...all, extra(1), extra(2)], lock }), {
      applied: [extra(2).file],
      alreadyApplied: all.length + 1,
    });
    // Three runs at once (two replicas and ingest starting together): one applies, the others find it
    // applied once they hold the lock — each taking it after another released it, maybe while they read it.
    const three = [...all, extra(1), extra(2), extra(3)];
    const runs = await Promise.all([
      migrate(store, { migrations: three, lock }),
      migrate(store, { migrations: three, lock }),
      migrate(store, { migrations: three, lock }),
    ]);
    t.deepEqual(
      runs.map((r) => r.applied).sort((a, b) => a.length - b.length),
      [[], [], [extra(3).file]],
    );
    // One dead holder, two waiters at once (a replica killed mid-migration, two restarted): one takes the lock
    // over, neither drops the other's new lock, the migration is applied once and both runs end. Its
    // heartbeat a minute old, then none at all (it died before its first: silent since first seen).
    const quick = { heartbeatMs: 50, staleMs: 400, pollMs: 20 };
    let list = three;
    for (const [n, heartbeatAge] of [
      [4, 60],
      [5, null],
      [6, 60],
    ] as const) {
      if (heartbeatAge === null) {
        await store.command(`CREATE TABLE ${MIGRATION_LOCK_TABLE} (at DateTime('UTC')) ENGINE = Memory`);
      } else await holdLock(heartbeatAge);
      list = [...list, extra(n)];
      const both = await Promise.all([
        migrate(store, { migrations: list, lock: quick }),
        migrate(store, { migrations: list, lock: quick }),
      ]);
      t.deepEqual(
        both.map((r) => r.applied).sort((a, b) => a.length - b.length),
        [[], [extra(n).file]],
        `dead holder ${n}`,
      );
    }
    await releasedThenForgotten(
      t,
      store,
      all.length,
      [1, 2, 3, 4, 5, 6].map((n) => `lock_test_${n}`),
    );
    t.deepEqual(await migrate(store), { applied: [], alreadyApplied: all.length });
  },
);

test.serial(
  "a new migration lock dropped by another waiter before its first heartbeat: the run starts over and applies once",
  async (t) => {
    const { store } = t.context;
    const all = await loadMigrations();
    const extra = parseMigration(
      `${String(all.length + 1).padStart(3, "0")}_lock_race.sql`,
      "CREATE TABLE IF NOT EXISTS lock_race (x UInt8) ENGINE = Memory;",
    );
    // What the second of two waiters of one dead holder does when its check passed just before the first
    // dropped the dead lock and created its own: it drops the new lock. Played between this run's CREATE
    // and its first heartbeat, the one moment no statement of the run can see it.
    let dropped = 0;
    const racing: Store = {
      ...store,
      async command(sql, params) {
        if (dropped === 0 && sql.startsWith(`INSERT INTO ${MIGRATION_LOCK_TABLE}`)) {
          dropped++;
          await store.command(`DROP TABLE IF EXISTS ${MIGRATION_LOCK_TABLE}`);
        }
        return store.command(sql, params);
      },
    };
    const result = await migrate(racing, {
      migrations: [...all, extra],
      lock: { heartbeatMs: 50, staleMs: 5_000, pollMs: 20 },
    });
    t.is(dropped, 1);
    t.deepEqual(result, { applied: [extra.file], alreadyApplied: all.length });
    await releasedThenForgotten(t, store, all.length, ["lock_race"]);
  },
);

/** Checks that the migration lock was released, then forgets the test's extra migrations and drops their tables. */
async function releasedThenForgotten(
  t: ExecutionContext,
  store: Store,
  migrations: number,
  tables: readonly string[],
): Promise<void> {
  const [exists] = await store.query(
    `EXISTS TABLE ${MIGRATION_LOCK_TABLE}`,
    z.object({ result: z.coerce.number() }),
  );
  t.is(exists?.result, 0, "released");
  await store.command(
    `ALTER TABLE schema_migrations DELETE WHERE version > ${migrations} SETTINGS mutations_sync = 1`,
  );
  for (const table of tables) await store.command(`DROP TABLE IF EXISTS ${table}`);
}

test.serial(
  "close() lets a statement in flight end, then refuses new ones naming the closed store",
  async (t) => {
    // A second handle on the same engine: closing it leaves the engine open for the other tests.
    const other = await openStore({ clickhouseUrl: null, dataDir: t.context.dir });
    const running = other.query(
      "SELECT count() AS n FROM numbers(10) WHERE sleepEachRow(0.05) = 0",
      z.object({ n: z.coerce.number() }),
    );
    const [rows] = await Promise.all([running, other.close()]);
    t.deepEqual(rows, [{ n: 10 }]);
    await t.throwsAsync(other.query("SELECT 1 AS one", z.object({ one: z.number() })), {
      message: /the store is closed/,
    });
    t.deepEqual(await t.context.store.query("SELECT 1 AS one", z.object({ one: z.coerce.number() })), [
      { one: 1 },
    ]);
  },
);
