/**
 * TVL history (a tondex extension, api/README.md "Pricing"): one point per interval boundary t in
 * [since, until], each the DEX TVL (or a pool's) at t: every pool's state after its last transaction at or
 * before t, priced with the prices of t (dex/pricing: the same rules as the current TVL, §7.6). Defaults:
 * `until` = the newest indexed transaction, `since` = 30 intervals of a day or 7 days of hours before it.
 * A point is null when nothing can be valued then (no pricing, no state, no price).
 */

import { createHash } from "node:crypto";
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
  type Boundaries,
  bookOptions,
  pricingPools,
  readVwaps,
  type TvlHistory,
  type TvlInterval,
  type TvlPoint,
  tvlAtBoundaries,
  type VwapsAt,
  vwapRecorder,
} from "../pricing.ts";
import type { PoolRecord, PoolStatePoint, RawAddress } from "../read-model.ts";
import type { StatsReadModel } from "../read-model-stats.ts";

const HOUR = 3_600;
const DAY = 86_400;
const STEP: Record<TvlInterval, number> = { hour: HOUR, day: DAY };
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

/**
 * Computes and keeps the DEX TVL at every hour boundary in [from, to] without a kept point that still holds
 * (a day of hours per read of the states: keeping the bulk store's 90 days peaks at ~86 MiB of JS heap in
 * 14 s, a week per read at ~148 MiB in 13 s), so that the histories over them are read rather than computed.
 * Without pricing or a store keeping points, nothing is done.
 */
export async function keepDexTvlHours(deps: ApiDeps, range: { from: number; to: number }): Promise<void> {
  if (deps.pricing === undefined || deps.stats?.keptDexTvl === undefined) return;
  const last = Math.floor(range.to / HOUR) * HOUR;
  for (let first = Math.ceil(range.from / HOUR) * HOUR; first <= last; first += DAY) {
    await tvlPoints(deps, { first, last: Math.min(last, first + DAY - HOUR), step: HOUR });
  }
}

/** The DEX TVL at the instant `at` (unix seconds): every pool's state after its last transaction at or
 * before `at`, priced then; null when nothing can be valued (no pricing, no state, no price). */
export async function dexTvlAt(
  deps: ApiDeps,
  at: number,
  /** The indexed head when the caller has just read it; undefined: read here. */
  indexedHead?: { utime: number } | null,
): Promise<number | null> {
  const head = indexedHead === undefined ? await deps.data.getIndexedHead() : indexedHead;
  if (head !== null && at >= head.utime && deps.pricing !== undefined) {
    // Nothing happened after the newest indexed transaction: the pools' latest states (the reference
    // lists the API keeps in memory), not a scan of the state history.
    const [pools, vwaps] = await Promise.all([
      deps.data.listPools(),
      readVwaps(deps.data, deps.pricing, { first: at, last: at, step: 1 }),
    ]);
    const priced = pricingPools(pools);
    const book = new PriceBook(poolIndex(priced), deps.pricing, bookOptions(at, vwaps));
    return valued(dexTvl(book, priced))?.tvlUsd ?? null;
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
  const pricing = deps.pricing;
  const read = deps.stats?.keptDexTvl?.bind(deps.stats);
  const hours = q.first % HOUR === 0 && (q.step % HOUR === 0 || q.first === q.last);
  if (q.pool === undefined && pricing !== undefined && hours && read !== undefined) {
    const keep = deps.stats?.keepDexTvl?.bind(deps.stats);
    return keptDexTvlPoints(deps, { read, keep }, { first: q.first, last: q.last, step: q.step }, pricing);
  }
  return computedPoints(deps, await deps.data.listPools(), q);
}

/** The points of `b`, computed from the states at each boundary (pools in `list` valued). */
async function computedPoints(
  deps: ApiDeps,
  list: readonly PoolRecord[],
  q: Boundaries & { pool?: RawAddress },
): Promise<TvlPoint[]> {
  const { first, last, step } = q;
  const points: TvlPoint[] = [];
  const pricing = deps.pricing;
  const pools = new Map(list.map((p) => [p.address, p]));
  // One pool's TVL: only the states of the pools it depends on (the same figure, a fraction of the rows).
  const only =
    q.pool === undefined || pricing === undefined ? undefined : dependencies(list, q.pool, pricing);
  if (pricing === undefined) {
    for (let at = first; at <= last; at += step) points.push({ at, tvlUsd: null, untrackedTvlUsd: null });
    return points;
  }
  const b = { first, last, step };
  const timelineRead =
    deps.data.getPoolStateTimeline?.({
      first,
      until: last,
      step,
      // Only listed pools are valued below: a quiet pool is searched among them alone.
      ...(only ? { pools: only } : { listed: list.map((p) => p.address) }),
    }) ?? Promise.resolve([]);
  let timeline: PoolStatePoint[];
  let vwaps: VwapsAt | null;
  if (q.pool === undefined) {
    // Every pool: some token's price is nearly always one the clamp may bind; read with the states.
    [timeline, vwaps] = await Promise.all([timelineRead, readVwaps(deps.data, pricing, b)]);
  } else {
    // One pool (a few pools priced): a pass without VWAPs tells which tokens' prices the clamp may bind
    // at any point (none, for a pool of quotes and deep tokens); only their trades are read.
    timeline = await timelineRead;
    const recorder = vwapRecorder();
    for (const _ of tvlAtBoundaries(pools, timeline, b, pricing, recorder.lookup));
    vwaps = recorder.asked.size === 0 ? null : await readVwaps(deps.data, pricing, b, [...recorder.asked]);
  }
  for (const { at, tvl } of tvlAtBoundaries(pools, timeline, b, pricing, vwaps)) {
    const known = tvl === null ? null : valued(tvl);
    points.push(
      q.pool === undefined
        ? { at, tvlUsd: known?.tvlUsd ?? null, untrackedTvlUsd: known?.untrackedTvlUsd ?? null }
        : { at, tvlUsd: tvl?.pools.get(q.pool) ?? null, untrackedTvlUsd: null },
    );
  }
  return points;
}

/**
 * Bumped whenever dex/pricing or this module changes what a DEX TVL point is: points kept under another
 * version are not read (their pricing fingerprint differs). 2: the VWAP clamp (§7.4) values TVL.
 */
const TVL_RULES = 2;

/** The fingerprint kept points are stored under: the TVL rules and the pricing configuration. */
export function pricingFingerprint(pricing: PricingConfig): string {
  return createHash("sha256")
    .update(JSON.stringify({ rules: TVL_RULES, pricing }))
    .digest("hex")
    .slice(0, 32);
}

const U64 = (1n << 64n) - 1n;

/**
 * The catalogue fingerprint of each boundary: over the listed pools with a first state day at or before the
 * end of the boundary's day (every pool with a state at the boundary among them), the sum of a hash of each
 * one's address, tokens and deprecated flag. A kept point is read only under the fingerprint it was
 * computed with: a token learnt later or a pool listed later with older states makes it stale, a pool that
 * first traded after the boundary's day does not.
 */
function catalogueFingerprints(
  list: readonly PoolRecord[],
  firstDays: ReadonlyMap<RawAddress, number>,
): (at: number) => bigint {
  const members = list
    .filter((p) => firstDays.has(p.address))
    .map((p) => ({ day: firstDays.get(p.address) as number, hash: poolHash(p) }))
    .sort((a, b) => a.day - b.day);
  const sums: bigint[] = [];
  let sum = 0n;
  for (const m of members) {
    sum = (sum + m.hash) & U64;
    sums.push(sum);
  }
  return (at) => {
    const end = Math.ceil(at / DAY) * DAY;
    // The number of members with day <= end (binary search over the sorted days).
    let lo = 0;
    let hi = members.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((members[mid] as { day: number }).day <= end) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0n : (sums[lo - 1] as bigint);
  };
}

/** A 64-bit hash of the pool's catalogue entry (not cryptographic: the entries are not chosen to collide). */
function poolHash(p: PoolRecord): bigint {
  const s = `${p.address}\t${p.token0 ?? ""}\t${p.token1 ?? ""}\t${p.deprecated ? 1 : 0}`;
  // Two 32-bit multiplicative hashes of the text (FNV-1a and a second multiplier), each finished with an
  // avalanche step: ~0.6 ms for 1,200 pools per request, where sha256 took 6-12 ms.
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (BigInt(avalanche(a)) << 32n) | BigInt(avalanche(b));
}

const avalanche = (h: number): number => {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
};

/**
 * The DEX TVL points of `b` (hour boundaries): the kept ones that still hold (./sql/tvl-kept.ts: computed
 * under this pricing and catalogue, no state of theirs written since), the others computed and kept.
 */
async function keptDexTvlPoints(
  deps: ApiDeps,
  kept: { read: NonNullable<StatsReadModel["keptDexTvl"]>; keep: StatsReadModel["keepDexTvl"] },
  b: Boundaries,
  pricing: PricingConfig,
): Promise<TvlPoint[]> {
  const fingerprint = pricingFingerprint(pricing);
  const [list, stored] = await Promise.all([
    deps.data.listPools(),
    kept.read({ pricing: fingerprint, ...b }),
  ]);
  const catalogueAt = catalogueFingerprints(list, stored.firstDays);
  const found = new Map<number, TvlPoint>();
  for (const p of stored.points) {
    if (p.catalogue !== catalogueAt(p.at)) continue;
    if (stored.written.some((w) => w.at <= p.at && w.written >= p.computed)) continue;
    found.set(p.at, { at: p.at, tvlUsd: p.tvlUsd, untrackedTvlUsd: p.untrackedTvlUsd });
  }
  const missing: number[] = [];
  for (let at = b.first; at <= b.last; at += b.step) if (!found.has(at)) missing.push(at);
  if (missing.length > 0) {
    const lo = missing[0] as number;
    const hi = missing.at(-1) as number;
    const wanted = new Set(missing);
    const computed = (await computedPoints(deps, list, { first: lo, last: hi, step: b.step })).filter((p) =>
      wanted.has(p.at),
    );
    for (const p of computed) found.set(p.at, p);
    // Keeping is an optimisation: a store that refuses the write (a read-only user) still answers.
    await kept
      .keep?.(
        fingerprint,
        computed.map((p) => ({ ...p, catalogue: catalogueAt(p.at), computed: stored.now })),
      )
      .catch((err: unknown) =>
        deps.logger?.warn({ err }, "DEX TVL points not kept; computed again next time"),
      );
  }
  const points: TvlPoint[] = [];
  for (let at = b.first; at <= b.last; at += b.step) points.push(found.get(at) as TvlPoint);
  return points;
}
