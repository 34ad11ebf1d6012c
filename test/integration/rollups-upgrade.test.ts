/**
 * A data dir written before migration 015 upgrades with its rollups whole: the hour rows copied into
 * pool_rollup_1h_by_bucket, and every row's last_trade its close (the existing parts materialized). Its own
 * file: one chdb path per process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { openStore } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { loadMigrations, migrate } from "../../infra/store/migrate.ts";
import { HOUR } from "../../infra/store/rollups.ts";
import { swapRow } from "./_facts.ts";
import { copiesAgree } from "./_rollups.ts";

const T0 = 1_763_683_200; // 2025-11-21T00:00:00Z

test("rollups written at schema 014 are copied and materialized by 015", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "tondex-rollups-upgrade-"));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const all = await loadMigrations();
  await migrate(store, { migrations: all.filter((m) => m.version < 15) });
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
  await writeBatch(store, { swaps: legs.slice(0, 2) }, position(102, 1n));
  await writeBatch(store, { swaps: legs.slice(1) }, position(104, 2n)); // leg 2 again, with 3 and 4
  const { applied } = await migrate(store);
  t.deepEqual(
    applied,
    all.filter((m) => m.version >= 15).map((m) => m.file),
  );
  await copiesAgree(t, store);
});
