/**
 * TVL history (a tondex extension, api/README.md "Pricing"): one point per interval boundary t in
 * [since, until], each the DEX TVL (or a pool's) at t: every pool's state after its last transaction at or
 * before t, priced with the prices of t (dex/pricing: the same rules as the current TVL, §7.6). Defaults:
 * `until` = the newest indexed transaction, `since` = 30 intervals of a day or 7 days of hours before it.
 * A point is null when nothing can be valued then (no pricing, no state, no price).
 */
import {
  type DexTvl,
  dexTvl,
  PriceBook,
  type PricingConfig,
  poolIndex,
  tvlDependencies,
} from "../../dex/pricing/index.ts";
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import {
  pricingPools,
  type TvlHistory,
  type TvlInterval,
  type TvlPoint,
  tvlAtBoundaries,
} from "../pricing.ts";
import type { PoolRecord, RawAddress } from "../read-model.ts";

const STEP: Record<TvlInterval, number> = { hour: 3_600, day: 86_400 };
const DEFAULT_SPAN: Record<TvlInterval, number> = { hour: 7 * 86_400, day: 30 * 86_400 };
/** Most points per answer: a longer window asks for a coarser interval. */
export const MAX_TVL_POINTS = 1_000;

export async function tvlHistory(
  deps: ApiDeps,
  q: { since?: number; until?: number; interval: TvlInterval; pool?: RawAddress },
): Promise<TvlHistory> {
  if (q.pool !== undefined && (await deps.data.getPool(q.pool)) === null) {
    throw new NotFoundError("pool", [{ field: "address", message: "unknown pool" }]);
  }
  const step = STEP[q.interval];
  const until = q.until ?? (await deps.data.getIndexedHead())?.utime ?? Math.floor(deps.clock() / 1000);
  const w = { since: q.since ?? until - DEFAULT_SPAN[q.interval], until };
  // As the statistics windows (./stats.ts, which may use `dexTvlAt` from here): since ≤ until.
  if (w.until < w.since) throw new BadRequestError("until", "must not be earlier than since");
  const first = Math.ceil(w.since / step) * step;
  const count = first > w.until ? 0 : Math.floor((w.until - first) / step) + 1;
  if (count > MAX_TVL_POINTS) {
    throw new BadRequestError("since", `the window holds ${count} ${q.interval}s; at most ${MAX_TVL_POINTS}`);
  }
  const out: TvlHistory = { since: w.since, until: w.until, interval: q.interval, points: [] };
  if (count === 0) return out;
  out.points = await tvlPoints(deps, { first, last: first + (count - 1) * step, step, pool: q.pool });
  return out;
}

/** The DEX TVL at the instant `at` (unix seconds): every pool's state after its last transaction at or
 * before `at`, priced then; null when nothing can be valued (no pricing, no state, no price). */
export async function dexTvlAt(deps: ApiDeps, at: number): Promise<number | null> {
  const head = await deps.data.getIndexedHead();
  if (head !== null && at >= head.utime && deps.pricing !== undefined) {
    // Nothing happened after the newest indexed transaction: the pools' latest states (the reference
    // lists the API keeps in memory), not a scan of the state history.
    const priced = pricingPools(await deps.data.listPools());
    return valued(dexTvl(new PriceBook(poolIndex(priced), deps.pricing, { at }), priced))?.tvlUsd ?? null;
  }
  const [point] = await tvlPoints(deps, { first: at, last: at, step: 1 });
  return point?.tvlUsd ?? null;
}

/** A DEX TVL, or null when no pool could be valued at all (unknown, not 0). */
function valued(tvl: DexTvl): DexTvl | null {
  return [...tvl.pools.values()].some((v) => v !== null) ? tvl : null;
}

/** The pools `pool`'s tracked TVL depends on (dex/pricing `tvlDependencies`); none for a pool without tokens. */
function dependencies(list: readonly PoolRecord[], pool: RawAddress, pricing: PricingConfig): RawAddress[] {
  const known = list.filter(
    (p): p is PoolRecord & { token0: string; token1: string } => p.token0 !== null && p.token1 !== null,
  );
  const target = known.find((p) => p.address === pool);
  return target === undefined ? [] : tvlDependencies(known, target, pricing).map((p) => p.address);
}

async function tvlPoints(
  deps: ApiDeps,
  q: { first: number; last: number; step: number; pool?: RawAddress },
): Promise<TvlPoint[]> {
  const { first, last, step } = q;
  const points: TvlPoint[] = [];
  const pricing = deps.pricing;
  const list = await deps.data.listPools();
  const pools = new Map(list.map((p) => [p.address, p]));
  // One pool's TVL: only the states of the pools it depends on (the same figure, a fraction of the rows).
  const only =
    q.pool === undefined || pricing === undefined ? undefined : dependencies(list, q.pool, pricing);
  const timeline =
    pricing === undefined || deps.data.getPoolStateTimeline === undefined
      ? []
      : await deps.data.getPoolStateTimeline({
          first,
          until: last,
          step,
          // Only listed pools are valued below: a quiet pool is searched among them alone.
          ...(only ? { pools: only } : { listed: list.map((p) => p.address) }),
        });
  if (pricing === undefined) {
    for (let at = first; at <= last; at += step) points.push({ at, tvlUsd: null, untrackedTvlUsd: null });
    return points;
  }
  for (const { at, tvl } of tvlAtBoundaries(pools, timeline, { first, last, step }, pricing)) {
    const known = tvl === null ? null : valued(tvl);
    points.push(
      q.pool === undefined
        ? { at, tvlUsd: known?.tvlUsd ?? null, untrackedTvlUsd: known?.untrackedTvlUsd ?? null }
        : { at, tvlUsd: tvl?.pools.get(q.pool) ?? null, untrackedTvlUsd: null },
    );
  }
  return points;
}
