/**
 * `GET /v1/pools/{address}/ohlcv` (schemas/api/ohlcv.ts): candles from the pool's rollups. Orientation:
 * the base token is the pool's token0, the quote token1; `token=quote` describes the quote in base units.
 * `before_timestamp` defaults to just after the newest indexed block (the data's time, not the clock);
 * intervals start before it. Without `include_empty_intervals` the `limit` newest intervals with trades;
 * with it, the `limit` newest intervals, a gap carrying the previous close with volume 0 (GeckoTerminal),
 * and none before the pool's first trade.
 */

import { AGGREGATES } from "../../schemas/api/ohlcv.ts";
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError, ServiceUnavailableError } from "../errors.ts";
import type { AssetRecord, RawAddress } from "../read-model.ts";
import type { CandleRow, Timeframe } from "../read-model-stats.ts";
import type { CandleView, OhlcvView } from "../views.ts";
import { norm } from "./sql/common.ts";

const UNIT_SECONDS: Record<Timeframe, number> = { minute: 60, hour: 3600, day: 86_400 };
const DEFAULT_LIMIT = 100;

export type OhlcvQuery = {
  timeframe: Timeframe;
  aggregate?: number;
  before?: number;
  limit?: number;
  currency: "token" | "usd";
  token: "base" | "quote";
  includeEmpty?: boolean;
};

export async function poolOhlcv(deps: ApiDeps, address: RawAddress, q: OhlcvQuery): Promise<OhlcvView> {
  if (deps.stats === undefined)
    throw new ServiceUnavailableError("candles need the ClickHouse store (its rollups)");
  const stats = deps.stats;
  const pool = await deps.data.getPool(address);
  if (pool === null) throw new NotFoundError("address", "no such pool");
  const aggregate = q.aggregate ?? 1;
  const allowed: readonly number[] = AGGREGATES[q.timeframe];
  if (!allowed.includes(aggregate)) {
    throw new BadRequestError(
      "aggregate",
      `must be one of ${allowed.join(", ")} for timeframe ${q.timeframe}`,
    );
  }
  const step = UNIT_SECONDS[q.timeframe] * aggregate;
  const before =
    q.before ?? ((await deps.data.getIndexedHead())?.utime ?? Math.floor(deps.clock() / 1000)) + 1;
  const limit = q.limit ?? DEFAULT_LIMIT;
  const lastStart = Math.floor((before - 1) / step) * step;
  const from = q.includeEmpty ? Math.max(0, lastStart - (limit - 1) * step) : 0;
  const base = { pool: pool.address, timeframe: q.timeframe };
  // The newest `limit` intervals first: when each has a trade they are the answer, without reading the
  // pool's older rollup rows; else (gaps) the whole history before `before`.
  const recent = Math.max(from, lastStart - (limit - 1) * step);
  let rows = await stats.candles({ ...base, step, from: recent, before, limit });
  if (rows.length < limit && recent > from)
    rows = await stats.candles({ ...base, step, from, before, limit });
  rows.reverse();
  const described = q.token === "base" ? pool.token0 : pool.token1;
  const unit = q.token === "base" ? pool.token1 : pool.token0;
  const assets = new Map(
    (await deps.data.getAssets([described, unit].filter((a): a is string => a !== null))).map((a) => [
      norm(a.address),
      a,
    ]),
  );
  const asset = (a: RawAddress | null): AssetRecord | null =>
    a === null ? null : (assets.get(norm(a)) ?? null);
  // Side a of the rollups is the lesser router wallet; the described token is side a unless its wallet is b.
  const describedWallet = q.token === "base" ? pool.token0Wallet : pool.token1Wallet;
  const sideOf = (walletB: string) =>
    describedWallet !== null && norm(describedWallet) === norm(walletB) ? "b" : "a";
  let candles: CandleView[] = rows.map((r) => ({ ...r, described: sideOf(r.wallet_b), empty: false }));
  if (q.includeEmpty) {
    const prior = await stats.lastClose({ ...base, before: from });
    candles = fill(
      candles,
      from,
      lastStart,
      step,
      prior === null ? null : { ...prior, side: sideOf(prior.wallet_b) },
    );
  }
  return {
    pool: pool.address,
    timeframe: q.timeframe,
    aggregate,
    currency: q.currency,
    described: asset(described),
    describedAddress: described,
    unit: asset(unit),
    unitAddress: unit,
    candles,
  };
}

/** Every interval start from `from` to `last`: gaps after the first trade carry the previous close, volume 0. */
function fill(
  rows: readonly CandleView[],
  from: number,
  last: number,
  step: number,
  prior: (Pick<CandleRow, "wallet_a" | "wallet_b" | "last"> & { side: "a" | "b" }) | null,
): CandleView[] {
  const byStart = new Map(rows.map((r) => [r.t, r]));
  const out: CandleView[] = [];
  let previous: CandleView | null =
    prior === null
      ? null
      : {
          ...emptyAt(from - step, prior.last, prior.side),
          wallet_a: prior.wallet_a,
          wallet_b: prior.wallet_b,
        };
  for (let t = from; t <= last; t += step) {
    const row = byStart.get(t);
    if (row !== undefined) previous = row;
    else if (previous !== null)
      previous = {
        ...emptyAt(t, previous.last, previous.described),
        wallet_a: previous.wallet_a,
        wallet_b: previous.wallet_b,
      };
    if (previous !== null) out.push(previous.t === t ? previous : { ...previous, t });
  }
  return out;
}

/** An interval without trades: open = high = low = close = the previous close, no volume. */
function emptyAt(t: number, close: readonly [bigint, bigint], side: "a" | "b"): CandleView {
  const raw = close[0] > 0n ? Number(close[1]) / Number(close[0]) : null;
  return {
    t,
    wallet_a: "",
    wallet_b: "",
    first: [close[0], close[1]],
    last: [close[0], close[1]],
    hi: raw,
    lo: raw,
    va: 0n,
    vb: 0n,
    n: 0,
    usd: 0,
    usd_unknown: 0,
    described: side,
    empty: true,
  };
}
