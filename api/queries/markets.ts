/**
 * The CMC and CoinGecko feeds (decisions in api/README "Export feeds"; mapping in ../mappers/markets.ts).
 * The window is the 24 hours up to the newest indexed block's time (inclusive, measured from the indexed
 * data, not the wall clock); pools and assets come from the read model's lists (cached and priced like the
 * catalogue routes'), the window's trades from the facts.
 */
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import { friendly } from "../mappers/common.ts";
import {
  cmcEntry,
  geckoPairEntry,
  geckoTickerEntry,
  geckoTradeEntry,
  type Market,
  markets,
} from "../mappers/markets.ts";
import type { PoolMarketRecord, RawAddress, TradeFilter, TradeRecord } from "../read-model.ts";

export const DAY_SECONDS = 86_400;
/** historical_trades without `limit`. */
export const DEFAULT_TRADES_LIMIT = 500;

/** The inclusive 24 h window ending at the newest indexed block; null before anything is indexed. */
export async function dayWindow(deps: ApiDeps): Promise<{ since: number; until: number } | null> {
  const head = await deps.data.getIndexedHead();
  return head === null ? null : { since: head.utime - DAY_SECONDS + 1, until: head.utime };
}

async function withWindow(deps: ApiDeps): Promise<{ list: Market[]; byPool: Map<string, PoolMarketRecord> }> {
  const [pools, assets, w] = await Promise.all([
    deps.data.listPools(),
    deps.data.listAssets(),
    dayWindow(deps),
  ]);
  const records = w === null ? [] : await deps.data.getPoolMarkets(w.since, w.until);
  return { list: markets(pools, assets), byPool: new Map(records.map((r) => [r.pool, r])) };
}

export async function cmcFeed(deps: ApiDeps): Promise<Record<string, ReturnType<typeof cmcEntry>>> {
  const { list, byPool } = await withWindow(deps);
  return Object.fromEntries(
    list.map((m) => [friendly(m.pool.address), cmcEntry(m, byPool.get(m.pool.address))]),
  );
}

export async function geckoPairs(deps: ApiDeps) {
  const [pools, assets] = await Promise.all([deps.data.listPools(), deps.data.listAssets()]);
  return markets(pools, assets).map(geckoPairEntry);
}

export async function geckoTickers(deps: ApiDeps) {
  const { list, byPool } = await withWindow(deps);
  return list.map((m) => geckoTickerEntry(m, byPool.get(m.pool.address)));
}

/** Look-back steps before the whole range (a day, a week, 30 days), from the window's end or the head. */
const LOOK_BACK_SECONDS = [DAY_SECONDS, 7 * DAY_SECONDS, 30 * DAY_SECONDS];

/**
 * The newest `limit` trades of the filter: first over the last day before its end (or the newest indexed
 * block), widening while fewer than `limit` come back. A narrower window that fills the limit holds the
 * newest trades (anything outside it is older), so the answer equals one query over the whole range,
 * which on a long history reads every granule of a busy pool.
 */
async function newestTrades(deps: ApiDeps, f: TradeFilter): Promise<TradeRecord[]> {
  const head = await deps.data.getIndexedHead();
  const end = Math.min(f.until, head?.utime ?? f.until);
  for (const back of LOOK_BACK_SECONDS) {
    const since = end - back + 1;
    if (since <= f.since) break;
    const trades = await deps.data.getTrades({ ...f, since });
    if (trades.length >= f.limit) return trades;
  }
  return deps.data.getTrades(f);
}

export type TradesQuery = {
  ticker_id: RawAddress;
  type?: "buy" | "sell";
  limit?: number;
  start_time?: number;
  end_time?: number;
};

/** A pool's trades, newest first, within start_time..end_time (unix ms, inclusive; whole seconds match). */
export async function geckoHistoricalTrades(deps: ApiDeps, q: TradesQuery) {
  const [pool, assets] = await Promise.all([deps.data.getPool(q.ticker_id), deps.data.listAssets()]);
  const [m] = pool === null ? [] : markets([pool], assets);
  if (m === undefined)
    throw new NotFoundError("ticker", [
      { field: "ticker_id", message: "unknown pool, or its assets are not known" },
    ]);
  const since = q.start_time === undefined ? 0 : Math.ceil(q.start_time / 1000);
  const until = q.end_time === undefined ? 0xffff_ffff : Math.floor(q.end_time / 1000);
  if (q.start_time !== undefined && q.end_time !== undefined && q.start_time > q.end_time)
    throw new BadRequestError("start_time", "must not be after end_time");
  const trades =
    since > until
      ? []
      : await newestTrades(deps, {
          pool: m.pool.address,
          since,
          until: Math.min(until, 0xffff_ffff),
          limit: q.limit ?? DEFAULT_TRADES_LIMIT,
          ...(q.type === undefined ? {} : { swapIn: q.type === "buy" ? 1 : 0 }),
        });
  const entries = trades.map((t) => geckoTradeEntry(m, t));
  return { buy: entries.filter((e) => e.type === "buy"), sell: entries.filter((e) => e.type === "sell") };
}
