/**
 * USD activity per pool for the catalogue's USD fields (api/pricing.ts): sums of the swaps' USD columns
 * (migration 010) read from the pool rollups (migration 009/011, kept exact by infra/store/rollups.ts), not
 * from raw swaps: the last day from the minute rollup, 7 and 30 days from the hour rollup. A window is
 * (until − N days, until] at the rollup's resolution (a bucket counts when its start is inside). Rollups
 * are read with FINAL (their key is (pool, bucket)). Also the trades of the VWAP clamp (`selectQuoteTrades`):
 * from the priced pairs at hour boundaries, from the legs elsewhere.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import { DAY, HOUR, PRICED_LEG_SQL } from "../../../infra/store/rollups.ts";
import type { PoolUsdWindow, PoolUsdWindows, QuoteTradesAt, QuoteTradesQuery } from "../../read-model.ts";
import { big, seconds, str } from "./common.ts";
import { float, int, rowReader, text } from "./fast-row.ts";

const SPAN_SQL = `SELECT count() AS n, toUInt32(min(utime)) AS first, toUInt32(max(utime)) AS until FROM transactions`;
const span = z.object({ n: big, first: seconds, until: seconds });

const DAY_SQL = `SELECT pool, sum(volume_usd) AS volume, sum(lp_fee_usd) AS lp_fee
FROM pool_rollup_1m FINAL
WHERE bucket > {from:DateTime('UTC')} AND bucket <= {until:DateTime('UTC')}
GROUP BY pool`;
const dayRow = z.object({ pool: str, volume: z.number(), lp_fee: z.number() });

const MONTH_SQL = `SELECT pool,
  sumIf(lp_fee_usd, bucket > {from7:DateTime('UTC')}) AS lp_fee_7d,
  sum(lp_fee_usd) AS lp_fee_30d
FROM pool_rollup_1h FINAL
WHERE bucket > {from30:DateTime('UTC')} AND bucket <= {until:DateTime('UTC')}
GROUP BY pool`;
const monthRow = z.object({ pool: str, lp_fee_7d: z.number(), lp_fee_30d: z.number() });

export async function selectPoolUsdWindows(store: Store): Promise<PoolUsdWindows | null> {
  const [s] = await store.query(SPAN_SQL, span);
  if (s === undefined || s.n === 0n) return null;
  const until = s.until;
  const [day, month] = await Promise.all([
    store.query(DAY_SQL, dayRow, { from: until - DAY, until }),
    store.query(MONTH_SQL, monthRow, { from7: until - 7 * DAY, from30: until - 30 * DAY, until }),
  ]);
  const pools = new Map<string, PoolUsdWindow>();
  const of = (pool: string) => {
    let w = pools.get(pool);
    if (w === undefined) {
      w = { volume1d: 0, lpFee1d: 0, lpFee7d: 0, lpFee30d: 0 };
      pools.set(pool, w);
    }
    return w;
  };
  for (const r of day) Object.assign(of(r.pool), { volume1d: r.volume, lpFee1d: r.lp_fee });
  for (const r of month) Object.assign(of(r.pool), { lpFee7d: r.lp_fee_7d, lpFee30d: r.lp_fee_30d });
  return { until, firstIndexed: s.first, pools };
}

/**
 * A leg's quote side (the side in {quotes}) and token side, for columns `offer`, `ask` and amounts `in`,
 * `out`: offer_quote, token, quote, and the token's units. `oneQuote(ask)` keeps the legs with exactly one
 * side a quote. Both reads below choose the sides with these.
 */
const quoteSidesSql = (offer: string, ask: string, amountIn: string, amountOut: string) =>
  `has({quotes:Array(String)}, ${offer}) AS offer_quote,
    if(offer_quote, ${ask}, ${offer}) AS token, if(offer_quote, ${offer}, ${ask}) AS quote,
    if(offer_quote, ${amountOut}, ${amountIn}) AS units`;
const oneQuoteSql = (ask: string) => `offer_quote != has({quotes:Array(String)}, ${ask})`;

/**
 * The trades of the VWAP clamp (api/read-model.ts `QuoteTradesQuery`) from `swaps FINAL`: the boundary a leg
 * counts for is `first + k·step` for every k with the leg's utime in (at − window, at]: one at most when
 * the window is not longer than the step, as every caller asks. Only the windows are read: their time
 * ranges (merged where they touch) bound the scan on the table's sorting key (utime first).
 */
const quoteTradesSql = (ranges: number) => `SELECT {first:Int64} + k * {step:Int64} AS at, token, quote,
  toFloat64(sum(units)) AS units, sumKahan(usd) AS usd, count() AS trades
FROM (
  SELECT ${quoteSidesSql("assumeNotNull(offer_master)", "assumeNotNull(ask_master)", "amount_in", "assumeNotNull(amount_out)")},
    assumeNotNull(volume_usd) AS usd,
    toInt64(toUInt32(utime)) AS u,
    arrayJoin(range(
      toUInt64(greatest(0, intDiv(u - {first:Int64} + {step:Int64} - 1, {step:Int64}))),
      toUInt64(greatest(0, least({count:Int64}, intDiv(u + {window:Int64} - 1 - {first:Int64}, {step:Int64}) + 1)))
    )) AS k
  FROM swaps FINAL
  WHERE (${Array.from(
    { length: ranges },
    (_, i) =>
      `(utime > toDateTime({from${i}:UInt32}, 'UTC') AND utime <= toDateTime({to${i}:UInt32}, 'UTC'))`,
  ).join(" OR ")})
    AND ${PRICED_LEG_SQL}
    AND ${oneQuoteSql("assumeNotNull(ask_master)")}
    AND ({allTokens:UInt8} = 1 OR token IN {tokens:Array(String)})
)
GROUP BY k, token, quote
ORDER BY k, token, quote`;

/** Read by hand (./fast-row.ts): a DEX-wide read of 30 boundaries is ~11,000 rows on the bulk store. */
const quoteTradesRow = rowReader(
  (r): QuoteTradesAt => ({
    at: int(r, "at"),
    token: text(r, "token"),
    quote: text(r, "quote"),
    units: float(r, "units"),
    usd: float(r, "usd"),
    trades: int(r, "trades"),
  }),
);

/** The windows (at − window, at] of the boundaries as time ranges, those that touch or overlap merged. */
function windowRanges(q: Pick<QuoteTradesQuery, "first" | "last" | "step" | "windowSeconds">) {
  const out: { from: number; to: number }[] = [];
  for (let at = q.first; at <= q.last; at += q.step) {
    const from = Math.max(0, at - q.windowSeconds);
    const prev = out[out.length - 1];
    if (prev !== undefined && from <= prev.to) prev.to = at;
    else out.push({ from, to: at });
  }
  return out;
}

/**
 * The same sums from the priced pairs (migration 021: per hour boundary, the legs of (at − 1 h, at]), for
 * boundaries that are all hour boundaries with a window of one hour: the boundaries as a key set of `at`,
 * each pair's newest rewrite by `version` (argMax: FINAL's merge cost ~20 ms more for 30 boundaries on the
 * bulk store), the quote side chosen per pair as above. (Choosing it in JS from the pair rows instead was
 * slower for every token: twice the rows to read.)
 */
const pairsSql = (boundaries: number) => `SELECT toUInt32(at) AS at, token, quote,
  sum(units) AS units, sumKahan(usd) AS usd, sum(trades) AS trades
FROM (
  SELECT at, ${quoteSidesSql("offer_master", "ask_master", "p.1", "p.2")}, p.3 AS usd, p.4 AS trades
  FROM (
    SELECT at, offer_master, ask_master,
      argMax((toFloat64(amount_in), toFloat64(amount_out), volume_usd, trades), version) AS p
    FROM priced_pairs_1h
    WHERE at IN (${Array.from({ length: boundaries }, (_, i) => `toDateTime({at${i}:UInt32}, 'UTC')`).join(", ")})
      AND ({allTokens:UInt8} = 1 OR offer_master IN {tokens:Array(String)} OR ask_master IN {tokens:Array(String)})
    GROUP BY at, offer_master, ask_master
  )
  WHERE trades > 0 AND ${oneQuoteSql("ask_master")}
    AND ({allTokens:UInt8} = 1 OR token IN {tokens:Array(String)})
)
GROUP BY at, token, quote
ORDER BY at, token, quote`;

export async function selectQuoteTrades(store: Store, q: QuoteTradesQuery): Promise<QuoteTradesAt[]> {
  if (q.last < q.first || q.step <= 0 || q.windowSeconds <= 0 || q.quotes.length === 0) return [];
  const tokens = { allTokens: q.tokens === undefined ? 1 : 0, tokens: q.tokens ?? [] };
  if (q.windowSeconds === HOUR && q.first % HOUR === 0 && (q.step % HOUR === 0 || q.first === q.last)) {
    // Hour boundaries: their windows are rows of the priced pairs.
    const params: Record<string, unknown> = { quotes: q.quotes, ...tokens };
    let n = 0;
    for (let at = q.first; at <= q.last; at += q.step) params[`at${n++}`] = at;
    return store.query(pairsSql(n), quoteTradesRow, params);
  }
  const ranges = windowRanges(q);
  const params: Record<string, unknown> = {
    first: q.first,
    step: q.step,
    count: Math.floor((q.last - q.first) / q.step) + 1,
    window: q.windowSeconds,
    quotes: q.quotes,
    ...tokens,
  };
  ranges.forEach((r, i) => {
    params[`from${i}`] = r.from;
    params[`to${i}`] = r.to;
  });
  return store.query(quoteTradesSql(ranges.length), quoteTradesRow, params);
}
