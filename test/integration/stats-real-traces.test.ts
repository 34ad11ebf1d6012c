/**
 * The statistics on real data: `/v1/stats/*` and candles over the recorded mainnet traces, replayed through
 * the real CLI, the API mounted as `tondex start` mounts it for a replay source (the ClickHouse read model
 * priced with mainnet's anchors, the rollup statistics, no chain access). Expected figures come from the
 * trace files themselves: the legs' amounts as ton-indexer's expected actions give them
 * (test/vectors/mainnet-traces/INDEX.md), each trade's wallet and time from the trace's own transactions
 * (the account whose external message began it; the pool's transaction), and the protocol's rules: a
 * refunded swap is no trade, a two-router route is a trade in each pool it crosses, USD₮ is 1 USD, and a
 * value the replay cannot know (TON/USD, the jettons' decimals, the pools' fee settings) is null, never 0.
 */
import { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { pricedReadModel } from "../../api/read-model-priced.ts";
import { ClickHouseStatsReadModel } from "../../api/read-model-stats.ts";
import { loadConfig } from "../../bin/config.ts";
import { pricingConfigOf } from "../../bin/pricing.ts";
import { unavailableChainState } from "../../dex/chain-state-unavailable.ts";
import { MAINNET_USDT, quoteCandidates } from "../../dex/pricing/index.ts";
import { ohlcvResponse } from "../../schemas/api/ohlcv.ts";
import {
  dexStatsResponse,
  feeAccrualsResponse,
  feeStatsResponse,
  feeWithdrawalsResponse,
  poolStatsResponse,
} from "../../schemas/api/stats.ts";
import { operationsResponse } from "../../schemas/api/wallets.ts";
import { type ReplayedTraces, replayTraces, rootOf } from "../helpers/replayed-traces.ts";
import type { LoadedTrace } from "../helpers/traces.ts";
import { type RunningApi, request, silentLogger, startApi } from "../unit/api/harness.ts";

type Ctx = { replayed: ReplayedTraces; api: RunningApi };
const test = anyTest as TestFn<Ctx>;

test.before(async (t) => {
  const replayed = await replayTraces();
  const config = loadConfig({ SOURCE: "replay", REPLAY_PATH: "traces" }, []);
  const pricing = pricingConfigOf(config);
  const api = await startApi({
    data: pricedReadModel(new ClickHouseReadModel(replayed.store), { pricing }),
    stats: new ClickHouseStatsReadModel(replayed.store),
    pricing,
    chain: unavailableChainState("the replay source has no chain access"),
    clock: Date.now,
    logger: silentLogger,
  });
  t.context = { replayed, api };
});

test.after.always(async (t) => {
  await t.context.api?.close();
  await t.context.replayed?.close();
});

const TON = "0:0000000000000000000000000000000000000000000000000000000000000000";
const USDT = Address.parse(MAINNET_USDT).toRawString().toUpperCase();

/**
 * Every leg a pool executed, from INDEX.md: the trace, the pool (raw prefix), offer → output amounts, and
 * the referral fee paid on the output side. The refunded v1 swap (v1-ton-to-jetton-failed-refund) is no trade.
 */
const LEGS = [
  {
    trace: "v1-jetton-to-ton-referral",
    pool: "0:BF3B157A",
    amounts: [27051113105n, 28517149387n],
    ref: 14272848n,
  },
  { trace: "v1-jetton-to-ton", pool: "0:9A63C21F", amounts: [690431808125n, 392421171n], ref: 0n },
  { trace: "v1-jetton-to-jetton", pool: "0:112B930A", amounts: [53303435994n, 92994n], ref: 0n },
  { trace: "v2-jetton-to-jetton", pool: "0:9402DE62", amounts: [100000000n, 167438006n], ref: 0n },
  {
    trace: "v2-jetton-to-jetton-two-routers-referral",
    pool: "0:5BB0C8F2",
    amounts: [7205784725n, 37841924n],
    ref: 37918n,
  },
  {
    trace: "v2-jetton-to-jetton-two-routers-referral",
    pool: "0:3F64CDDA",
    amounts: [37841924n, 33957063173n],
    ref: 34025114n,
  },
  {
    trace: "mixed-dedust-coffee-stonfi-v2",
    pool: "0:FD066810",
    amounts: [44426053349n, 64948588105456n],
    ref: 0n,
  },
] as const;
type Leg = (typeof LEGS)[number];

/** USD₮ legs at face value (6 decimals); every other leg has no USD price here (no TON/USD, jetton/jetton). */
const USDT_LEG_USD: Record<string, string> = {
  "0:112B930A": "0.092994",
  "0:5BB0C8F2": "37.841924",
  "0:3F64CDDA": "37.841924",
};

const raw = (friendly: string) => Address.parse(friendly).toRawString().toUpperCase();
const legOf = (poolFriendly: string): Leg => {
  const leg = LEGS.find((l) => raw(poolFriendly).startsWith(l.pool));
  if (leg === undefined) throw new Error(`pool ${poolFriendly} is not one of the traces' executed legs`);
  return leg;
};
const traceOf = (t: { context: Ctx }, name: string): LoadedTrace => {
  const trace = t.context.replayed.traces.find((x) => x.name === `${name}.json`);
  if (trace === undefined) throw new Error(`no trace ${name}`);
  return trace;
};
/** The leg's pool transaction: the pool's own transaction in the trace (its time is the trade's). */
const poolTxOf = (t: { context: Ctx }, leg: Leg) => {
  const tx = traceOf(t, leg.trace).txs.find((x) => x.account.toUpperCase().startsWith(leg.pool));
  if (tx === undefined) throw new Error(`${leg.trace}: no transaction of pool ${leg.pool}`);
  return tx;
};
const iso = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 19);

async function get<T>(t: { context: Ctx }, path: string, schema: { parse: (v: unknown) => T }): Promise<T> {
  const res = await request(t.context.api, "GET", path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return schema.parse(res.json);
}

const EVER = "since=2022-11-18T00:00:00&until=2030-01-01T00:00:00";

test("/v1/stats/dex: the legs the pools executed, their distinct wallets, USD₮ legs at face value, no TVL", async (t) => {
  const newest = Math.max(...t.context.replayed.traces.flatMap((tr) => tr.txs.map((x) => x.now)));
  const wallets = new Set(LEGS.map((l) => rootOf(traceOf(t, l.trace)).account.toUpperCase()));
  const body = await get(t, "/v1/stats/dex", dexStatsResponse);
  t.deepEqual(body, {
    since: "2022-11-18T00:00:00",
    until: iso(newest),
    stats: {
      // Σ of the USD₮ legs: 0.092994 + 2 × 37.841924; the others are untracked (0, api/README "Pricing")
      volume_usd: "75.776842",
      trades: LEGS.length,
      unique_wallets: wallets.size,
      tvl: null,
    },
  });
  t.is(wallets.size, 6, "the two-router route is one wallet's two trades");
});

test("/v1/stats/pool: each pool's trade, volumes of both sides, referral fees; unknown protocol fees are null", async (t) => {
  const body = await get(t, `/v1/stats/pool?${EVER}&unique_wallets=true`, poolStatsResponse);
  t.is(body.stats.length, LEGS.length);
  t.is(body.unique_wallets_count, 6);
  for (const s of body.stats) {
    const leg = legOf(s.pool_address);
    const label = `${leg.trace} ${leg.pool}`;
    t.is(s.trades, 1, label);
    t.is(s.unique_wallets, 1, label);
    t.deepEqual(
      [BigInt(s.base_volume_units), BigInt(s.quote_volume_units)].sort(),
      [...leg.amounts].sort(),
      `${label}: the offer and the output`,
    );
    // the fee is paid in the output token: on the side whose volume is the output
    const outputIsBase = BigInt(s.base_volume_units) === leg.amounts[1];
    t.deepEqual(
      [BigInt(s.referral_fee_base_units), BigInt(s.referral_fee_quote_units)],
      outputIsBase ? [leg.ref, 0n] : [0n, leg.ref],
      `${label}: referral fee`,
    );
    if (leg.ref === 0n) {
      // no pool state and no referral to derive it from: the pool's protocol fee is not known
      t.deepEqual([s.protocol_fee_base_units, s.protocol_fee_quote_units], [null, null], label);
    }
    t.is(s.volume_usd, USDT_LEG_USD[leg.pool] ?? "0", `${label}: USD volume`);
    // no decimals of its jettons, no state: whole-unit figures and prices are unknown, not 0
    t.is(s.last_price, null, label);
    t.is(s.base_liquidity, null, label);
    t.is(s.quote_liquidity, null, label);
  }
});

test("the VWAP clamp's trades on real data: each USD₮ leg once, its other side the token; TON legs unpriced here", async (t) => {
  const pricing = pricingConfigOf(loadConfig({ SOURCE: "replay", REPLAY_PATH: "traces" }, []));
  const model = new ClickHouseReadModel(t.context.replayed.store);
  const quotes = quoteCandidates(pricing);
  let found = 0;
  for (const leg of LEGS) {
    // the second of the leg's pool transaction alone: (now − 1, now]
    const now = poolTxOf(t, leg).now;
    const rows = await model.getQuoteTrades({ first: now, last: now, step: 1, windowSeconds: 1, quotes });
    const usd = USDT_LEG_USD[leg.pool];
    const label = `${leg.trace} ${leg.pool}`;
    if (usd === undefined) {
      // jetton/jetton (no quote side), or TON's side with no TON/USD here (volume 0): not a VWAP trade
      t.false(
        rows.some((r) => r.units === Number(leg.amounts[0]) || r.units === Number(leg.amounts[1])),
        label,
      );
      continue;
    }
    // the USD₮ side is the output or the offer; the token's units are the other side
    const usdtOut = Number(leg.amounts[1]) / 1e6 === Number(usd);
    const units = Number(usdtOut ? leg.amounts[0] : leg.amounts[1]);
    const row = rows.find((r) => r.units === units);
    t.like(row, { at: now, quote: USDT, usd: Number(usd), trades: 1 }, label);
    t.not(row?.token, USDT, label);
    found++;
  }
  t.is(found, Object.keys(USDT_LEG_USD).length);
});

test("/v1/stats/pool and /dex in one day's window: the refunded swap is no trade", async (t) => {
  // 2025-04-08: v1 NOT → TON, NOT → USD₮ and the refunded TON → NOT of the NOT/TON pool
  const day = LEGS.filter((l) => iso(poolTxOf(t, l).now).startsWith("2025-04-08"));
  t.deepEqual(
    day.map((l) => l.trace),
    ["v1-jetton-to-ton", "v1-jetton-to-jetton"],
  );
  const window = "since=2025-04-08T00:00:00&until=2025-04-08T23:59:59";
  const dex = await get(t, `/v1/stats/dex?${window}`, dexStatsResponse);
  t.is(dex.stats.trades, 2);
  t.is(dex.stats.volume_usd, "0.092994");
  const pools = await get(t, `/v1/stats/pool?${window}`, poolStatsResponse);
  t.deepEqual(pools.stats.map((s) => [legOf(s.pool_address).trace, s.trades]).sort(), [
    ["v1-jetton-to-jetton", 1],
    ["v1-jetton-to-ton", 1],
  ]);
  // until one second before the NOT → TON trade: only the NOT → USD₮ one, which came first
  const notTon = poolTxOf(t, LEGS[1]);
  t.deepEqual(
    day.filter((l) => poolTxOf(t, l).now < notTon.now).map((l) => l.trace),
    ["v1-jetton-to-jetton"],
  );
  const before = await get(
    t,
    `/v1/stats/dex?since=2025-04-08T00:00:00&until=${iso(notTon.now - 1)}`,
    dexStatsResponse,
  );
  t.is(before.stats.trades, 1);
  t.is(before.stats.volume_usd, "0.092994");
});

test("/v1/stats/operations lists every swap the pools received, the refund too, with the trace's wallet", async (t) => {
  const body = await get(t, `/v1/stats/operations?${EVER}`, operationsResponse);
  const swaps = body.operations.map((o) => o.operation);
  t.is(swaps.length, LEGS.length + 1);
  const refunds = swaps.filter((o) => o.success === false);
  t.is(refunds.length, 1);
  t.true(raw(refunds[0]?.pool_address ?? "").startsWith("0:9A63C21F"));
  for (const o of swaps.filter((x) => x.success === true)) {
    const leg = legOf(o.pool_address);
    const wallet = raw(o.wallet_address ?? "");
    if (leg.trace === "mixed-dedust-coffee-stonfi-v2") {
      // entered by the swap.coffee contract (INDEX.md: from_user 0:3D264E…), not by the user's wallet
      t.true(wallet.startsWith("0:3D264E"), wallet);
    } else {
      t.is(wallet, rootOf(traceOf(t, leg.trace)).account.toUpperCase(), `${leg.trace}: the trace's wallet`);
    }
    t.is(o.pool_tx_timestamp, iso(poolTxOf(t, leg).now));
  }
});

test("referral fees: v1 direct payment and v2 vault deposits per referrer; accruals carry their dex version", async (t) => {
  const ops = (await get(t, `/v1/stats/operations?${EVER}`, operationsResponse)).operations.map(
    (o) => o.operation,
  );
  const referrers = new Map<string, bigint[]>();
  for (const o of ops) {
    if (o.referral_address === undefined || o.referral_address === null) continue;
    const list = referrers.get(o.referral_address) ?? [];
    list.push(BigInt(o.referral_fee_amount ?? -1));
    referrers.set(o.referral_address, list);
  }
  // INDEX.md: v1 referrer 0:C21FAB…0802; both hops of the two-router route pay referrer 0:9BA0BD…
  const v1 = [...referrers.keys()].find((a) => raw(a).startsWith("0:C21FAB"));
  const v2 = [...referrers.keys()].find((a) => raw(a).startsWith("0:9BA0BD"));
  t.truthy(v1);
  t.truthy(v2);
  t.is(referrers.size, 2);
  const feeStats = (referrer: string) =>
    get(t, `/v1/stats/fees?${EVER}&referrer_address=${referrer}`, feeStatsResponse);
  const fees = async (referrer: string) =>
    (await feeStats(referrer)).assets_fee_stats
      .map((a) => [raw(a.asset_address), a.accrued, a.withdrawn, a.accrued_usd, a.withdrawn_usd])
      .sort();
  // USD: TON/USD is unknown to the replay (no deep TON/USD pool), so the TON fee's value is null, not 0;
  // a sum with an unknown part is unknown; no withdrawal at all is 0 USD.
  t.deepEqual(await fees(v1 as string), [[TON, "14272848", "0", null, "0"]]);
  t.like(await feeStats(v1 as string), { total_accrued_usd: null, total_withdrawn_usd: "0" });
  const route = traceOf(t, "v2-jetton-to-jetton-two-routers-referral");
  const v2Fees = await fees(v2 as string);
  t.is(v2Fees.length, 2);
  // USD₮ at face value (6 decimals); the second hop's jetton is priced by nothing the replay knows
  t.deepEqual(
    v2Fees.find((f) => f[0] === USDT),
    [USDT, "37918", "0", "0.037918", "0"],
  );
  t.deepEqual(v2Fees.find((f) => f[0] !== USDT)?.slice(1), ["34025114", "0", null, "0"]);
  t.like(await feeStats(v2 as string), { total_accrued_usd: null, total_withdrawn_usd: "0" });
  const accruals = async (referrer: string) =>
    (
      await get(t, `/v1/stats/fee_accruals?${EVER}&referrer_address=${referrer}`, feeAccrualsResponse)
    ).operations
      .map((o) => [o.dex_version, o.referral_fee_amount, raw(o.wallet_address ?? "")])
      .sort();
  t.deepEqual(await accruals(v1 as string), [
    [1, "14272848", rootOf(traceOf(t, "v1-jetton-to-ton-referral")).account.toUpperCase()],
  ]);
  const routeWallet = rootOf(route).account.toUpperCase();
  t.deepEqual(await accruals(v2 as string), [
    [2, "34025114", routeWallet],
    [2, "37918", routeWallet],
  ]);
  for (const referrer of [v1, v2] as string[]) {
    const w = await get(
      t,
      `/v1/stats/fee_withdrawals?${EVER}&referrer_address=${referrer}`,
      feeWithdrawalsResponse,
    );
    t.deepEqual(w.withdrawals, [], "the traces hold no vault withdrawal");
  }
});

test("candles: one daily interval per traded pool, at its trade's day; prices unknown without the jettons' decimals", async (t) => {
  for (const leg of LEGS) {
    const pools = await get(t, `/v1/stats/pool?${EVER}`, poolStatsResponse);
    const pool = pools.stats.find((s) => raw(s.pool_address).startsWith(leg.pool));
    if (pool === undefined) throw new Error(`no stats of ${leg.pool}`);
    const body = await get(t, `/v1/pools/${pool.pool_address}/ohlcv?timeframe=day`, ohlcvResponse);
    const day = Math.floor(poolTxOf(t, leg).now / 86_400) * 86_400;
    t.is(body.ohlcv_list.length, 1, leg.pool);
    t.is(body.ohlcv_list[0]?.[0], day, `${leg.pool}: labelled by its UTC day`);
    // every leg has a jetton of unknown decimals on one side at least: no whole-unit price, no volume
    t.deepEqual(body.ohlcv_list[0]?.slice(1), [null, null, null, null, null], leg.pool);
  }
});
