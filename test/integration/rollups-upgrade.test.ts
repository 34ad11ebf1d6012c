/**
 * A data dir written before migrations 015 to 018 upgrades with its rollups whole: the hour rows copied into
 * pool_rollup_1h_by_bucket (and, by 023, the day rows into pool_rollup_1d_by_bucket), every row's last_trade
 * its close and first_trade its open (the existing parts
 * materialized), the state rows copied into the tables sorted by time, the wallet ids kept through 017's copy
 * and copied into 018's lookup, the DEX-wide rows kept through 018's copy, each pool's first state day
 * copied into 020's table, and the dense state snapshots (024) and running sums (025) filled at the next start. Its own file: one
 * chdb path per process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { z } from "zod";
import { rollupDone } from "../../api/queries/sql/rollup-status.ts";
import { openStore } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { loadMigrations, migrate } from "../../infra/store/migrate.ts";
import { HOUR, POOL_SUMS, prepareRollups, STATE_SNAPSHOTS } from "../../infra/store/rollups.ts";
import type { PoolStateRow } from "../../schemas/facts.ts";
import { poolStateRow, swapRow } from "./_facts.ts";
import { copiesAgree, lookupAgrees, stateCopiesAgree } from "./_rollups.ts";

const T0 = 1_763_683_200; // 2025-11-21T00:00:00Z
const POOL = `0:${"4".repeat(64)}`;

test("rollups written at schema 014 are copied and materialized by 015 to 018", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "tondex-rollups-upgrade-"));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const all = await loadMigrations();
  await migrate(store, { migrations: all.filter((m) => m.version < 15) });
  // Today's writer looks maker ids up in 018's wallet_id_lookup: made here as 018 makes it (drop, create,
  // copy), and made again by 018 itself from wallet_ids below.
  const lookup =
    all.find((m) => m.version === 18)?.statements.filter((s) => /wallet_id_lookup/.test(s)) ?? [];
  t.is(lookup.length, 3);
  for (const s of lookup) await store.command(s);
  // ... and rewrites 021's priced pairs and 026's seconds rows: the tables made here as 021 and 026 make
  // them (those files leave them as they are).
  for (const version of [21, 26]) {
    const creates = all.find((m) => m.version === version)?.statements ?? [];
    t.is(creates.length, 1);
    for (const s of creates) await store.command(s);
  }
  // ... and reads 016's hour states and 022's raw states sorted by time to advance 024's snapshots: the
  // tables made here, empty (016 and 022 copy the rows below into them), so it finds no state to snapshot.
  for (const [version, table] of [
    [16, "pool_state_rollup_1h_by_at"],
    [22, "pool_states_by_utime"],
  ] as const) {
    const create = all.find((m) => m.version === version)?.statements[0] ?? "";
    t.true(create.includes(`CREATE TABLE IF NOT EXISTS ${table} `), table);
    await store.command(create);
  }
  // ... and reads 015's hour rows sorted by bucket to advance 025's running sums: the table made here as 015
  // makes it (its hour rows' columns, last_trade among them), empty (015 copies the rows below into it), so
  // it finds no hour to add up.
  const m15 = all.find((m) => m.version === 15)?.statements ?? [];
  const copy = m15.find((s) => s.includes("CREATE TABLE IF NOT EXISTS pool_rollup_1h_by_bucket "));
  const column = m15.find((s) =>
    s.startsWith("ALTER TABLE pool_rollup_1h ADD COLUMN IF NOT EXISTS last_trade"),
  );
  t.truthy(copy);
  t.truthy(column);
  await store.command(copy ?? "");
  await store.command(
    (column ?? "").replace("ALTER TABLE pool_rollup_1h ", "ALTER TABLE pool_rollup_1h_by_bucket "),
  );
  const legs = [1, 2, 3, 4].map((i) =>
    swapRow(i, {
      utime: T0 + i * HOUR + 7,
      mc_seqno: 100 + i,
      lt: 1_000n + BigInt(i),
      amount_in: 1_000n * BigInt(i),
      amount_out: 7n * BigInt(i),
      maker: `0:${String(i % 2).repeat(64)}`,
    }),
  );
  const position = (mc_seqno: number, offset: bigint) => ({
    consumer: "rollups-upgrade-test",
    partition_id: 0,
    mc_seqno,
    next_offset: offset,
  });
  const state = (i: number): PoolStateRow => ({
    ...poolStateRow(POOL, 2_000 + i, T0 + i * 5 * HOUR + 11),
    reserve0: 10n * BigInt(i),
    reserve1: 7n * BigInt(i),
  });
  await writeBatch(store, { swaps: legs.slice(0, 2), pool_states: [state(1)] }, position(102, 1n));
  // Leg 2 again, with 3 and 4; states over two days.
  await writeBatch(store, { swaps: legs.slice(1), pool_states: [1, 2, 5].map(state) }, position(104, 2n));
  const ids = () =>
    store.query(
      "SELECT wallet, id FROM wallet_ids ORDER BY id",
      z.object({ wallet: z.string(), id: z.coerce.number() }),
    );
  const before = await ids();
  t.is(before.length, 2);
  const dexRows = () =>
    store.query(
      `SELECT level, toUInt32(bucket) AS bucket, trades, bitmapToArray(wallet_bitmap) AS wallets FROM (
         SELECT 'm' AS level, bucket, trades, wallet_bitmap FROM dex_rollup_1m FINAL
         UNION ALL SELECT 'h', bucket, trades, wallet_bitmap FROM dex_rollup_1h FINAL)
       ORDER BY level, bucket`,
      z.object({
        level: z.string(),
        bucket: z.coerce.number(),
        trades: z.coerce.number(),
        wallets: z.array(z.coerce.number()),
      }),
    );
  const dexBefore = await dexRows();
  t.is(dexBefore.length, 4 + 4, "the minutes and hours of legs 1 to 4");
  const lines: string[] = [];
  const { applied } = await migrate(store, { log: (_fields, message) => lines.push(message) });
  t.deepEqual(await ids(), before, "017 copies wallet_ids with its ids");
  t.is(await lookupAgrees(t, store), 2, "018 copies the ids into the lookup");
  t.deepEqual(await dexRows(), dexBefore, "018 copies the DEX-wide rollups");
  t.deepEqual(
    applied,
    all.filter((m) => m.version >= 15).map((m) => m.file),
  );
  // A progress line after every statement of each migration applied.
  const pending = all.filter((m) => m.version >= 15);
  t.is(
    lines.length,
    pending.reduce((n, m) => n + m.statements.length, 0),
  );
  const last = pending.at(-1);
  t.is(
    lines.at(-1),
    `migration ${last?.file}: ${last?.statements.length}/${last?.statements.length} statements`,
  );
  await copiesAgree(t, store);
  t.is(await stateCopiesAgree(t, store), 3 + 2, "hours 1, 2, 5 and days 1, 2 of the states");
  // 024: the snapshots are filled at the next start, from the first state's boundary (state 1 at T0 + 5 h
  // + 11 s: T0 + 6 h) to the last boundary at or before the newest state (state 5: T0 + 25 h), each the
  // last state at or before it (state 2 from T0 + 11 h).
  await prepareRollups(store, { after: 104, log: () => {} });
  const snapshots = await store.query(
    "SELECT toUInt32(at) AS at, toUInt32(lt) AS lt FROM pool_state_at_hour FINAL WHERE pool = {pool:String} ORDER BY at",
    z.object({ at: z.number(), lt: z.number() }),
    { pool: POOL },
  );
  t.deepEqual(snapshots, [
    ...[6, 7, 8, 9, 10].map((h) => ({ at: T0 + h * HOUR, lt: 2_001 })),
    ...Array.from({ length: 15 }, (_, i) => ({ at: T0 + (11 + i) * HOUR, lt: 2_002 })),
  ]);
  t.is(await rollupDone(store, STATE_SNAPSHOTS, 0), T0 + 25 * HOUR);
  // 025: the running sums are filled at the next start, from the boundary after the first leg's hour (leg
  // 1 at T0 + 1 h + 7 s: T0 + 2 h) to the last boundary at or before the newest swap (leg 4: T0 + 4 h), each
  // the sums of the legs before it (leg i: 1,000·i of token_a).
  t.deepEqual(
    await store.query(
      `SELECT toUInt32(at) AS at, trades, toString(volume_a) AS volume_a FROM pool_sums_at_hour FINAL
       WHERE pool = {pool:String} ORDER BY at`,
      z.object({ at: z.number(), trades: z.coerce.number(), volume_a: z.string() }),
      { pool: legs[0]?.pool },
    ),
    [
      { at: T0 + 2 * HOUR, trades: 1, volume_a: "1000" },
      { at: T0 + 3 * HOUR, trades: 2, volume_a: "3000" },
      { at: T0 + 4 * HOUR, trades: 3, volume_a: "6000" },
    ],
  );
  t.is(await rollupDone(store, POOL_SUMS, 0), T0 + 4 * HOUR);
  // 020: the pool's first day row (state 1 at T0 + 5 h: the day ending at T0 + 1 day).
  t.deepEqual(
    await store.query(
      "SELECT pool, toUInt32(min(first_day)) AS day FROM pool_first_state_day GROUP BY pool",
      z.object({ pool: z.string(), day: z.number() }),
    ),
    [{ pool: POOL, day: T0 + 24 * HOUR }],
  );
});
