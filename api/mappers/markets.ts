/**
 * The CMC and CoinGecko feeds (decisions in api/README "Export feeds"): domain records → wire objects. Pure.
 *
 * - One entry per pool whose tokens are known and whose two assets the feed can describe (name, symbol,
 *   decimals: the DexScreener feed's rule, `feedAsset`); the pool's address is the CMC key, the CoinGecko
 *   `ticker_id` and `pool_id` (several pools trade the same pair). Base = token0, quote/target = token1,
 *   the pool's own order, as the DexScreener feed's asset0/asset1.
 * - Volumes: the executed trades of the window (24 h back from the newest indexed block), base and quote
 *   amounts moved, decimalised exactly. Prices: quote per base of one trade's decimalised amounts (50
 *   fraction digits, the DexScreener `priceNative` rule): `last_price` at the window's last trade, `high` and
 *   `low` the extreme trades; null without a trade in the window (unknown is not zero).
 * - Liquidity: the pool's reserves from its latest state; `liquidity_in_usd` the pool's TVL from the USD
 *   pricing (api/pricing.ts); null when not known.
 * - bid/ask (CoinGecko; no spec defines them for an AMM, analytics.md §4): spot price (reserve1/reserve0,
 *   decimalised) × (1 − fee) and ÷ (1 − fee), fee = LP + protocol bps; only for constant-product pools,
 *   whose spot price is the reserve ratio; null otherwise.
 */
import { ratio, toDecimalString } from "../../dex/amm/index.ts";
import type { AssetRecord, PoolMarketRecord, PoolRecord, TradeRecord } from "../read-model.ts";
import { friendly } from "./common.ts";
import { decimalise, feedAsset, MAX_FRACTION_DIGITS, priceNative } from "./dexscreener.ts";

/** Where a pool is shown on STON.fi. */
export const POOL_URL = "https://app.ston.fi/pools/";

type Side = { id: string; name: string; symbol: string; decimals: number };
export type Market = { pool: PoolRecord; base: Side; quote: Side };

/** The pools the feeds list (see the header), with their two assets described. */
export function markets(pools: readonly PoolRecord[], assets: readonly AssetRecord[]): Market[] {
  const described = new Map<string, Side>();
  for (const a of assets) {
    const wire = feedAsset(a);
    if (wire !== null && a.decimals !== null)
      described.set(a.address, { id: wire.id, name: wire.name, symbol: wire.symbol, decimals: a.decimals });
  }
  return pools.flatMap((pool) => {
    const base = pool.token0 === null ? undefined : described.get(pool.token0);
    const quote = pool.token1 === null ? undefined : described.get(pool.token1);
    return base === undefined || quote === undefined ? [] : [{ pool, base, quote }];
  });
}

const price = (m: Market, p: readonly [bigint, bigint]) =>
  priceNative(p[0], m.base.decimals, p[1], m.quote.decimals);

const figures = (m: Market, w: PoolMarketRecord | undefined) => ({
  baseVolume: decimalise(w?.volume0 ?? 0n, m.base.decimals),
  quoteVolume: decimalise(w?.volume1 ?? 0n, m.quote.decimals),
  last: w === undefined ? null : price(m, w.last),
});

export function cmcEntry(m: Market, w: PoolMarketRecord | undefined) {
  const f = figures(m, w);
  const s = m.pool.state;
  return {
    base_id: m.base.id,
    base_name: m.base.name,
    base_symbol: m.base.symbol,
    base_volume: f.baseVolume,
    base_liquidity: s === null ? null : decimalise(s.reserve0, m.base.decimals),
    quote_id: m.quote.id,
    quote_name: m.quote.name,
    quote_symbol: m.quote.symbol,
    quote_volume: f.quoteVolume,
    quote_liquidity: s === null ? null : decimalise(s.reserve1, m.quote.decimals),
    last_price: f.last,
    url: `${POOL_URL}${friendly(m.pool.address)}`,
    pool_address: friendly(m.pool.address),
    router_address: m.pool.router === null ? null : friendly(m.pool.router),
  };
}

export function geckoPairEntry(m: Market) {
  const id = friendly(m.pool.address);
  return { ticker_id: id, base: m.base.id, target: m.quote.id, pool_id: id };
}

const CONSTANT_PRODUCT = new Set(["v1_constant_product", "v2_constant_product"]);

/** Spot × (1 − fee) and spot ÷ (1 − fee) for a constant-product pool with reserves (see the header). */
function bidAsk(m: Market): { bid: string | null; ask: string | null } {
  const s = m.pool.state;
  if (s === null || !CONSTANT_PRODUCT.has(s.type) || s.reserve0 === 0n || s.reserve1 === 0n)
    return { bid: null, ask: null };
  const keep = 10_000n - s.lpFeeBps - s.protocolFeeBps;
  if (keep <= 0n) return { bid: null, ask: null };
  // spot = (r1 / 10^d1) / (r0 / 10^d0); rounded half-up to 50 digits like every feed price.
  const num = s.reserve1 * 10n ** BigInt(m.base.decimals);
  const den = s.reserve0 * 10n ** BigInt(m.quote.decimals);
  const text = (n: bigint, d: bigint) => toDecimalString(ratio(n, d), MAX_FRACTION_DIGITS, "half-up");
  return { bid: text(num * keep, den * 10_000n), ask: text(num * 10_000n, den * keep) };
}

export function geckoTickerEntry(m: Market, w: PoolMarketRecord | undefined) {
  const f = figures(m, w);
  return {
    ticker_id: friendly(m.pool.address),
    base_currency: m.base.id,
    target_currency: m.quote.id,
    pool_id: friendly(m.pool.address),
    last_price: f.last,
    base_volume: f.baseVolume,
    target_volume: f.quoteVolume,
    liquidity_in_usd: m.pool.stats?.lpTotalSupplyUsd ?? null,
    ...bidAsk(m),
    high: w === undefined ? null : price(m, w.high),
    low: w === undefined ? null : price(m, w.low),
  };
}

/** A trade as CoinGecko's historical_trades item: buy = the base was bought (token1 sold to the pool). */
export function geckoTradeEntry(m: Market, t: TradeRecord) {
  return {
    trade_id: t.id,
    price: price(m, [t.amount0, t.amount1]),
    base_volume: decimalise(t.amount0, m.base.decimals),
    target_volume: decimalise(t.amount1, m.quote.decimals),
    trade_timestamp: t.utime * 1000,
    type: t.swapIn === 1 ? ("buy" as const) : ("sell" as const),
  };
}
