/**
 * dex/pricing (analytics.md §7.1–§7.6). Expected values are worked out by hand from the pool reserves (and,
 * for the mainnet USD₮/pTON v2.2 pool, from its recorded storage), never read back from the code.
 */
import { readFileSync } from "node:fs";
import test from "ava";
import { type PoolState, type PoolType, poolState } from "../../../dex/amm/index.ts";
import { PTON_V1_MASTER, PTON_V2_MASTER } from "../../../dex/classify/known.ts";
import {
  DEFAULT_THRESHOLDS,
  dexTvl,
  lpFeeUsd,
  MAINNET_PRICING,
  MAINNET_USDT,
  PriceBook,
  type PricingConfig,
  type PricingPool,
  poolIndex,
  poolTvl,
  quoteCandidates,
  ratioToNumber,
  swapVolumeUsd,
  TON_ADDRESS,
  tvlDependencies,
  VwapWindow,
  vwapSamples,
  weightedMedian,
} from "../../../dex/pricing/index.ts";

const USD = `0:${"A1".repeat(32)}`;
const OLD_USD = `0:${"A2".repeat(32)}`;
const X = `0:${"B1".repeat(32)}`;
const Y = `0:${"B2".repeat(32)}`;
const Z = `0:${"B3".repeat(32)}`;
const CONFIG: PricingConfig = {
  usdAnchors: [
    { address: USD, decimals: 6 },
    { address: OLD_USD, decimals: 6, until: 1_703_980_800 },
  ],
  tonAliases: [TON_ADDRESS, PTON_V1_MASTER],
  lsds: [],
  blacklist: [],
  ...DEFAULT_THRESHOLDS,
};

let n = 0;
/** A pool holding `r0` raw units of `t0` and `r1` of `t1`. */
function pool(
  t0: string,
  r0: bigint,
  t1: string,
  r1: bigint,
  extra: Partial<PoolState> = {},
  type: PoolType = "v2_constant_product",
): PricingPool {
  n++;
  return {
    address: `0:${n.toString(16).toUpperCase().padStart(64, "0")}`,
    token0: t0,
    token1: t1,
    state: poolState({ type, reserve0: r0, reserve1: r1, ...extra }),
  };
}
const usd = (whole: number) => BigInt(Math.round(whole * 1e6));
const ton = (whole: number) => BigInt(Math.round(whole * 1e3)) * 10n ** 6n;
const nine = ton; // a 9-decimal jetton
const book = (pools: PricingPool[], config = CONFIG, options = {}) =>
  new PriceBook(poolIndex(pools), config, options);
const near = (
  t: { true: (b: boolean, m?: string) => void },
  actual: number | null | undefined,
  expected: number,
) =>
  t.true(
    actual !== null && actual !== undefined && Math.abs(actual - expected) <= 1e-12 * Math.abs(expected),
    `${actual} ≉ ${expected}`,
  );
/** A TON/USD pool at `price` USD per TON holding `depth` USD. */
const tonPool = (price: number, depth: number) => pool(PTON_V1_MASTER, ton(depth / price), USD, usd(depth));

test("weighted median: the lower median by weight, ties ordered by key", (t) => {
  t.is(weightedMedian([]), null);
  t.is(weightedMedian([{ value: 3, weight: 1, key: "a" }]), 3);
  // weights 100, 60, 50: half of 210 is reached at the second value
  t.is(
    weightedMedian([
      { value: 9, weight: 50, key: "c" },
      { value: 5, weight: 100, key: "a" },
      { value: 5.2, weight: 60, key: "b" },
    ]),
    5.2,
  );
  // two equal weights: the lower one
  t.is(
    weightedMedian([
      { value: 2, weight: 1, key: "b" },
      { value: 1, weight: 1, key: "a" },
    ]),
    1,
  );
});

test("anchors: a USD anchor is 1 USD per whole token; a time-limited one stops at its cut-off", (t) => {
  const b = book([]);
  t.is(b.price(USD)?.usdPerUnit, 1e-6);
  t.is(b.price(USD)?.confidence, "high");
  t.is(new PriceBook(poolIndex([]), CONFIG, { at: 1_703_980_799 }).price(OLD_USD)?.usdPerUnit, 1e-6);
  t.is(new PriceBook(poolIndex([]), CONFIG, { at: 1_703_980_800 }).price(OLD_USD), null);
  // TON aliases: no TON/USD pool → no price (null, never 0)
  t.is(b.price(TON_ADDRESS), null);
  t.is(b.tonUsd(), null);
});

test("TON/USD from the real mainnet USD₮/pTON v2.2 pool (stonfi-getmethods.json)", (t) => {
  const vectors = JSON.parse(
    readFileSync(new URL("../../vectors/messages/stonfi-getmethods.json", import.meta.url), "utf8"),
  ) as { name: string; account: string; independently_parsed_storage: Record<string, string> }[];
  const v = vectors.find((e) => e.name === "stonfi v2 const product")!;
  const s = v.independently_parsed_storage;
  // token0 is the router's USD₮ wallet, token1 its pTON v2.1 wallet (test/helpers/mainnet-chain-data.ts)
  const p: PricingPool = {
    address: v.account,
    token0: MAINNET_USDT,
    token1: PTON_V2_MASTER,
    state: poolState({
      type: "v2_constant_product",
      reserve0: BigInt(s.reserve0!),
      reserve1: BigInt(s.reserve1!),
      collectedProtocolFee0: BigInt(s.collected_token0_protocol_fee!),
      collectedProtocolFee1: BigInt(s.collected_token1_protocol_fee!),
    }),
  };
  const b = new PriceBook(poolIndex([p]), MAINNET_PRICING);
  // 3584182.740475 USD₮ / 1257031.691107454 TON
  const expected = 3584182.740475 / 1257031.691107454;
  near(t, b.tonUsd()?.usdPerTon, expected);
  t.false(b.tonUsd()?.stale);
  near(t, (b.price(PTON_V2_MASTER)?.usdPerUnit ?? 0) * 1e9, expected);
  near(t, (b.price(TON_ADDRESS)?.usdPerUnit ?? 0) * 1e9, expected);
  // TVL: both sides priced and ≥ 1 M USD: R0·P0 + R1·P1 = 2 × 3,584,182.740475 (the protocol fees are not reserves)
  near(t, poolTvl(b, p).tvlUsd, 2 * 3584182.740475);
});

test("TON/USD: depth-weighted median over deep pools; thin pools ignored; none → last value, stale", (t) => {
  // depths 100k, 60k, 50k: half of 210k is reached at the second price (6); the $49,999 pool does not count
  const pools = [tonPool(5, 100_000), tonPool(6, 60_000), tonPool(8, 50_000), tonPool(100, 49_999)];
  near(t, book(pools).tonUsd()?.usdPerTon, 6);
  // only the thin pool left: below $50k, so the last value stands, flagged stale
  const stale = book([tonPool(100, 49_999)], CONFIG, { lastTonUsd: 5.1 });
  t.deepEqual(stale.tonUsd(), { usdPerTon: 5.1, stale: true });
  t.true(stale.price(TON_ADDRESS)?.stale);
});

test("one hop: a thin pool cannot move a price (below the minimum depth, or below 0.1 × the deepest)", (t) => {
  const base = [tonPool(5, 1_000_000), pool(X, nine(2_000_000), TON_ADDRESS, ton(20_000))];
  // X = 20,000 TON × 5 / 2,000,000 X = 0.05 USD; quote depth 100,000 USD → high
  const clean = book(base).price(X);
  near(t, (clean?.usdPerUnit ?? 0) * 1e9, 0.05);
  t.is(clean?.confidence, "high");
  // a $500 X/USD pool at 10 USD (below $1,000) and a $8,000 one at 1 USD (below 0.1 × $100,000)
  const manipulated = [...base, pool(X, nine(50), USD, usd(500)), pool(USD, usd(8_000), X, nine(8_000))];
  near(t, (book(manipulated).price(X)?.usdPerUnit ?? 0) * 1e9, 0.05);
  // the same thin pool after someone dumped USD into it (X price there ×100): still 0.05
  const dumped = [...base, pool(X, nine(5), USD, usd(25))];
  near(t, (book(dumped).price(X)?.usdPerUnit ?? 0) * 1e9, 0.05);
});

test("one hop: two eligible pools → depth-weighted median; the confidence follows the deepest quote depth", (t) => {
  const pools = [
    tonPool(5, 1_000_000),
    pool(X, nine(1_000), USD, usd(20_000)), // 20 USD, depth 20,000
    pool(X, nine(1_000), TON_ADDRESS, ton(4_200)), // 4,200 × 5 / 1,000 = 21 USD, depth 21,000
  ];
  const p = book(pools).price(X);
  near(t, (p?.usdPerUnit ?? 0) * 1e9, 21);
  t.is(p?.confidence, "medium");
  t.is(p?.depthUsd, 21_000);
  t.is(book([pool(X, nine(1), USD, usd(60_000))]).price(X)?.confidence, "high");
  t.is(book([pool(X, nine(1), USD, usd(5_000))]).price(X)?.confidence, "medium");
  t.is(book([pool(X, nine(1), USD, usd(4_999))]).price(X)?.confidence, "low");
  t.is(book([pool(X, nine(1), USD, usd(1_000))]).price(X)?.confidence, "low");
  t.is(book([pool(X, nine(1), USD, usd(999))]).price(X), null);
  // empty reserves, deprecated pools and blacklisted tokens never price
  t.is(book([pool(X, 0n, USD, usd(60_000))]).price(X), null);
  t.is(book([{ ...pool(X, nine(1), USD, usd(60_000)), deprecated: true }]).price(X), null);
  t.is(book([pool(X, nine(1), USD, usd(60_000))], { ...CONFIG, blacklist: [X] }).price(X), null);
});

test("a token with only jetton/jetton pools has no price, however deep its partner", (t) => {
  const pools = [pool(X, nine(1_000), USD, usd(1_000_000)), pool(Y, nine(1_000), X, nine(1_000_000))];
  const b = book(pools);
  near(t, (b.price(X)?.usdPerUnit ?? 0) * 1e9, 1_000);
  t.is(b.price(Y), null);
});

test("stable and weighted pools price at their curve's marginal price", (t) => {
  // stableswap with equal reserves: the marginal price is exactly 1
  const stable = pool(USD, usd(500_000), X, 500_000n * 10n ** 6n, { amp: 100n }, "v2_stableswap");
  near(t, (book([stable]).price(X)?.usdPerUnit ?? 0) * 1e6, 1);
  // weighted 80/20 (X 0.8, TON 0.2), equal balances: spot X→TON = (B_ton/0.2)/(B_x/0.8) = 4 TON
  const weighted = pool(
    X,
    nine(100_000),
    TON_ADDRESS,
    ton(100_000),
    { w0: 8n * 10n ** 17n },
    "v2_weighted_const_product",
  );
  near(t, (book([tonPool(5, 1_000_000), weighted]).price(X)?.usdPerUnit ?? 0) * 1e9, 20);
});

test("TVL of constant-product pools: both priced, the immature-pool cap, the anchor side alone, neither", (t) => {
  const deepX = pool(X, nine(1_000_000), USD, usd(1_000_000)); // X = 1 USD, high
  // both priced, mature: sum
  const mature = pool(X, nine(600_000), TON_ADDRESS, ton(120_000)); // 600,000 + 600,000
  let b = book([tonPool(5, 2_000_000), deepX, mature]);
  near(t, poolTvl(b, mature).tvlUsd, 1_200_000);
  // both priced, immature and lopsided at X's price: capped at 2 × the anchor side
  const lopsided = pool(X, nine(30_000), TON_ADDRESS, ton(2_000)); // X side 30,000, TON side 10,000
  b = book([tonPool(5, 2_000_000), deepX, lopsided]);
  near(t, poolTvl(b, lopsided).tvlUsd, 20_000);
  // only the anchor side priced (Z has only this pool, 500 USD deep: below $1,000)
  const zPool = pool(Z, nine(1), USD, usd(500));
  near(t, poolTvl(book([zPool]), zPool).tvlUsd, 1_000);
  // neither side priced
  const yz = pool(Y, nine(1), Z, nine(1));
  t.is(poolTvl(book([yz]), yz).tvlUsd, null);
  // protocol fees collected do not count
  const withFees = pool(X, nine(600_000), TON_ADDRESS, ton(120_000), {
    collectedProtocolFee0: nine(5_000),
    collectedProtocolFee1: ton(1_000),
  });
  near(t, poolTvl(book([tonPool(5, 2_000_000), deepX, withFees]), withFees).tvlUsd, 1_200_000);
});

test("TVL of stable pools is the sum of both sides (no 2× rule); DEX TVL restricts jetton/jetton value", (t) => {
  // X (6 decimals) at exactly 1 USD on the stable curve with equal reserves
  const stable = pool(USD, usd(300_000), X, 300_000n * 10n ** 6n, { amp: 200n }, "v2_stableswap");
  near(t, poolTvl(book([stable]), stable).tvlUsd, 600_000);
  // a stable pool with an unpriced side has no TVL (no 2× rule)
  const stableZ = pool(USD, usd(300_000), Z, 1n, { amp: 200n }, "v2_stableswap");
  t.is(poolTvl(book([stableZ], { ...CONFIG, blacklist: [Z] }), stableZ).tvlUsd, null);
  // X = 2 USD (1,000,000 X vs 2,000,000 USD); Y = 1 USD (1,000 Y vs 1,000 USD, low). The Y/X pool holds
  // 20,000 Y: at most 5 × 1,000 Y = 5,000 USD of it is valued, the other 15,000 USD are untracked.
  const deepX = pool(X, nine(1_000_000), USD, usd(2_000_000));
  const yQuote = pool(Y, nine(1_000), USD, usd(1_000));
  const jj = pool(Y, nine(20_000), X, nine(10_000));
  const pools = [deepX, yQuote, jj];
  const dex = dexTvl(book(pools), pools);
  near(t, dex.pools.get(jj.address) ?? null, 5_000 + 20_000);
  near(t, dex.untrackedTvlUsd, 15_000);
  // deepX: 4,000,000 (mature); yQuote: min(2,000, 2 × 1,000)
  near(t, dex.tvlUsd, 4_000_000 + 2_000 + 25_000);
});

test("a pool's TVL over the pools it depends on equals its TVL over every pool", (t) => {
  const W = `0:${"B4".repeat(32)}`;
  const tonUsdA = tonPool(5, 2_000_000);
  const tonUsdB = tonPool(5.2, 900_000);
  const xTon = pool(X, nine(400_000), PTON_V1_MASTER, ton(100_000));
  const xUsd = pool(X, nine(1_000), USD, usd(1_000));
  const yUsd = pool(Y, nine(1_000), USD, usd(1_000));
  const jj = pool(Y, nine(20_000), X, nine(10_000)); // the jetton/jetton guard: Y's and X's balances
  const zTon = pool(Z, nine(50_000), TON_ADDRESS, ton(20_000));
  const wUsd = pool(W, nine(70_000), USD, usd(60_000));
  const zw = pool(Z, nine(9_000), W, nine(8_000));
  const old = { ...pool(X, nine(5), USD, usd(9)), deprecated: true };
  const wOld = pool(W, nine(3_000), OLD_USD, usd(3_000)); // OLD_USD is no anchor after its cut-off
  const tonW = pool(TON_ADDRESS, ton(700), W, nine(3_000));
  const all = [tonUsdA, xTon, zTon, jj, tonUsdB, wUsd, xUsd, zw, yUsd, old, wOld, tonW];
  const everything = dexTvl(book(all), all).pools;
  for (const p of all) {
    const deps = tvlDependencies(all, p, CONFIG);
    t.is(dexTvl(book(deps), deps).pools.get(p.address), everything.get(p.address), p.address);
  }
  // The guarded Y/X pool needs the TON/USD pools, every X pool and every Y pool, in their order; not Z's or W's.
  t.deepEqual(tvlDependencies(all, jj, CONFIG), [tonUsdA, xTon, jj, tonUsdB, xUsd, yUsd, old]);
  t.true((everything.get(jj.address) ?? 0) > 0);
  // X/pTON: TON is a quote, priced by the TON/USD pools alone; X by its pools. A TON/USD pool: those alone.
  t.deepEqual(tvlDependencies(all, xTon, CONFIG), [tonUsdA, xTon, jj, tonUsdB, xUsd, old]);
  t.deepEqual(tvlDependencies(all, tonUsdB, CONFIG), [tonUsdA, tonUsdB]);
  // A time-limited anchor may be any token at some instant: its pools count.
  t.deepEqual(tvlDependencies(all, wOld, CONFIG), [tonUsdA, tonUsdB, wUsd, zw, wOld, tonW]);
});

test("volume per swap: quote sides first, then medium-or-better prices, else untracked", (t) => {
  const pools = [
    tonPool(5, 1_000_000),
    pool(X, nine(1_000), USD, usd(20_000)),
    pool(Y, nine(1_000), USD, usd(2_000)),
  ];
  const b = book(pools);
  // one side a quote (USD): that side
  near(t, swapVolumeUsd(b, { offer: X, ask: USD, amountIn: nine(1), amountOut: usd(19.5) }).volumeUsd, 19.5);
  // both quotes: mean of 10 TON × 5 = 50 and 49 USD
  const both = swapVolumeUsd(b, { offer: PTON_V1_MASTER, ask: USD, amountIn: ton(10), amountOut: usd(49) });
  near(t, both.volumeUsd, 49.5);
  t.is(both.untrackedVolumeUsd, 0);
  // X (medium, 20 USD) for Y: the offer side
  near(t, swapVolumeUsd(b, { offer: X, ask: Y, amountIn: nine(2), amountOut: nine(19) }).volumeUsd, 40);
  // Y (low, 2 USD) for X: the ask side, which is medium
  near(t, swapVolumeUsd(b, { offer: Y, ask: X, amountIn: nine(19), amountOut: nine(2) }).volumeUsd, 40);
  // Y (low) for Z (no price): untracked, estimated from Y
  const u = swapVolumeUsd(b, { offer: Y, ask: Z, amountIn: nine(3), amountOut: nine(1) });
  t.is(u.volumeUsd, 0);
  near(t, u.untrackedVolumeUsd, 6);
  t.deepEqual(swapVolumeUsd(b, { offer: Z, ask: `0:${"B4".repeat(32)}`, amountIn: 1n, amountOut: 1n }), {
    volumeUsd: 0,
    untrackedVolumeUsd: null,
  });
  t.is(lpFeeUsd(1_000, 20n), 2);
});

test("VWAP clamp: a low or medium price is kept within [VWAP/3, 3·VWAP] when there are ≥ 3 recent trades", (t) => {
  const pools = [pool(Y, nine(1_000), USD, usd(2_000))]; // Y = 2 USD, low
  const vwap = (trades: number) => () => ({ usdPerUnit: 0.5e-9, trades });
  near(t, (book(pools, CONFIG, { vwap: vwap(3) }).valuation(Y)?.usdPerUnit ?? 0) * 1e9, 1.5);
  near(t, (book(pools, CONFIG, { vwap: vwap(2) }).valuation(Y)?.usdPerUnit ?? 0) * 1e9, 2);
  // price() itself is never clamped
  near(t, (book(pools, CONFIG, { vwap: vwap(3) }).price(Y)?.usdPerUnit ?? 0) * 1e9, 2);
});

test("VWAP from stored sums: the sample the processor's window gives for the same trades; other rows left out", (t) => {
  const isQuote = (token: string) => token === USD || token === TON_ADDRESS;
  // Y against USD and TON, as VwapWindow records them one by one (units raw, usd their quote side's value)
  const trades = [
    { quote: USD, units: nine(10), usd: 21 },
    { quote: USD, units: nine(5), usd: 9.5 },
    { quote: TON_ADDRESS, units: nine(1), usd: 2.25 },
  ];
  const w = new VwapWindow(3_600);
  for (const [i, x] of trades.entries()) w.record(Y, 1_000 + i, x.units, x.usd);
  const byQuote = (q: string) => trades.filter((x) => x.quote === q);
  const sum = (q: string) => ({
    token: Y,
    quote: q,
    units: byQuote(q).reduce((a, x) => a + Number(x.units), 0),
    usd: byQuote(q).reduce((a, x) => a + x.usd, 0),
    trades: byQuote(q).length,
  });
  const samples = vwapSamples(
    [
      sum(USD),
      sum(TON_ADDRESS),
      // a quote as the token, a non-quote as the quote, a row without trades, units or value: left out
      { token: USD, quote: TON_ADDRESS, units: 1e6, usd: 1, trades: 1 },
      { token: Z, quote: X, units: 1e9, usd: 7, trades: 4 },
      { token: Z, quote: USD, units: 0, usd: 7, trades: 4 },
      { token: Z, quote: USD, units: 1e9, usd: 0, trades: 4 },
      { token: Z, quote: USD, units: 1e9, usd: 7, trades: 0 },
    ],
    isQuote,
  );
  t.deepEqual([...samples.keys()], [Y]);
  const expected = w.sample(Y, 1_002);
  t.is(samples.get(Y)?.trades, 3);
  t.is(expected?.trades, 3);
  near(t, (samples.get(Y)?.usdPerUnit ?? 0) * 1e9, 32.75 / 16);
  near(t, (expected?.usdPerUnit ?? 0) * 1e9, 32.75 / 16);
});

test("VWAP window: trades recorded out of time order (release order) are all summed in their windows", (t) => {
  const w = new VwapWindow(100);
  w.record(Y, 1_050, 1n, 5); // released first, anchored later
  w.record(Y, 1_010, 1n, 1);
  w.record(Y, 1_020, 2n, 4);
  // at 1,030: the two before it (the later one not yet), (5) / 3 per unit
  t.deepEqual(w.sample(Y, 1_030), { usdPerUnit: 5 / 3, trades: 2 });
  // at 1,060: all three
  t.deepEqual(w.sample(Y, 1_060), { usdPerUnit: 10 / 4, trades: 3 });
  // at 1,115: 1,010 has left the window (at − 100, at]; 1,020 and 1,050 remain
  t.deepEqual(w.sample(Y, 1_115), { usdPerUnit: 9 / 3, trades: 2 });
});

test("quote candidates: every USD anchor whatever its time range, every TON alias, LSDs only with a rate", (t) => {
  t.deepEqual(quoteCandidates(CONFIG), [TON_ADDRESS, PTON_V1_MASTER, USD, OLD_USD].sort());
  const lsd = `0:${"C1".repeat(32)}`;
  const withLsd = { ...CONFIG, lsds: [{ address: lsd, decimals: 9 }] };
  t.false(quoteCandidates(withLsd).includes(lsd));
  t.true(quoteCandidates(withLsd, new Map([[lsd, 1.05]])).includes(lsd));
});

test("ratioToNumber: exact ratios as floats, beyond the double range too", (t) => {
  t.is(ratioToNumber({ num: 3n, den: 4n }), 0.75);
  t.is(ratioToNumber({ num: 3n << 1100n, den: 1n << 1100n }), 3);
  t.is(ratioToNumber({ num: 1n << 1100n, den: 4n << 1100n }), 0.25);
});
