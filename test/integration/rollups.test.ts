/**
 * Rollups stay exact under what the pipeline really does (infra/store/rollups.ts): a batch re-delivered
 * after a crash, an operation re-emitted with other contents in a differently composed batch, a crash
 * between the facts and the cursor, and a data dir written before the rollups existed. Beside them a
 * naive materialized view over `swaps` (analytics.md §5.2) is shown to count the same inserts wrongly.
 * One chdb path per process: the tests share it and run serially.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { z } from "zod";
import { rollupDone } from "../../api/queries/sql/rollup-status.ts";
import { selectPoolStats } from "../../api/queries/sql/stats.ts";
import { selectPoolStateTimeline } from "../../api/queries/sql/tvl.ts";
import { MemoryReadModel } from "../../api/read-model-memory.ts";
import { poolState } from "../../dex/amm/index.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import {
  BACKFILLED,
  DAY,
  HOUR,
  POOL_SECONDS_FILLED,
  POOL_SUMS,
  PRICED_PAIRS_FILLED,
  prepareRollups,
  STATE_SNAPSHOTS,
} from "../../infra/store/rollups.ts";
import type { PoolStateRow, ReferralFeeRow, SwapRow } from "../../schemas/facts.ts";
import { rollupsMatchFacts } from "../helpers/rollups-check.ts";
import { poolStateRow, swapRow } from "./_facts.ts";
import { copiesAgree, stateCopiesAgree } from "./_rollups.ts";

const test = anyTest as TestFn<{ dir: string; store: Store }>;

const T0 = 1_763_683_200; // 2025-11-21T00:00:00Z, a day start
const POOL = `0:${"2".repeat(64)}`;
const WA = `0:${"6".repeat(64)}`; // offer router wallet of swapRow: the lesser, token_a
const WB = `0:${"8".repeat(64)}`;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "tondex-rollups-"));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  // The naive design the rollups replace: a view counting what is inserted.
  await store.command(
    `CREATE TABLE naive_1m (pool String, bucket DateTime('UTC'), trades UInt64, volume_a UInt256)
     ENGINE = SummingMergeTree ORDER BY (pool, bucket)`,
  );
  await store.command(
    `CREATE MATERIALIZED VIEW naive_mv TO naive_1m AS SELECT assumeNotNull(pool) AS pool,
       toStartOfMinute(utime) AS bucket, countIf(success = true) AS trades,
       sumIf(amount_in, success = true) AS volume_a FROM swaps WHERE pool IS NOT NULL GROUP BY pool, bucket`,
  );
  t.context = { dir, store };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  rmSync(t.context.dir, { recursive: true, force: true });
});

let seq = 0;
const position = (mc_seqno: number) => ({
  consumer: "rollups-test",
  partition_id: 0,
  mc_seqno,
  next_offset: BigInt(++seq),
});

/** Deletes the rollup_status rows named `name` (and waits for the deletion). */
const forgetStatus = (store: Store, name: string) =>
  store.command("ALTER TABLE rollup_status DELETE WHERE name = {name:String} SETTINGS mutations_sync = 2", {
    name,
  });

/**
 * The next start (`prepareRollups` after `after`) fills a table added after the rollups alone, from the
 * swaps (its progress lines `what backfill: n/n days`; the other rollups not backfilled again), `filled`
 * then checks its rows; the start after that fills nothing.
 */
async function fillsOnceAtStart(
  t: ExecutionContext<unknown>,
  store: Store,
  what: string,
  after: number,
  filled: () => Promise<void>,
): Promise<void> {
  const logs: string[] = [];
  const r = await prepareRollups(store, { after, log: (_f, msg) => logs.push(msg) });
  t.is(r.backfilled, false, "the other rollups are not backfilled again");
  const line = new RegExp(`^${what} backfill: (\\d+)/\\1 days$`);
  t.true(
    logs.some((l) => line.test(l)),
    logs.join("\n"),
  );
  await filled();
  // filled once: the next start only rewrites what came after the cursor
  const again: string[] = [];
  await prepareRollups(store, { after, log: (_f, msg) => again.push(msg) });
  t.false(
    again.some((l) => l.startsWith(what)),
    again.join("\n"),
  );
}

/**
 * A data dir from before a dense hourly table (`table`, status row `status`): neither its rows nor its
 * status, every other rollup there. The next start fills it alone, with a progress line (`what: n/n hours`).
 */
async function startWithout(
  t: ExecutionContext<unknown>,
  store: Store,
  table: string,
  status: string,
  what: string,
): Promise<void> {
  await store.command(`TRUNCATE TABLE ${table}`);
  await forgetStatus(store, status);
  const [left] = await store.query(
    "SELECT count() AS n FROM rollup_status WHERE name = {name:String}",
    z.object({ n: z.coerce.number() }),
    { name: status },
  );
  t.is(left?.n, 0);
  const now = Math.floor(Date.now() / 1000);
  await store.insert("rollup_status", [
    { name: BACKFILLED, value: 1, written_at: now },
    { name: PRICED_PAIRS_FILLED, value: 1, written_at: now },
    { name: POOL_SECONDS_FILLED, value: 1, written_at: now },
  ]);
  const logs: string[] = [];
  await prepareRollups(store, { after: 100_000, log: (_f, msg) => logs.push(msg) });
  const line = new RegExp(`^${what}: (\\d+)/\\1 hours$`);
  t.true(
    logs.some((l) => line.test(l)),
    logs.join("\n"),
  );
}

const leg = (i: number, utime: number, o: Partial<SwapRow> = {}): SwapRow =>
  swapRow(i, {
    utime,
    mc_seqno: 100 + i,
    lt: 1_000n + BigInt(i),
    amount_in: 1_000n * BigInt(i),
    amount_out: 7n * BigInt(i),
    protocol_fee: BigInt(i),
    referral_fee: 2n,
    maker: `0:${(i % 3).toString().repeat(64)}`,
    ...o,
  });

const rollupRow = z.object({
  trades: z.coerce.number(),
  not_executed: z.coerce.number(),
  volume_a: z.string(),
  volume_b: z.string(),
  protocol_fee_b: z.string(),
  referral_fee_b: z.string(),
  wallets: z.coerce.number(),
  open: z.tuple([z.string(), z.string()]),
  close: z.tuple([z.string(), z.string()]),
  token_a: z.string(),
  token_b: z.string(),
});

async function rollup(store: Store, table: string, bucket: number) {
  const rows = await store.query(
    `SELECT trades, not_executed, toString(volume_a) AS volume_a, toString(volume_b) AS volume_b,
       toString(protocol_fee_b) AS protocol_fee_b, toString(referral_fee_b) AS referral_fee_b,
       groupBitmapMerge(wallet_bitmap) AS wallets,
       [toString(argMinMerge(open).1), toString(argMinMerge(open).2)] AS open,
       [toString(argMaxMerge(close).1), toString(argMaxMerge(close).2)] AS close, token_a, token_b
     FROM ${table} FINAL WHERE pool = {pool:String} AND bucket = toDateTime({b:UInt32}, 'UTC')
     GROUP BY trades, not_executed, volume_a, volume_b, protocol_fee_b, referral_fee_b, token_a, token_b`,
    rollupRow,
    { pool: POOL, b: bucket },
  );
  return rows[0] ?? null;
}

/** DEX-wide figures of one bucket (every pool together). */
async function dexWide(store: Store, table: string, bucket: number) {
  const [row] = await store.query(
    `SELECT sum(trades) AS trades, groupBitmapMerge(wallet_bitmap) AS wallets FROM ${table} FINAL
     WHERE bucket = toDateTime({b:UInt32}, 'UTC')`,
    z.object({ trades: z.coerce.number(), wallets: z.coerce.number() }),
    { b: bucket },
  );
  return row;
}

/** The seconds rows (026) of POOL in [from, to), oldest first. */
async function seconds(store: Store, from: number, to: number) {
  return store.query(
    `SELECT toUInt32(bucket) AS b, trades, not_executed, toString(volume_a) AS volume_a,
       bitmapCardinality(wallet_bitmap) AS wallets, [toString(last_trade.1), toString(last_trade.2)] AS last
     FROM pool_rollup_1s FINAL
     WHERE pool = {pool:String} AND bucket >= toDateTime({from:UInt32}, 'UTC') AND bucket < toDateTime({to:UInt32}, 'UTC')
     ORDER BY bucket`,
    z.object({
      b: z.number(),
      trades: z.coerce.number(),
      not_executed: z.coerce.number(),
      volume_a: z.string(),
      wallets: z.coerce.number(),
      last: z.tuple([z.string(), z.string()]),
    }),
    { pool: POOL, from, to },
  );
}

async function naive(store: Store, bucket: number) {
  const [row] = await store.query(
    `SELECT sum(trades) AS trades, toString(sum(volume_a)) AS volume_a FROM naive_1m
     WHERE pool = {pool:String} AND bucket = toDateTime({b:UInt32}, 'UTC')`,
    z.object({ trades: z.coerce.number(), volume_a: z.string() }),
    { pool: POOL, b: bucket },
  );
  return row;
}

test.serial("a re-delivered batch changes no rollup; a naive view counts it twice", async (t) => {
  const { store } = t.context;
  const m = T0 + 10 * 60;
  const batch = {
    swaps: [leg(1, m + 5), leg(2, m + 30), leg(3, m + 59, { success: false, amount_out: null })],
  };
  await writeBatch(store, batch, position(103));
  const once = await rollup(store, "pool_rollup_1m", m);
  await writeBatch(store, batch, position(103)); // re-delivered after a crash before the bus commit
  const twice = await rollup(store, "pool_rollup_1m", m);
  const expected = {
    trades: 2,
    not_executed: 1,
    volume_a: "3000",
    volume_b: "21",
    protocol_fee_b: "3",
    referral_fee_b: "4",
    wallets: 2,
    open: ["1000", "7"] as [string, string],
    close: ["2000", "14"] as [string, string],
    token_a: WA,
    token_b: WB,
  };
  t.deepEqual(once, expected);
  t.deepEqual(twice, expected);
  t.deepEqual(await rollup(store, "pool_rollup_1h", m - 10 * 60), expected);
  t.deepEqual(await rollup(store, "pool_rollup_1d", T0), expected);
  t.deepEqual(await dexWide(store, "dex_rollup_1m", m), { trades: 2, wallets: 2 });
  t.deepEqual(await dexWide(store, "dex_rollup_1d", T0), { trades: 2, wallets: 2 });
  // The seconds rows: one per second with a leg (the failed leg's without a trade), after the re-delivery.
  t.deepEqual(await seconds(store, m, m + 60), [
    { b: m + 5, trades: 1, not_executed: 0, volume_a: "1000", wallets: 1, last: ["1000", "7"] },
    { b: m + 30, trades: 1, not_executed: 0, volume_a: "2000", wallets: 1, last: ["2000", "14"] },
    { b: m + 59, trades: 0, not_executed: 1, volume_a: "0", wallets: 0, last: ["0", "0"] },
  ]);
  t.deepEqual(await naive(store, m), { trades: 4, volume_a: "6000" }, "the naive view double-counts");
  await copiesAgree(t, store);
  // Three makers (0:0…, 0:1…, 0:2…; the failed leg's too), each with one id, dense from 1, after the re-delivery.
  t.deepEqual(await walletIds(store), [
    [`0:${"0".repeat(64)}`, 1],
    [`0:${"1".repeat(64)}`, 2],
    [`0:${"2".repeat(64)}`, 3],
  ]);
});

async function walletIds(store: Store): Promise<[string, number][]> {
  const rows = await store.query(
    "SELECT wallet, id FROM wallet_ids ORDER BY id, wallet",
    z.object({ wallet: z.string(), id: z.coerce.number() }),
  );
  return rows.map((r) => [r.wallet, r.id]);
}

test.serial(
  "an operation re-emitted with other contents in another batch is counted once, as stored last",
  async (t) => {
    const { store } = t.context;
    const m = T0 + 2 * HOUR;
    await writeBatch(store, { swaps: [leg(11, m + 1), leg(12, m + 2, { amount_out: 1n })] }, position(112));
    // After a restart the window is rebuilt: leg 12 comes again, with another payout, and with leg 13.
    await writeBatch(
      store,
      { swaps: [leg(12, m + 2), leg(13, m + 3, { maker: `0:${"9".repeat(64)}` })] },
      position(113),
    );
    const row = await rollup(store, "pool_rollup_1m", m);
    t.like(row, {
      trades: 3,
      not_executed: 0,
      volume_a: String(1000n * (11n + 12n + 13n)),
      volume_b: String(7n * (11n + 12n + 13n)),
      wallets: 3,
      open: ["11000", "77"],
      close: ["13000", "91"],
    });
    t.like(await rollup(store, "pool_rollup_1d", T0), { trades: 5, wallets: 4 });
    t.deepEqual(await dexWide(store, "dex_rollup_1d", T0), { trades: 5, wallets: 4 });
    t.deepEqual(await naive(store, m), { trades: 4, volume_a: String(1000n * (11n + 12n + 12n + 13n)) });
    await copiesAgree(t, store);
    // The new maker 0:9… got the next id; the known ones kept theirs.
    t.deepEqual((await walletIds(store)).slice(3), [[`0:${"9".repeat(64)}`, 4]]);
  },
);

test.serial(
  "facts stored without their rollups (crash before the cursor) are rolled up at start",
  async (t) => {
    const { store } = t.context;
    const m = T0 + 3 * HOUR + 7 * 60;
    // The crash: facts inserted, then nothing (no rollup rewrite, no cursor).
    await store.insert("swaps", [leg(21, m + 4)]);
    t.is(await rollup(store, "pool_rollup_1m", m), null);
    const logs: string[] = [];
    const r = await prepareRollups(store, { after: 113, log: (_f, msg) => logs.push(msg) });
    t.deepEqual(r, { backfilled: true, minutes: 0 }, "first start on this dir: a backfill");
    t.like(await rollup(store, "pool_rollup_1m", m), { trades: 1, volume_a: "21000" });
    t.true(
      logs.some((l) => /rollups backfill: 1\/1 days/.test(l)),
      logs.join("\n"),
    );
    // Later crashes are caught by the cursor: facts after it are rewritten.
    await store.insert("swaps", [leg(22, m + 9)]);
    t.deepEqual(await prepareRollups(store, { after: 113, log: () => {} }), {
      backfilled: false,
      minutes: 1,
    });
    t.like(await rollup(store, "pool_rollup_1m", m), { trades: 2, volume_a: "43000" });
    t.like(await rollup(store, "pool_rollup_1d", T0), { trades: 7 });
    await copiesAgree(t, store);
  },
);

test.serial(
  "pool states stored without their copy by time (a kill inside the insert) are copied again at start",
  async (t) => {
    const { store } = t.context;
    const pool = `0:${"b".repeat(64)}`;
    // Blocks 1400–1402 (poolStateRow: mc_seqno 500 + lt); the stored cursor at 1400.
    const states = [900, 901, 902].map((lt) => poolStateRow(pool, lt, T0 + 9 * DAY + lt));
    await store.insert("pool_states", states);
    const copied = async () =>
      (
        await store.query(
          "SELECT toUInt32(lt) AS lt FROM pool_states_by_utime FINAL WHERE pool = {pool:String} ORDER BY lt",
          z.object({ lt: z.number() }),
          { pool },
        )
      ).map((r) => r.lt);
    t.deepEqual(await copied(), [900, 901, 902], "the view copies each inserted row");
    // What a kill between the insert and its view leaves: the states stored, their copy not.
    await store.command(
      "ALTER TABLE pool_states_by_utime DELETE WHERE pool = {pool:String} SETTINGS mutations_sync = 2",
      { pool },
    );
    t.deepEqual(await copied(), []);
    await prepareRollups(store, { after: 1400, log: () => {} });
    // The states after the cursor are copied again; one at or before it was stored with its copy before
    // the cursor was written, so it is not read again.
    t.deepEqual(await copied(), [901, 902]);
    await prepareRollups(store, { after: 1399, log: () => {} });
    t.deepEqual(await copied(), [900, 901, 902]);
    await prepareRollups(store, { after: 1399, log: () => {} });
    t.deepEqual(await copied(), [900, 901, 902], "copying again leaves the same states");
    await stateCopiesAgree(t, store);
  },
);

test.serial(
  "referral accruals and withdrawals: exact under re-delivery, per referrer and asset",
  async (t) => {
    const { store } = t.context;
    const m = T0 + DAY + 60;
    const referrer = `0:${"c".repeat(64)}`;
    const fee = (i: number, amount: bigint, o: Partial<ReferralFeeRow> = {}): ReferralFeeRow => ({
      id: `fee${i}`,
      tx_hash: "d".repeat(64),
      lt: BigInt(i),
      mc_seqno: 200 + i,
      utime: m + i,
      tx_hashes: [],
      kind: "vault_deposit",
      dex: "v2",
      router: null,
      pool: POOL,
      vault: `0:${"e".repeat(64)}`,
      referrer,
      asset_kind: "jetton",
      asset_master: `0:${"5".repeat(64)}`,
      asset_router_wallet: WB,
      amount,
      query_id: 1n,
      msg_hash: null,
      success: true,
      payout_to: null,
      payout_amount: null,
      payout_router_wallet: null,
      payout_receiver_wallet: null,
      payout_delivered: null,
      payout_tx_hash: null,
      amount_usd: null,
      ...o,
    });
    const batch = {
      referral_fees: [
        fee(1, 10n ** 30n, { amount_usd: 12.5 }),
        fee(2, 5n),
        fee(3, 9n, { success: false, amount_usd: 7 }),
      ],
    };
    await writeBatch(store, batch, position(203));
    await writeBatch(store, batch, position(203));
    const read = async () =>
      (
        await store.query(
          `SELECT toString(sum(accrued)) AS accrued, sum(accruals) AS n, toString(sum(withdrawn)) AS withdrawn,
           sum(accrued_usd) AS usd, sum(accrued_usd_unknown) AS unknown
         FROM referral_rollup_1d FINAL WHERE referrer = {r:String}`,
          z.object({
            accrued: z.string(),
            n: z.coerce.number(),
            withdrawn: z.string(),
            usd: z.coerce.number(),
            unknown: z.coerce.number(),
          }),
          { r: referrer },
        )
      )[0];
    // the failed accrual counts nowhere; the unpriced one is counted as unknown, not as 0 USD
    t.deepEqual(await read(), {
      accrued: String(10n ** 30n + 5n),
      n: 2,
      withdrawn: "0",
      usd: 12.5,
      unknown: 1,
    });
    // the batch retried with other contents (the second fee now priced): the rewrite replaces the bucket
    const retried = {
      referral_fees: [batch.referral_fees[0]!, fee(2, 5n, { amount_usd: 0.25 }), batch.referral_fees[2]!],
    };
    await writeBatch(store, retried, position(203));
    t.deepEqual(await read(), {
      accrued: String(10n ** 30n + 5n),
      n: 2,
      withdrawn: "0",
      usd: 12.75,
      unknown: 0,
    });
  },
);

test.serial(
  "pool states per hour and day: the last state at or before each boundary, exact under re-delivery",
  async (t) => {
    const { store } = t.context;
    const pool = `0:${"a".repeat(64)}`;
    const d = T0 + 5 * DAY;
    const state = (lt: number, utime: number, reserve0: bigint): PoolStateRow => ({
      ...poolStateRow(pool, lt, utime),
      reserve0,
    });
    // A state exactly on a boundary is the state at it; the next second belongs to the next boundary.
    const first = [state(1, d + 10, 100n), state(2, d + HOUR, 200n), state(3, d + HOUR + 1, 300n)];
    await writeBatch(store, { pool_states: first }, position(503));
    await writeBatch(store, { pool_states: first }, position(503)); // re-delivered
    // Another batch: a later state in the same hour, and one in the next day.
    await writeBatch(
      store,
      { pool_states: [state(4, d + HOUR + 50, 400n), state(5, d + DAY + 1, 500n)] },
      position(505),
    );
    const rows = (level: string) =>
      store.query(
        `SELECT toUInt32(at) AS at, lt, toString(reserve0) AS r FROM pool_state_rollup_${level} FINAL
       WHERE pool = {pool:String} ORDER BY at`,
        z.object({ at: z.coerce.number(), lt: z.coerce.number(), r: z.string() }),
        { pool },
      );
    t.deepEqual(await rows("1h"), [
      { at: d + HOUR, lt: 2, r: "200" },
      { at: d + 2 * HOUR, lt: 4, r: "400" },
      { at: d + DAY + HOUR, lt: 5, r: "500" },
    ]);
    t.deepEqual(await rows("1d"), [
      { at: d + DAY, lt: 4, r: "400" },
      { at: d + 2 * DAY, lt: 5, r: "500" },
    ]);
    t.true((await stateCopiesAgree(t, store)) >= 5);
  },
);

test.serial(
  "the TVL history's pool states from the rollups equal the last state at or before each boundary",
  async (t) => {
    const { store } = t.context;
    const d = T0 + 10 * DAY;
    const pools = [`0:${"b".repeat(64)}`, `0:${"c".repeat(64)}`];
    // Odd times over three days, some exactly on hour and day boundaries, written in two batches.
    const times = [
      d - 1,
      d,
      d + 17,
      d + HOUR,
      d + 5 * HOUR - 10,
      d + 5 * HOUR + 3,
      d + DAY - 1,
      d + DAY,
      d + DAY + 7 * HOUR + 59,
      d + 2 * DAY + 1,
    ];
    const rows = times.flatMap((utime, i) =>
      pools.map(
        (pool, k): PoolStateRow => ({
          ...poolStateRow(pool, 10_000 + 2 * i + k, utime),
          reserve0: BigInt(1000 * i + k),
        }),
      ),
    );
    // A third pool of its own times: open at some instants of a day (a later state before midnight) and
    // settled at others; its day's row rewritten by the second batch (an older version stays beside it).
    const third = `0:${"d".repeat(64)}`;
    // (lt follows time, as an account's transactions do; the batches hold them out of that order)
    const ownTimes = [d + 2 * HOUR + 5, d + 5 * HOUR - 10, d + DAY - 30, d + DAY + 10 * HOUR];
    const own = [0, 2, 1, 3].map(
      (i): PoolStateRow => ({
        ...poolStateRow(third, 20_000 + i, ownTimes[i] as number),
        reserve0: BigInt(7_000 + i),
      }),
    );
    await writeBatch(store, { pool_states: [...rows.slice(0, 7), ...own.slice(0, 2)] }, position(700));
    await writeBatch(store, { pool_states: [...rows.slice(5), ...own.slice(2)] }, position(701));
    const all = await store.query(
      "SELECT pool, lt, toUInt32(utime) AS utime, toString(reserve0) AS r FROM pool_states FINAL",
      z.object({ pool: z.string(), lt: z.coerce.number(), utime: z.coerce.number(), r: z.string() }),
    );
    // Independently: per pool, the state with the greatest lt among those at or before t.
    const expectedAt = (at: number, only?: readonly string[]) => {
      const out = new Map<string, { lt: number; r: string }>();
      for (const s of all) {
        if (only !== undefined && !only.includes(s.pool)) continue;
        const seen = out.get(s.pool);
        if (s.utime <= at && (seen === undefined || s.lt > seen.lt)) out.set(s.pool, { lt: s.lt, r: s.r });
      }
      return Object.fromEntries([...out].map(([p, s]) => [p, s.r]).sort());
    };
    const cases = [
      { first: d - DAY, until: d + 3 * DAY, step: DAY },
      { first: d - HOUR, until: d + 2 * DAY + HOUR, step: HOUR },
      { first: d + 17, until: d + 17, step: 1 },
      { first: d + 5 * HOUR + 2, until: d + 5 * HOUR + 2, step: 1 },
      // Pools quiet over the look-back (none, one day) are read by key.
      { first: d + DAY + HOUR, until: d + 2 * DAY + HOUR, step: HOUR, lookbackDays: 0 },
      { first: d + DAY + 5, until: d + DAY + 5, step: 1, lookbackDays: 0 },
      { first: d + 2 * DAY, until: d + 3 * DAY, step: DAY, lookbackDays: 1 },
      { first: d + DAY - 1, until: d + DAY - 1, step: 1 },
      { first: d + 30 * 60, until: d + DAY + 8 * HOUR, step: 2 * HOUR },
      // Only some pools' states (one pool's TVL history).
      { first: d - DAY, until: d + 3 * DAY, step: DAY, pools: [pools[1] as string] },
      {
        first: d + DAY + HOUR,
        until: d + 2 * DAY + HOUR,
        step: HOUR,
        lookbackDays: 0,
        pools: [pools[0] as string],
      },
      { first: d + 17, until: d + DAY, step: 1_000, pools: [] },
    ];
    // The state at single instants around every state and boundary: late in a day (few pools open) and
    // early (most open), one pool and every pool.
    const instants = [
      ...new Set([
        ...[...times, ...own.map((o) => o.utime)].flatMap((u) => [u - 1, u, u + 1]),
        ...[0, 1, 2].flatMap((k) => [d + k * DAY - 1, d + k * DAY + HOUR - 1, d + k * DAY + 23 * HOUR + 1]),
      ]),
    ].sort((a, b) => a - b);
    for (const at of instants) {
      cases.push({ first: at, until: at, step: 1 });
      cases.push({ first: at, until: at, step: 1, pools: [third] });
    }
    // The in-memory read model (tests and the embedded default without a store) reads the same states.
    // (every state the store holds, earlier tests' too; reserve0 is what is compared)
    const memory = new MemoryReadModel({
      poolStates: all.map((s) => ({
        pool: s.pool,
        utime: s.utime,
        lt: BigInt(s.lt),
        state: poolState({ type: "v2_constant_product", reserve0: BigInt(s.r) }),
      })),
    });
    for (const c of cases) {
      const read = [
        ["store", await selectPoolStateTimeline(store, c)],
        ["memory", await memory.getPoolStateTimeline(c)],
      ] as const;
      for (const [model, points] of read) {
        const timeline = [...points].sort((a, b) => a.at - b.at);
        const states = new Map<string, string>();
        let next = 0;
        for (let at = c.first; at <= c.until; at += c.step) {
          for (; next < timeline.length && (timeline[next]?.at ?? Infinity) <= at; next++) {
            const p = timeline[next];
            if (p !== undefined) states.set(p.pool, String(p.state.reserve0));
          }
          t.deepEqual(
            Object.fromEntries([...states].sort()),
            expectedAt(at, c.pools),
            `${model}: ${JSON.stringify(c)} at ${at}`,
          );
        }
      }
    }
  },
);

test.serial(
  "priced pairs per hour boundary: exact under re-delivery; a data dir rolled up before them fills them at start",
  async (t) => {
    const { store } = t.context;
    const d = T0 + 20 * DAY;
    const OFFER = `0:${"5".repeat(64)}`; // swapRow's masters
    const ASK = `0:${"7".repeat(64)}`;
    // A leg exactly on a boundary belongs to it; the next second to the next one. Unpriced (null) and
    // untracked (0 USD) legs and a refund count nowhere.
    const legs = [
      leg(31, d + 10, { volume_usd: 1.5 }),
      leg(32, d + HOUR, { volume_usd: 2.25 }),
      leg(33, d + HOUR + 1, { volume_usd: 4 }),
      leg(34, d + 20, { volume_usd: null }),
      leg(35, d + 30, { volume_usd: 0 }),
      leg(36, d + 40, { amount_out: null, success: false, volume_usd: null }),
    ];
    await writeBatch(store, { swaps: legs }, position(801));
    await writeBatch(store, { swaps: legs }, position(801)); // re-delivered
    const pairs = () =>
      store.query(
        `SELECT toUInt32(at) AS at, offer_master, ask_master, toString(amount_in) AS a_in,
           toString(amount_out) AS a_out, volume_usd AS usd, trades
         FROM priced_pairs_1h FINAL WHERE at > toDateTime({from:UInt32}, 'UTC') AND trades > 0 ORDER BY at`,
        z.object({
          at: z.coerce.number(),
          offer_master: z.string(),
          ask_master: z.string(),
          a_in: z.string(),
          a_out: z.string(),
          usd: z.number(),
          trades: z.coerce.number(),
        }),
        { from: d },
      );
    const expected = [
      {
        at: d + HOUR,
        offer_master: OFFER,
        ask_master: ASK,
        a_in: String(31_000n + 32_000n),
        a_out: String(7n * 31n + 7n * 32n),
        usd: 3.75,
        trades: 2,
      },
      {
        at: d + 2 * HOUR,
        offer_master: OFFER,
        ask_master: ASK,
        a_in: "33000",
        a_out: String(7n * 33n),
        usd: 4,
        trades: 1,
      },
    ];
    t.deepEqual(await pairs(), expected);
    // A data dir rolled up before migration 021: no priced pairs, no flag. The next start fills them.
    await store.command("TRUNCATE TABLE priced_pairs_1h");
    await store.command("TRUNCATE TABLE rollup_status");
    await store.insert("rollup_status", [
      { name: BACKFILLED, value: 1, written_at: Math.floor(Date.now() / 1000) },
    ]);
    t.deepEqual(await pairs(), []);
    await fillsOnceAtStart(t, store, "priced pairs", 10_000, async () => {
      t.deepEqual(await pairs(), expected);
    });
  },
);

test.serial(
  "state snapshots: every pool at every hour boundary up to the newest state; a late state rewrites from its boundary; a data dir from before them fills them at start",
  async (t) => {
    const { store } = t.context;
    const d = T0 + 40 * DAY; // after every other test's states: the newest boundary is this test's
    const [x, y] = [`0:${"9a".repeat(32)}`, `0:${"9b".repeat(32)}`];
    const state = (pool: string, lt: number, utime: number): PoolStateRow => ({
      ...poolStateRow(pool, lt, utime),
      reserve0: BigInt(lt),
    });
    const snapshots = () =>
      store.query(
        `SELECT pool, toUInt32(at) AS at, toUInt32(lt) AS lt FROM pool_state_at_hour FINAL
         WHERE pool IN ({x:String}, {y:String}) ORDER BY at, pool`,
        z.object({ pool: z.string(), at: z.number(), lt: z.number() }),
        { x, y },
      );
    const done = () => rollupDone(store, STATE_SNAPSHOTS, 0);
    // x at d + 30 min: its first boundary d + 1 h is not written while no state has reached it.
    await writeBatch(store, { pool_states: [state(x, 9_001, d + 30 * 60)] }, position(9_001));
    t.deepEqual(await snapshots(), []);
    t.is(await done(), d);
    // y at d + 3 h + 10 s: the boundaries d + 1 h to d + 3 h are written; y has no state before d + 4 h.
    await writeBatch(store, { pool_states: [state(y, 9_002, d + 3 * HOUR + 10)] }, position(9_002));
    const before = [1, 2, 3].map((h) => ({ pool: x, at: d + h * HOUR, lt: 9_001 }));
    t.deepEqual(await snapshots(), before);
    t.is(await done(), d + 3 * HOUR);
    // A late state of x at d + 2 h − 5 s: from its boundary d + 2 h on, and not before.
    const rewrites = () =>
      store.query(
        "SELECT toUInt32(at) AS at, max(written) AS w FROM pool_state_hours_written WHERE at >= toDateTime({d:UInt32}, 'UTC') GROUP BY at ORDER BY at",
        z.object({ at: z.number(), w: z.string() }),
        { d },
      );
    const writtenBefore = await rewrites();
    await writeBatch(store, { pool_states: [state(x, 9_003, d + 2 * HOUR - 5)] }, position(9_003));
    const after = [
      { pool: x, at: d + HOUR, lt: 9_001 },
      { pool: x, at: d + 2 * HOUR, lt: 9_003 },
      { pool: x, at: d + 3 * HOUR, lt: 9_003 },
    ];
    t.deepEqual(await snapshots(), after);
    t.is(await done(), d + 3 * HOUR);
    const writtenAfter = await rewrites();
    t.deepEqual(
      writtenAfter.filter((r) => writtenBefore.find((b) => b.at === r.at)?.w !== r.w).map((r) => r.at),
      [d + 2 * HOUR, d + 3 * HOUR],
      "the kept DEX TVL points of the boundaries rewritten are stale, no others",
    );
    // The state at an instant of every pool reads the snapshot at d + 3 h and the raw states after it.
    const at = d + 3 * HOUR + 30;
    const reserves = async () =>
      (await selectPoolStateTimeline(store, { first: at, until: at, step: HOUR, snapshotMaxAgeMs: 0 }))
        .filter((p) => p.pool === x || p.pool === y)
        .map((p) => ({ pool: p.pool, reserve0: p.state.reserve0 }));
    t.deepEqual(await reserves(), [
      { pool: x, reserve0: 9_003n },
      { pool: y, reserve0: 9_002n },
    ]);
    // (the snapshot is what it reads: a row put there by hand, with a greater lt than y's state, is read)
    const { tx_hash: _hash, mc_seqno: _seqno, ...row } = state(y, 9_999, d + 3 * HOUR);
    await store.insert("pool_state_at_hour", [{ ...row, at: d + 3 * HOUR }]);
    t.deepEqual((await reserves())[1], { pool: y, reserve0: 9_999n });
    await store.command("ALTER TABLE pool_state_at_hour DELETE WHERE lt = 9999 SETTINGS mutations_sync = 2");
    t.deepEqual((await reserves())[1], { pool: y, reserve0: 9_002n });
    const check = await rollupsMatchFacts(store);
    t.deepEqual(check.problems, []);
    t.true(check.checked > 0);
    // A data dir from before migration 024: no snapshot, no status. The next start fills them, with a
    // progress line, from the first state of the store (T0's day) to the newest state's boundary.
    await startWithout(t, store, "pool_state_at_hour", STATE_SNAPSHOTS, "state snapshots");
    t.deepEqual(await snapshots(), after);
    t.is(await done(), d + 3 * HOUR);
    t.deepEqual((await rollupsMatchFacts(store)).problems, []);
  },
);

test.serial(
  "pool sums: every pool's running totals at every hour boundary up to the newest swap; a late leg rewrites from the next boundary on; every pool's statistics read them; a data dir from before them fills them at start",
  async (t) => {
    const { store } = t.context;
    const d = T0 + 50 * DAY; // after every other test's swaps: the newest boundary is this test's
    const [x, y, z5] = [`0:${"5a".repeat(32)}`, `0:${"5b".repeat(32)}`, `0:${"5c".repeat(32)}`];
    const sums = () =>
      store.query(
        `SELECT pool, toUInt32(at) AS at, trades, toString(volume_a) AS volume_a, last_trade.1 AS last_a
         FROM pool_sums_at_hour FINAL
         WHERE pool IN ({x:String}, {y:String}) AND at >= toDateTime({d:UInt32}, 'UTC') ORDER BY at, pool`,
        z.object({
          pool: z.string(),
          at: z.number(),
          trades: z.coerce.number(),
          volume_a: z.string(),
          last_a: z.string(),
        }),
        { x, y, d },
      );
    const versions = () =>
      store.query(
        `SELECT toUInt32(at) AS at, toString(max(version)) AS v FROM pool_sums_at_hour
         WHERE pool = {x:String} GROUP BY at ORDER BY at`,
        z.object({ at: z.number(), v: z.string() }),
        { x },
      );
    const done = () => rollupDone(store, POOL_SUMS, 0);
    // Two legs of x in the hour after d: no boundary after them is written while no swap has reached it.
    // (and a leg of z worth 1e20 USD: its running USD sums dwarf what comes after)
    await writeBatch(
      store,
      {
        swaps: [
          leg(501, d + 600, { pool: x }),
          leg(502, d + 700, { pool: x }),
          leg(505, d + 300, { pool: z5, volume_usd: 1e20 }),
        ],
      },
      position(9_101),
    );
    t.deepEqual(await sums(), []);
    t.is(await done(), d);
    // A leg of y at d + 3 h + 10 s: the boundaries d + 1 h to d + 3 h are written, with x's two legs.
    await writeBatch(
      store,
      {
        swaps: [
          leg(504, d + 3 * HOUR + 10, { pool: y }),
          leg(506, d + 2 * HOUR + 100, { pool: z5, volume_usd: 2.5 }),
          leg(507, d + 3 * HOUR + 15, { pool: z5, volume_usd: 1.25 }),
        ],
      },
      position(9_102),
    );
    const two = { pool: x, trades: 2, volume_a: "1003000", last_a: "502000" };
    t.deepEqual(
      await sums(),
      [1, 2, 3].map((h) => ({ ...two, at: d + h * HOUR })),
    );
    t.is(await done(), d + 3 * HOUR);
    // A late leg of x at d + 2 h − 5 s: the boundaries after its hour (d + 2 h, d + 3 h), not d + 1 h.
    const before = await versions();
    await writeBatch(store, { swaps: [leg(503, d + 2 * HOUR - 5, { pool: x })] }, position(9_103));
    const three = { pool: x, trades: 3, volume_a: "1506000", last_a: "503000" };
    t.deepEqual(await sums(), [
      { ...two, at: d + HOUR },
      { ...three, at: d + 2 * HOUR },
      { ...three, at: d + 3 * HOUR },
    ]);
    t.is(await done(), d + 3 * HOUR);
    const after = await versions();
    t.deepEqual(
      after.filter((r) => before.find((b) => b.at === r.at)?.v !== r.v).map((r) => r.at),
      [d + 2 * HOUR, d + 3 * HOUR],
    );
    // Every pool's statistics without the makers: the whole hours [d + 1 h, d + 3 h) are the sums at d + 3 h
    // less those at d + 1 h, the partial hours at both ends from the legs (x's leg 502, y's leg).
    const w = { since: d + 650, until: d + 3 * HOUR + 20 };
    const ours = (r: { pool: string }) => [x, y, z5].includes(r.pool);
    const stats = async () =>
      (await selectPoolStats(store, w, null, false, { sumsMaxAgeMs: 0 })).filter(ours).map((r) => ({
        pool: r.pool,
        trades: r.trades,
        volume_a: r.volume_a,
        last: r.last[0],
        volume_usd: r.volume_usd,
      }));
    const expected = [
      { pool: x, trades: 2, volume_a: 1_005_000n, last: 503_000n, volume_usd: 0 },
      { pool: y, trades: 1, volume_a: 504_000n, last: 504_000n, volume_usd: 0 },
      // z's whole hours: 1e20 + 2.5 less 1e20 is 0 in floats; its USD differences are flagged and read from
      // its hour rows instead: 2.5 and the edge's 1.25
      { pool: z5, trades: 2, volume_a: 1_013_000n, last: 507_000n, volume_usd: 3.75 },
    ];
    t.deepEqual(await stats(), expected);
    const [zSums] = await store.query(
      `SELECT anyIf(volume_usd, at = toDateTime({s2:UInt32}, 'UTC')) - anyIf(volume_usd, at = toDateTime({s1:UInt32}, 'UTC')) AS d
       FROM pool_sums_at_hour FINAL WHERE pool = {z:String}`,
      z.object({ d: z.number() }),
      { z: z5, s1: d + HOUR, s2: d + 3 * HOUR },
    );
    t.is(zSums?.d, 0, "the float difference has lost z's 2.5 USD");
    // (the same as the hour rows and legs give, which the read counting the makers takes)
    const withMakers = await selectPoolStats(store, w, null, true);
    t.deepEqual(
      withMakers.filter(ours).map((r) => ({ ...r, unique_wallets: null })),
      (await selectPoolStats(store, w, null, false, { sumsMaxAgeMs: 0 })).filter(ours),
    );
    // (the sums are what it reads: a row put there by hand with 10 more trades at d + 3 h is read; the row
    // put back with a greater version, the sums are as written again)
    const [row] = await store.query(
      `SELECT * EXCEPT (at, version), toUInt32(at) AS at, version FROM pool_sums_at_hour FINAL
       WHERE pool = {x:String} AND at = toDateTime({at:UInt32}, 'UTC')`,
      z.object({ trades: z.coerce.number(), version: z.coerce.bigint() }).passthrough(),
      { x, at: d + 3 * HOUR },
    );
    if (row === undefined) return t.fail("x has no sums at d + 3 h");
    await store.insert("pool_sums_at_hour", [{ ...row, trades: row.trades + 10, version: row.version + 1n }]);
    t.is((await stats())[0]?.trades, 12);
    await store.insert("pool_sums_at_hour", [{ ...row, version: row.version + 2n }]);
    t.deepEqual(await stats(), expected);
    const check = await rollupsMatchFacts(store);
    t.deepEqual(check.problems, []);
    // A data dir from before migration 025: no sums, no status. The next start fills them, with a progress
    // line, from the first swap's hour to the newest swap's boundary.
    await startWithout(t, store, "pool_sums_at_hour", POOL_SUMS, "pool sums");
    t.deepEqual(await sums(), [
      { ...two, at: d + HOUR },
      { ...three, at: d + 2 * HOUR },
      { ...three, at: d + 3 * HOUR },
    ]);
    t.is(await done(), d + 3 * HOUR);
    t.deepEqual((await rollupsMatchFacts(store)).problems, []);
  },
);

test.serial(
  "seconds rows: a data dir rolled up before them (migration 026) fills them at start",
  async (t) => {
    const { store } = t.context;
    const rows = () =>
      store.query(
        `SELECT pool, toUInt32(bucket) AS b, toString(tuple(* EXCEPT (pool, bucket, wallet_bitmap, version))) AS sums,
         bitmapToArray(wallet_bitmap) AS wallets
       FROM pool_rollup_1s FINAL ORDER BY b, pool`,
        z.object({ pool: z.string(), b: z.number(), sums: z.string(), wallets: z.array(z.coerce.number()) }),
      );
    const before = await rows();
    t.true(before.length > 10, `${before.length} seconds rows written by the earlier tests' batches`);
    await store.command("TRUNCATE TABLE pool_rollup_1s");
    await forgetStatus(store, POOL_SECONDS_FILLED);
    await fillsOnceAtStart(t, store, "pool seconds", 100_000, async () => {
      t.deepEqual(await rows(), before);
      t.deepEqual((await rollupsMatchFacts(store)).problems, []);
    });
  },
);

test.serial(
  "a full backfill over a data dir rolled up before (a generation bumped) advances the dense tables once",
  async (t) => {
    const { store } = t.context;
    await forgetStatus(store, BACKFILLED);
    // The boundaries each dense table's statements write (their {lo}..{hi}, hour multiples).
    const written = { pool_state_at_hour: 0, pool_sums_at_hour: 0 };
    const counting: Store = Object.assign(Object.create(store) as Store, {
      command: (sql: string, params?: Record<string, unknown>) => {
        for (const table of Object.keys(written) as (keyof typeof written)[])
          if (sql.includes(`INSERT INTO ${table} `))
            written[table] += (Number(params?.hi) - Number(params?.lo)) / HOUR + 1;
        return store.command(sql, params);
      },
    });
    const logs: string[] = [];
    const r = await prepareRollups(counting, {
      after: 100_000,
      log: (_f, msg) => logs.push(msg),
      daysPerStep: 7,
    });
    t.true(r.backfilled);
    const steps = logs.filter((l) => l.startsWith("rollups backfill: ")).length;
    t.true(steps > 3, `${steps} steps of a week: the earlier tests' facts span several weeks`);
    // Each dense table in one pass after the steps, from its first boundary to the newest: every progress
    // line counts the same total (a step's own advance would have rewritten from its week to the newest).
    for (const [what, table] of [
      ["state snapshots", "pool_state_at_hour"],
      ["pool sums", "pool_sums_at_hour"],
    ] as const) {
      const lines = logs.filter((l) => l.startsWith(`${what}: `));
      const totals = new Set(lines.map((l) => l.split("/")[1]));
      t.is(totals.size, 1, `${what}:\n${lines.join("\n")}`);
      t.is(written[table], Number(lines[0]?.split("/")[1]?.split(" ")[0]), `${table}: each boundary once`);
      t.regex(lines.at(-1) ?? "", new RegExp(`^${what}: (\\d+)/\\1 hours$`));
      t.true(
        logs.indexOf(lines[0] ?? "") > logs.findLastIndex((l) => l.startsWith("rollups backfill: ")),
        "after the last step",
      );
    }
    t.deepEqual((await rollupsMatchFacts(store)).problems, []);
  },
);
