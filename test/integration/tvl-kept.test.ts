/**
 * DEX TVL points kept at hour boundaries (migration 020, api/queries/tvl.ts): a history answered from kept
 * points equals the one computed from the states every time, and stays equal when a late state arrives for
 * an hour already kept, when a listed pool's token changes, and under another pricing configuration. Its
 * own file: one chdb path per process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import type { ApiDeps } from "../../api/deps.ts";
import { pricingFingerprint, tvlHistory } from "../../api/queries/tvl.ts";
import { keepDexTvlInBackground } from "../../api/queries/tvl-keeper.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { ClickHouseStatsReadModel } from "../../api/read-model-stats.ts";
import type { PoolState } from "../../dex/amm/index.ts";
import { poolStateColumns } from "../../dex/pool-state-row.ts";
import { DEFAULT_THRESHOLDS, type PricingConfig, TON_ADDRESS } from "../../dex/pricing/index.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import { HOUR } from "../../infra/store/rollups.ts";
import type { PoolStateRow } from "../../schemas/facts.ts";
import { FACTS, P_CPI, P_V1, T0, USDT } from "./_read-model-fixtures.ts";

const test = anyTest as TestFn<{ dir: string; store: Store }>;

const PRICING: PricingConfig = {
  usdAnchors: [{ address: USDT, decimals: 6 }],
  tonAliases: [TON_ADDRESS],
  lsds: [],
  blacklist: [],
  ...DEFAULT_THRESHOLDS,
};
/** The first hour boundary after the fixture's states (all at T0). */
const H = Math.ceil((T0 + 1) / HOUR) * HOUR;

let seq = 0;
const position = () => ({
  consumer: "tvl-kept-test",
  partition_id: 0,
  mc_seqno: 10 + ++seq,
  next_offset: BigInt(seq),
});

/** The pool's fixture state with reserves scaled by `k` percent, at `utime`. */
const state = (
  pool: { address: string; state: PoolState },
  lt: bigint,
  utime: number,
  k: bigint,
): PoolStateRow => ({
  pool: pool.address,
  lt,
  tx_hash: lt.toString(16).padStart(64, "0"),
  mc_seqno: 2,
  utime,
  ...poolStateColumns({
    ...pool.state,
    reserve0: (pool.state.reserve0 * k) / 100n,
    reserve1: (pool.state.reserve1 * k) / 100n,
  }),
});

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "tondex-tvl-kept-"));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  // The catalogue, the states and the transactions (the indexed head: T0 + 500); no operations.
  const { routers, assets, pools, pool_states, transactions, messages } = FACTS;
  await writeBatch(store, { routers, assets, pools, pool_states, transactions, messages }, position());
  // TON/USDT pools moving over the hours after T0.
  await writeBatch(
    store,
    {
      pool_states: [
        state(P_V1, 46_000_000_000_001n, H + 10, 120n),
        state(P_CPI, 46_000_000_000_002n, H + HOUR + 20, 80n),
        state(P_V1, 46_000_000_000_003n, H + 3 * HOUR - 1, 150n),
      ],
    },
    position(),
  );
  t.context = { dir, store };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  rmSync(t.context.dir, { recursive: true, force: true });
});

const depsOf = (store: Store, o: { kept: boolean; pricing?: PricingConfig; tokenless?: string }) => {
  const inner = new ClickHouseReadModel(store);
  const data = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === "listPools" && o.tokenless !== undefined) {
        return async () =>
          (await target.listPools()).map((p) => (p.address === o.tokenless ? { ...p, token1: null } : p));
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    data,
    pricing: o.pricing ?? PRICING,
    clock: () => (H + DAY_MS) * 1000,
    ...(o.kept ? { stats: new ClickHouseStatsReadModel(store) } : {}),
  } as unknown as ApiDeps;
};
const DAY_MS = 86_400;

const WINDOW = { since: H - HOUR, until: H + 6 * HOUR, interval: "hour" as const };

const kept = (store: Store) =>
  store.query(
    "SELECT toUInt32(at) AS at, computed FROM dex_tvl_1h FINAL ORDER BY pricing, at",
    z.object({ at: z.number(), computed: z.string() }),
  );

test.serial(
  "a history from kept points equals the computed one; a late state, a token and the pricing change it alike",
  async (t) => {
    const { store } = t.context;
    const computed = await tvlHistory(depsOf(store, { kept: false }), WINDOW);
    t.is(computed.points.length, 8);
    t.true(new Set(computed.points.map((p) => p.tvlUsd)).size >= 3, "the TVL moves over the window");
    t.deepEqual(await tvlHistory(depsOf(store, { kept: true }), WINDOW), computed, "computed and kept");
    const first = await kept(store);
    t.deepEqual(
      first.map((r) => r.at),
      computed.points.map((p) => p.at),
    );
    t.deepEqual(
      await tvlHistory(depsOf(store, { kept: true }), WINDOW),
      computed,
      "read from the kept points",
    );
    t.deepEqual(await kept(store), first, "nothing computed again");

    // A state arriving late, in an hour whose boundary (and every later one) is kept: those points are
    // computed again, the earlier ones still read.
    await writeBatch(
      store,
      { pool_states: [state(P_CPI, 46_000_000_000_004n, H + 2 * HOUR + 5, 60n)] },
      position(),
    );
    const late = await tvlHistory(depsOf(store, { kept: false }), WINDOW);
    t.notDeepEqual(late.points.at(-1), computed.points.at(-1));
    t.deepEqual(late.points.slice(0, 4), computed.points.slice(0, 4));
    t.deepEqual(await tvlHistory(depsOf(store, { kept: true }), WINDOW), late, "stale points computed again");
    const again = await kept(store);
    t.deepEqual(
      again.filter((r, i) => r.computed !== first[i]?.computed).map((r) => r.at),
      computed.points.slice(4).map((p) => p.at),
      "only the boundaries at or after the late state's hour",
    );

    // A listed pool's token no longer known (a catalogue change): every point it had a state for.
    const tokenless = await tvlHistory(depsOf(store, { kept: false, tokenless: P_CPI.address }), WINDOW);
    t.notDeepEqual(tokenless, late);
    t.deepEqual(await tvlHistory(depsOf(store, { kept: true, tokenless: P_CPI.address }), WINDOW), tokenless);
    t.deepEqual(await tvlHistory(depsOf(store, { kept: true }), WINDOW), late, "and back");

    // Another pricing configuration: its own points.
    const pricing = { ...PRICING, usdAnchors: [] };
    const unpriced = await tvlHistory(depsOf(store, { kept: false, pricing }), WINDOW);
    t.notDeepEqual(unpriced, late);
    t.deepEqual(await tvlHistory(depsOf(store, { kept: true, pricing }), WINDOW), unpriced);
    t.deepEqual(await tvlHistory(depsOf(store, { kept: true }), WINDOW), late);
    // A store refusing the write (a read-only user): the points are computed and answered all the same.
    const readOnly = depsOf(store, { kept: true, pricing: { ...PRICING, minDepthUsd: 1 } });
    const refused: unknown[] = [];
    const stats = new ClickHouseStatsReadModel(store);
    stats.keepDexTvl = () => Promise.reject(new Error("read-only"));
    const answered = await tvlHistory(
      {
        ...readOnly,
        stats,
        logger: { warn: (o: unknown) => refused.push(o), error: () => {}, info: () => {} },
      },
      WINDOW,
    );
    t.deepEqual(answered, await tvlHistory({ ...readOnly, stats: undefined }, WINDOW));
    t.is(refused.length, 1);
    // Daily points are hour boundaries too: read from the same kept points.
    const daily = { since: H - 3 * DAY_MS, until: H + 2 * DAY_MS, interval: "day" as const };
    t.deepEqual(
      await tvlHistory(depsOf(store, { kept: true }), daily),
      await tvlHistory(depsOf(store, { kept: false }), daily),
    );
  },
);

test.serial(
  "the keeper keeps every hour from the first state's day to the head; histories then only read",
  async (t) => {
    const { store } = t.context;
    const pricing = { ...PRICING, minDepthUsd: 7 };
    const deps = depsOf(store, { kept: true, pricing });
    const keeper = keepDexTvlInBackground(deps, { everyMs: 60_000 });
    await keeper.settled();
    await keeper.stop();
    const [head] = await store.query(
      "SELECT toUInt32(max(utime)) AS head FROM transactions",
      z.object({ head: z.number() }),
    );
    const [firstDay] = await store.query(
      "SELECT toUInt32(min(first_day)) AS day FROM pool_first_state_day",
      z.object({ day: z.number() }),
    );
    const hours = await store.query(
      "SELECT toUInt32(at) AS at FROM dex_tvl_1h FINAL WHERE pricing = {p:String} ORDER BY at",
      z.object({ at: z.number() }),
      { p: pricingFingerprint(pricing) },
    );
    const from = Math.ceil(((firstDay?.day ?? 0) - DAY_MS) / HOUR) * HOUR;
    const to = Math.floor((head?.head ?? 0) / HOUR) * HOUR;
    t.true(to > from);
    t.deepEqual(
      hours.map((r) => r.at),
      Array.from({ length: (to - from) / HOUR + 1 }, (_, i) => from + i * HOUR),
    );
    const before = await kept(store);
    const window = { since: from, until: to, interval: "hour" as const };
    t.deepEqual(
      await tvlHistory(deps, window),
      await tvlHistory(depsOf(store, { kept: false, pricing }), window),
    );
    t.deepEqual(await kept(store), before, "nothing computed by the request");
  },
);
