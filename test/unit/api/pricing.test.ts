/**
 * The catalogue's USD fields through the API (api/pricing.ts, api/read-model-priced.ts) over the in-memory
 * read model: asset prices, liquidity tags, popularity, pool TVL, LP price, 24 h volume and APYs, sorting
 * and conditions on them. Expected values are worked out by hand from the reserves below.
 */
import test from "ava";
import { TON_RAW } from "../../../api/mappers/common.ts";
import { priceCatalogue } from "../../../api/pricing.ts";
import { dexTvlAt } from "../../../api/queries/tvl.ts";
import type { AssetRecord, PoolRecord, QuoteTradesQuery } from "../../../api/read-model.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { pricedReadModel } from "../../../api/read-model-priced.ts";
import type { PoolStatsRow } from "../../../api/read-model-stats.ts";
import { type PoolState, poolState } from "../../../dex/amm/index.ts";
import { DEFAULT_THRESHOLDS, type PricingConfig, TON_ADDRESS } from "../../../dex/pricing/index.ts";
import { assetListResponse, assetV2ListResponse } from "../../../schemas/api/assets.ts";
import { poolListResponse, poolResponse } from "../../../schemas/api/pools.ts";
import { poolStatsResponse } from "../../../schemas/api/stats.ts";
import { dexTvlResponse, poolTvlResponse } from "../../../schemas/api/tvl.ts";
import { raw, TRACE } from "./fixtures.ts";
import { EMPTY_STATS, f, request, startApi, testDeps } from "./harness.ts";

const TON = TON_RAW;
const USDT = raw("pricing USDT");
const STON = raw("pricing STON");
const NOT = raw("pricing NOT");
const FISH = raw("pricing FISH");
const PRICING: PricingConfig = {
  usdAnchors: [{ address: USDT, decimals: 6 }],
  tonAliases: [TON_ADDRESS],
  lsds: [],
  blacklist: [],
  ...DEFAULT_THRESHOLDS,
};

const asset = (address: string, symbol: string, decimals: number): AssetRecord => ({
  address,
  kind: address === TON ? "Ton" : "Jetton",
  symbol,
  decimals,
  priority: 0,
  deprecated: false,
  community: false,
  blacklisted: false,
  defaultSymbol: false,
  taxable: false,
  // a stale stored liquidity tag is replaced; other tags stay
  tags: ["asset:essential", "asset:liquidity:high"],
});

const pool = (
  label: string,
  token0: string,
  token1: string,
  r0: bigint,
  r1: bigint,
  lpSupply: bigint,
): PoolRecord => ({
  address: raw(`pricing pool ${label}`),
  router: raw("pricing router"),
  dex: "v1",
  token0,
  token1,
  token0Wallet: raw(`w0 ${label}`),
  token1Wallet: raw(`w1 ${label}`),
  state: poolState({ type: "v1_constant_product", reserve0: r0, reserve1: r1, lpSupply }),
  stateLt: 1n,
  protocolFeeAddress: null,
  deprecated: false,
});

const E9 = 10n ** 9n;
const E6 = 10n ** 6n;
// TON = 3,000,000 USDT / 1,000,000 TON = 3 USD; TVL 6,000,000 (mature)
const P_TON = pool("TON/USDT", TON, USDT, 1_000_000n * E9, 3_000_000n * E6, 54_772_255_750_516n);
// STON = 200,000 TON / 1,000,000 STON = 0.2 TON = 0.6 USD; quote depth 600,000 USD; TVL 1,200,000
const P_STON = pool("STON/TON", STON, TON, 1_000_000n * E9, 200_000n * E9, 1_000n * E9);
// jetton/jetton: NOT has no price; this pool has no TVL
const P_NOT = pool("NOT/STON", NOT, STON, 1_000_000n * E9, 1_000n * E9, 10n * E9);
// 100 TON = 300 USD: too thin to price FISH; TVL = 2 × 300 (the TON side alone)
const P_FISH = pool("FISH/TON", FISH, TON, 1_000n * E9, 100n * E9, 0n);

const HEAD = TRACE.txs.reduce((m, t) => Math.max(m, t.now), 0);
const DAY = 86_400;

function deps(
  historyDays = 40,
  poolStates: { pool: string; utime: number; lt: bigint; state: PoolState }[] = [],
) {
  const data = new MemoryReadModel({
    poolStates,
    assets: [
      asset(TON, "TON", 9),
      asset(USDT, "USDT", 6),
      asset(STON, "STON", 9),
      asset(NOT, "NOT", 9),
      asset(FISH, "FISH", 9),
    ],
    pools: [P_TON, P_STON, P_NOT, P_FISH],
    // indexed history: `historyDays` days before the trace's newest transaction up to it
    transactions: [...TRACE.txs, { ...TRACE.txs[0]!, hash: "ab".repeat(32), now: HEAD - historyDays * DAY }],
    swapUsd: [
      { pool: P_TON.address, utime: HEAD - 3_600, volumeUsd: 10_000, lpFeeUsd: 20 },
      { pool: P_TON.address, utime: HEAD - 3 * DAY, volumeUsd: 50_000, lpFeeUsd: 100 },
      { pool: P_STON.address, utime: HEAD - 10 * DAY, volumeUsd: 15_000, lpFeeUsd: 30 },
      { pool: P_STON.address, utime: HEAD - 31 * DAY, volumeUsd: 99_999, lpFeeUsd: 999 },
    ],
  });
  return testDeps({ data: pricedReadModel(data, { pricing: PRICING }) });
}

const close = (t: { true: (b: boolean, m?: string) => void }, s: string | undefined, expected: number) =>
  t.true(
    s !== undefined && Math.abs(Number(s) - expected) <= 1e-9 * Math.abs(expected),
    `${s} ≉ ${expected}`,
  );

test("assets: dex_price_usd (and its deprecated twin), popularity_index, liquidity tags; null prices absent", async (t) => {
  const api = await startApi(deps());
  try {
    const res = await request(api, "GET", "/v1/assets");
    t.is(res.status, 200);
    const byAddress = new Map(
      assetListResponse.parse(res.json).asset_list.map((a) => [a.contract_address, a]),
    );
    const ton = byAddress.get(f(TON))!;
    t.is(ton.dex_price_usd, "3");
    t.is(ton.dex_usd_price, "3");
    t.is(byAddress.get(f(USDT))?.dex_price_usd, "1");
    t.is(byAddress.get(f(STON))?.dex_price_usd, "0.6");
    t.is(byAddress.get(f(NOT))?.dex_price_usd, undefined, "jetton/jetton only: no price");
    t.is(byAddress.get(f(FISH))?.dex_price_usd, undefined, "thin pool only: no price");
    // liquidity = Σ TVL/2: TON 3,000,000 + 600,000 + 300; USDT 3,000,000; STON 600,000; FISH 300; NOT none
    close(t, String(ton.popularity_index), 3_600_300);
    t.deepEqual(ton.tags, [
      "asset:essential",
      "asset:liquidity:very_high",
      "high_liquidity",
      "asset:popular",
    ]);
    t.deepEqual(byAddress.get(f(STON))?.tags, ["asset:essential", "asset:liquidity:high", "high_liquidity"]);
    t.deepEqual(byAddress.get(f(FISH))?.tags, ["asset:essential", "asset:liquidity:low", "low_liquidity"]);
    t.deepEqual(byAddress.get(f(NOT))?.tags, ["asset:essential", "asset:liquidity:no", "no_liquidity"]);
    t.is(byAddress.get(f(NOT))?.popularity_index, undefined);
    // conditions and sort_by on them
    const q = await request(api, "POST", "/v1/assets/query", {
      condition: "asset:liquidity:very_high | asset:liquidity:high",
      sort_by: ["popularity_index:asc"],
    });
    t.is(q.status, 200);
    t.deepEqual(
      assetV2ListResponse.parse(q.json).asset_list.map((a) => a.contract_address),
      [f(STON), f(USDT), f(TON)],
    );
  } finally {
    await api.close();
  }
});

test("pools: lp_total_supply_usd (TVL), lp_price_usd, volume_24h_usd, apy_1d/7d/30d as fractions; sort_by", async (t) => {
  const api = await startApi(deps());
  try {
    const res = await request(api, "GET", "/v1/pools");
    t.is(res.status, 200);
    const byAddress = new Map(poolListResponse.parse(res.json).pool_list.map((p) => [p.address, p]));
    const ton = byAddress.get(f(P_TON.address))!;
    t.is(ton.lp_total_supply_usd, "6000000");
    close(t, ton.lp_price_usd, 6_000_000 / 54_772.255750516);
    t.is(ton.volume_24h_usd, "10000");
    // LP fees 20 (1 day), 120 (7 and 30 days) over TVL 6,000,000, annualised
    close(t, ton.apy_1d, (20 / 6e6) * 365);
    close(t, ton.apy_7d, ((120 / 6e6) * 365) / 7);
    close(t, ton.apy_30d, ((120 / 6e6) * 365) / 30);
    const ston = byAddress.get(f(P_STON.address))!;
    t.is(ston.lp_total_supply_usd, "1200000");
    t.is(ston.volume_24h_usd, "0");
    t.is(ston.apy_1d, "0");
    close(t, ston.apy_30d, ((30 / 1.2e6) * 365) / 30);
    const jj = byAddress.get(f(P_NOT.address))!;
    t.is(jj.lp_total_supply_usd, undefined, "no TVL: absent, never 0");
    t.is(jj.apy_1d, undefined);
    const fish = byAddress.get(f(P_FISH.address))!;
    t.is(fish.lp_total_supply_usd, "600");
    t.is(fish.lp_price_usd, undefined, "no LP supply: no LP price");
    const q = await request(api, "POST", "/v1/pools/query", {
      condition: "true",
      sort_by: ["lp_total_supply_usd:desc"],
    });
    t.is(q.status, 200);
    t.deepEqual(
      poolListResponse.parse(q.json).pool_list.map((p) => p.address),
      [P_TON, P_STON, P_FISH, P_NOT].map((p) => f(p.address)),
    );
    const one = await request(api, "GET", `/v1/pools/${f(P_STON.address)}`);
    t.is(poolResponse.parse(one.json).pool.lp_total_supply_usd, "1200000");
  } finally {
    await api.close();
  }
});

test("/v1/stats/pool: lp_price_usd is the pool's current LP price, as /v1/pools gives it; null when it has none", async (t) => {
  const row = (pool: PoolRecord): PoolStatsRow => ({
    pool: pool.address,
    trades: 1,
    not_executed: 0,
    volume_a: 1n,
    volume_b: 1n,
    protocol_fee_a: 0n,
    protocol_fee_b: 0n,
    protocol_fee_unknown: 0,
    referral_fee_a: 0n,
    referral_fee_b: 0n,
    unique_wallets: 1,
    volume_usd: 0,
    untracked_volume_usd: 0,
    lp_fee_usd: 0,
    volume_usd_unknown: 0,
    last: [1n, 1n],
  });
  const base = deps();
  const api = await startApi({
    ...base,
    stats: { ...EMPTY_STATS, poolStats: async () => [row(P_TON), row(P_FISH)] },
  });
  try {
    const pools = poolListResponse.parse((await request(api, "GET", "/v1/pools")).json).pool_list;
    const res = await request(
      api,
      "GET",
      "/v1/stats/pool?since=2024-01-01T00:00:00&until=2024-01-02T00:00:00",
    );
    t.is(res.status, 200);
    const stats = new Map(poolStatsResponse.parse(res.json).stats.map((s) => [s.pool_address, s]));
    const ton = stats.get(f(P_TON.address));
    t.truthy(pools.find((p) => p.address === f(P_TON.address))?.lp_price_usd);
    t.is(ton?.lp_price_usd, pools.find((p) => p.address === f(P_TON.address))?.lp_price_usd);
    close(t, ton?.lp_price_usd ?? undefined, 6_000_000 / 54_772.255750516);
    t.is(stats.get(f(P_FISH.address))?.lp_price_usd, null, "no LP supply: no LP price");
    t.is(ton?.lp_price, null);
  } finally {
    await api.close();
  }
});

test("an APY whose window is longer than the indexed history is absent (no extrapolation)", async (t) => {
  const api = await startApi(deps(3));
  try {
    const res = await request(api, "GET", `/v1/pools/${f(P_TON.address)}`);
    const p = poolResponse.parse(res.json).pool;
    close(t, p.apy_1d, (20 / 6e6) * 365);
    t.is(p.apy_7d, undefined);
    t.is(p.apy_30d, undefined);
  } finally {
    await api.close();
  }
});

test("APY: LP fees over the mean TVL of the window (the current TVL and the TVL at each hour or day boundary inside it)", async (t) => {
  const HOUR = 3_600;
  const at = (r1: bigint) => ({ ...P_TON.state!, reserve1: r1 });
  // TON/USDT with 1,000,000 TON: TVL 2,000,000 (TON = 1) until 3.5 days ago, then 4,000,000 (TON = 2), and
  // 6,000,000 (TON = 3, the pool record's current state) from 6.5 hours ago
  const S1 = HEAD - 3.5 * DAY;
  const S2 = HEAD - 6.5 * HOUR;
  const states = [
    { pool: P_TON.address, utime: HEAD - 40 * DAY, lt: 1n, state: at(1_000_000n * E6) },
    { pool: P_TON.address, utime: S1, lt: 2n, state: at(2_000_000n * E6) },
    { pool: P_TON.address, utime: S2, lt: 3n, state: at(3_000_000n * E6) },
  ];
  const tvlAt = (s: number) => (s >= S2 ? 6e6 : s >= S1 ? 4e6 : 2e6);
  // the mean over the current TVL and every multiple of `unit` strictly inside (HEAD − days, HEAD)
  const mean = (days: number, unit: number) => {
    let sum = 6e6;
    let n = 1;
    for (let s = HEAD - days * DAY + 1; s < HEAD; s++) {
      if (s % unit !== 0) continue;
      sum += tvlAt(s);
      n += 1;
    }
    return sum / n;
  };
  const api = await startApi(deps(40, states));
  try {
    const p = poolResponse.parse((await request(api, "GET", `/v1/pools/${f(P_TON.address)}`)).json).pool;
    t.is(p.lp_total_supply_usd, "6000000", "the current TVL is the latest state's");
    // LP fees 20 (1 day), 120 (7 and 30 days), as in the catalogue test above
    close(t, p.apy_1d, (20 / mean(1, HOUR)) * 365);
    close(t, p.apy_7d, ((120 / mean(7, DAY)) * 365) / 7);
    close(t, p.apy_30d, ((120 / mean(30, DAY)) * 365) / 30);
    // the means lie between the states' TVLs: the APYs are above those over the current TVL
    t.true(Number(p.apy_30d) > ((120 / 6e6) * 365) / 30);
    t.true(mean(1, HOUR) < 6e6 && mean(30, DAY) < mean(7, DAY));
  } finally {
    await api.close();
  }
});

test("TVL history: one point per boundary, each from the pools' states and prices of that instant", async (t) => {
  const D = 1_700_006_400; // a UTC midnight
  const at = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
  const state = (p: PoolRecord, r0: bigint, r1: bigint) => ({ ...p.state!, reserve0: r0, reserve1: r1 });
  const data = new MemoryReadModel({
    pools: [P_TON, P_STON],
    poolStates: [
      // TON = 3 USD from day −3 (+100 s): TON/USDT TVL 6,000,000
      {
        pool: P_TON.address,
        utime: D - 3 * DAY + 100,
        lt: 1n,
        state: state(P_TON, 1_000_000n * E9, 3_000_000n * E6),
      },
      // STON/TON from day −2 (+5 s): 600,000 USD a side at TON = 3
      {
        pool: P_STON.address,
        utime: D - 2 * DAY + 5,
        lt: 2n,
        state: state(P_STON, 1_000_000n * E9, 200_000n * E9),
      },
      // TON = 2 USD from day −1 (+2 h): TON/USDT 4,000,000; STON/TON 400,000 a side, below $1M: min(800,000, 2 × 400,000)
      {
        pool: P_TON.address,
        utime: D - DAY + 7_200,
        lt: 3n,
        state: state(P_TON, 1_000_000n * E9, 2_000_000n * E6),
      },
    ],
  });
  const tvlDeps = testDeps({ data, pricing: PRICING });
  // at an instant: a transaction at exactly that second counts
  t.is(await dexTvlAt(tvlDeps, D - DAY + 7_199), 7_200_000);
  t.is(await dexTvlAt(tvlDeps, D - DAY + 7_200), 4_800_000);
  t.is(await dexTvlAt(tvlDeps, D - 3 * DAY), null);
  const api = await startApi(tvlDeps);
  try {
    const window = `since=${at(D - 4 * DAY)}&until=${at(D)}&interval=day`;
    const dex = dexTvlResponse.parse((await request(api, "GET", `/v1/stats/tvl?${window}`)).json);
    t.deepEqual(
      dex.points.map((p) => [p.timestamp, p.tvl_usd]),
      [
        [at(D - 4 * DAY), null],
        [at(D - 3 * DAY), null],
        [at(D - 2 * DAY), "6000000"],
        [at(D - DAY), "7200000"],
        [at(D), "4800000"],
      ],
    );
    const pool = poolTvlResponse.parse(
      (await request(api, "GET", `/v1/pools/${f(P_STON.address)}/tvl?${window}`)).json,
    );
    t.deepEqual(
      pool.points.map((p) => p.tvl_usd),
      [null, null, null, "1200000", "800000"],
    );
    // at most 1000 points; an unknown pool is a 404
    const tooLong = await request(
      api,
      "GET",
      `/v1/stats/tvl?since=${at(D - 60 * DAY)}&until=${at(D)}&interval=hour`,
    );
    t.is(tooLong.status, 400);
    t.regex(tooLong.text, /since/);
    t.is((await request(api, "GET", `/v1/pools/${f(NOT)}/tvl?${window}`)).status, 404);
  } finally {
    await api.close();
  }
});

test("dexTvlAt the newest indexed transaction or later: the pools' latest states (Σ of the pools' TVL)", async (t) => {
  const d = { ...deps(), pricing: PRICING };
  // 6,000,000 + 1,200,000 + 600 (FISH/TON: twice its TON side); NOT/STON has none
  t.is(await dexTvlAt(d, HEAD), 7_200_600);
  t.is(await dexTvlAt(d, HEAD + 3_600), 7_200_600);
  t.is(await dexTvlAt({ ...d, pricing: undefined }, HEAD), null);
});

// The VWAP clamp (§7.4). PUMP/TON: 10,000 TON ($30,000 at TON = 3 USD: medium confidence) against 1,000,000
// PUMP, spot 0.01 TON = 0.03 USD. Unclamped TVL: 1,000,000 × 0.03 + 30,000 = 60,000 (the cap, 2 × the TON
// side, is 60,000 too). Trades of 1,000 PUMP for 5 USD each make a VWAP of 0.005 USD: the price that values
// TVL is held to 3 × 0.005 = 0.015, so the TVL is 15,000 + 30,000 = 45,000.
const PUMP = raw("pricing PUMP");
const P_PUMP = pool("PUMP/TON", PUMP, TON, 1_000_000n * E9, 10_000n * E9, 100_000n * E9);
/** A sale of 1,000 PUMP for TON worth `usd` (its TON side at 3 USD), at `utime`. */
const pumpSale = (utime: number, usd: number) => ({
  pool: P_PUMP.address,
  utime,
  volumeUsd: usd,
  lpFeeUsd: usd * 0.003,
  offer: PUMP,
  ask: TON,
  amountIn: 1_000n * E9,
  amountOut: BigInt(Math.round((usd / 3) * 1e9)),
});

test("VWAP clamp: a medium price values the pool TVL within [VWAP/3, 3·VWAP] of the last hour's ≥ 3 trades; the listed price is the spot price", async (t) => {
  const catalogue = (sales: ReturnType<typeof pumpSale>[]) =>
    testDeps({
      data: pricedReadModel(
        new MemoryReadModel({
          assets: [asset(TON, "TON", 9), asset(USDT, "USDT", 6), asset(PUMP, "PUMP", 9)],
          pools: [P_TON, P_PUMP],
          transactions: [...TRACE.txs],
          swapUsd: [
            ...sales,
            // not trades of PUMP against a quote: a quote for a quote, and a trade without assets
            {
              pool: P_TON.address,
              utime: HEAD - 5,
              volumeUsd: 300,
              lpFeeUsd: 0.9,
              offer: TON,
              ask: USDT,
              amountIn: 100n * E9,
              amountOut: 300n * E6,
            },
            { pool: P_PUMP.address, utime: HEAD - 5, volumeUsd: 1_000, lpFeeUsd: 3 },
          ],
        }),
        { pricing: PRICING },
      ),
    });
  const read = async (sales: ReturnType<typeof pumpSale>[]) => {
    const api = await startApi(catalogue(sales));
    try {
      const p = poolResponse.parse((await request(api, "GET", `/v1/pools/${f(P_PUMP.address)}`)).json).pool;
      const a = (await request(api, "GET", `/v1/assets/${f(PUMP)}`)).json as {
        asset: { dex_price_usd?: string };
      };
      return { tvl: p.lp_total_supply_usd, lpPrice: p.lp_price_usd, price: a.asset.dex_price_usd };
    } finally {
      await api.close();
    }
  };
  // three sales in (HEAD − 1 h, HEAD]; one at exactly HEAD − 1 h (outside) at 1,000 USD would lift the VWAP
  const inWindow = [pumpSale(HEAD, 5), pumpSale(HEAD - 1_000, 5), pumpSale(HEAD - 3_599, 5)];
  const clamped = await read([...inWindow, pumpSale(HEAD - 3_600, 1_000)]);
  close(t, clamped.tvl, 45_000);
  close(t, clamped.lpPrice, 0.45);
  close(t, clamped.price, 0.03);
  // two trades in the window: too few for the clamp
  const unclamped = await read([...inWindow.slice(0, 2), pumpSale(HEAD - 3_600, 1_000)]);
  close(t, unclamped.tvl, 60_000);
  close(t, unclamped.price, 0.03);
});

test("VWAP clamp in the TVL history and the DEX TVL at an instant: each point clamps with the trades of the hour before it", async (t) => {
  const D = 1_700_006_400; // a UTC midnight
  const at = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
  /** The VWAP trades each read asked for (their tokens; "all" for every token). */
  const reads: (string[] | "all")[] = [];
  const data = new (class extends MemoryReadModel {
    override getQuoteTrades(q: QuoteTradesQuery) {
      reads.push(q.tokens === undefined ? "all" : [...q.tokens]);
      return super.getQuoteTrades(q);
    }
  })({
    pools: [P_TON, P_PUMP],
    poolStates: [
      { pool: P_TON.address, utime: D - 2 * DAY, lt: 1n, state: P_TON.state! },
      { pool: P_PUMP.address, utime: D - 2 * DAY, lt: 2n, state: P_PUMP.state! },
    ],
    // in (D − 1 h, D]: three at 5 USD (VWAP 0.005: clamped to 0.015); at D − 1 h: 1,000 USD, in the
    // window of D − 1 s and of the hour boundary D − 1 h (one trade there: no clamp)
    swapUsd: [
      pumpSale(D - 10, 5),
      pumpSale(D - 1_000, 5),
      pumpSale(D - 3_599, 5),
      pumpSale(D - 3_600, 1_000),
    ],
  });
  const tvlDeps = testDeps({ data, pricing: PRICING });
  t.is(await dexTvlAt(tvlDeps, D), 6_045_000);
  // D − 1 s: four trades, VWAP 1,015 / 4,000 = 0.25375: the spot 0.03 is lifted to 0.25375 / 3, and the
  // TVL capped at twice the TON side (60,000)
  t.is(await dexTvlAt(tvlDeps, D - 1), 6_060_000);
  // D − 11 s: D − 10 is after it: three trades (1,010 / 3,000), lifted to 0.112…: capped again
  t.is(await dexTvlAt(tvlDeps, D - 11), 6_060_000);
  const api = await startApi(tvlDeps);
  try {
    const window = `since=${at(D - 3 * 3_600)}&until=${at(D)}&interval=hour`;
    const pool = poolTvlResponse.parse(
      (await request(api, "GET", `/v1/pools/${f(P_PUMP.address)}/tvl?${window}`)).json,
    );
    t.deepEqual(
      pool.points.map((p) => Number(p.tvl_usd)),
      [60_000, 60_000, 60_000, 45_000],
    );
    // one pool's history reads the trades of the tokens whose price the clamp may bind: PUMP (medium);
    // TON/USDT's prices are quotes', never clamped: no read at all
    reads.length = 0;
    await request(api, "GET", `/v1/pools/${f(P_PUMP.address)}/tvl?${window}`);
    t.deepEqual(reads, [[PUMP]]);
    reads.length = 0;
    const quotes = poolTvlResponse.parse(
      (await request(api, "GET", `/v1/pools/${f(P_TON.address)}/tvl?${window}`)).json,
    );
    t.deepEqual(reads, []);
    t.is(quotes.points.at(-1)?.tvl_usd, "6000000");
    const dex = dexTvlResponse.parse((await request(api, "GET", `/v1/stats/tvl?${window}`)).json);
    t.deepEqual(
      dex.points.map((p) => Number(p.tvl_usd)),
      [6_060_000, 6_060_000, 6_060_000, 6_045_000],
    );
  } finally {
    await api.close();
  }
});

test("liquidity tags: none when nothing values an asset and a pool holding it has an unknown state; `no` for known unpriced pools only", (t) => {
  const MYST = raw("pricing MYST");
  // listed (its router named it), its reserves never seen: no chain access, active before the first transaction
  const unseen: PoolRecord = { ...pool("MYST/TON", MYST, TON, 1n, 1n, 1n), state: null, stateLt: null };
  const { assets } = priceCatalogue(
    [asset(TON, "TON", 9), asset(NOT, "NOT", 9), asset(MYST, "MYST", 9)],
    [P_TON, P_STON, P_NOT, unseen],
    PRICING,
    null,
  );
  const tags = new Map(assets.map((a) => [a.address, a.tags]));
  t.deepEqual(tags.get(MYST), ["asset:essential"], "liquidity unknown: no liquidity tag");
  // NOT's one pool has a known state and nothing prices it: not liquid (§7.6)
  t.deepEqual(tags.get(NOT), ["asset:essential", "asset:liquidity:no", "no_liquidity"]);
  // TON's valued pools decide, whatever the unseen pool holds
  t.deepEqual(tags.get(TON), [
    "asset:essential",
    "asset:liquidity:very_high",
    "high_liquidity",
    "asset:popular",
  ]);
});

test("USD windows and TVL samples: the first read is waited for; later ones are made while the last is answered", async (t) => {
  const memory = new MemoryReadModel({
    pools: [P_TON],
    transactions: [...TRACE.txs, { ...TRACE.txs[0]!, hash: "ab".repeat(32), now: HEAD - 40 * DAY }],
    swapUsd: [{ pool: P_TON.address, utime: HEAD - 3_600, volumeUsd: 10_000, lpFeeUsd: 20 }],
  });
  let reads = 0;
  let release: (() => void) | null = null;
  let volume = 10_000;
  const inner = new Proxy(memory, {
    get(target, key, receiver) {
      if (key !== "getPoolUsdWindows") return Reflect.get(target, key, receiver);
      return async () => {
        reads += 1;
        const w = (await target.getPoolUsdWindows())!;
        if (reads > 1) await new Promise<void>((r) => (release = r));
        const mine = w.pools.get(P_TON.address)!;
        return { ...w, pools: new Map([[P_TON.address, { ...mine, volume1d: volume }]]) };
      };
    },
  });
  let clock = 0;
  let version = 1;
  const priced = pricedReadModel(inner, {
    pricing: PRICING,
    version: () => version,
    now: () => clock,
    windowsTtlMs: 30_000,
  });
  const volume24h = async () => (await priced.listPools())[0]!.stats?.volume24hUsd;
  t.is(await volume24h(), "10000");
  t.is(reads, 1);
  // within the TTL: no read
  version = 2;
  clock = 10_000;
  t.is(await volume24h(), "10000");
  t.is(reads, 1);
  // after it: a read starts, and the answer does not wait for it (it is still pending)
  volume = 5_000;
  version = 3;
  clock = 31_000;
  t.is(await volume24h(), "10000");
  t.is(reads, 2);
  t.not(release, null);
  release!();
  await new Promise((r) => setImmediate(r));
  version = 4;
  clock = 32_000;
  t.is(await volume24h(), "5000", "the new read is used once made");
  t.is(reads, 2);
});
