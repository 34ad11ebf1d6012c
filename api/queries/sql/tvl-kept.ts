/**
 * The DEX TVL points kept at hour boundaries (migration 020, api/queries/tvl.ts): what one read needs to tell
 * which kept points still hold, and the write of newly computed ones.
 *
 * One statement returns four kinds of rows: `p` the kept points of the boundaries asked for (every stored
 * computation; the newest of each boundary is taken here, as FINAL would keep it, without FINAL's merge),
 * `w` the hour boundaries up to the last one asked for whose state rows were written after the oldest of
 * those computations (a point at t computed at c is stale when such an hour at <= t was written at or after
 * c), `f` every pool's first day row (which listed pools a point depends on), `c` the engine clock now (the
 * `computed` of points priced from states read after this statement).
 */
import type { Store } from "../../../infra/store/client.ts";
import { floatOrNull, int, oneOf, rowReader, text, unsigned } from "./fast-row.ts";

const ts = (name: string) => `toDateTime({${name}:UInt32}, 'UTC')`;
const CLOCK = "toUInt64(toUnixTimestamp64Micro(now64(6)))";
const RANGE = `pricing = {pricing:String} AND at >= ${ts("first")} AND at <= ${ts("last")}`;

const KEPT_SQL = `
SELECT 'p' AS kind, toUInt32(at) AS at, toString(catalogue) AS key, tvl_usd AS tvl, untracked_tvl_usd AS untracked,
  computed AS t
FROM dex_tvl_1h
WHERE ${RANGE} AND toUInt32(at) % {step:UInt32} = 0
UNION ALL
SELECT 'w', toUInt32(at), '', CAST(NULL AS Nullable(Float64)), CAST(NULL AS Nullable(Float64)), max(written)
FROM pool_state_hours_written
WHERE at <= ${ts("last")}
GROUP BY at
HAVING max(written) >= (SELECT min(computed) FROM dex_tvl_1h WHERE ${RANGE})
UNION ALL
SELECT 'f', toUInt32(min(first_day)), pool, CAST(NULL AS Nullable(Float64)), CAST(NULL AS Nullable(Float64)),
  toUInt64(0)
FROM pool_first_state_day
GROUP BY pool
UNION ALL
SELECT 'c', toUInt32(0), '', CAST(NULL AS Nullable(Float64)), CAST(NULL AS Nullable(Float64)), ${CLOCK}`;

const KINDS = ["p", "w", "f", "c"] as const;
/** Read by hand (./fast-row.ts): one row per pool (its first day) besides the points. */
const keptRow = rowReader((r) => ({
  kind: oneOf(r, "kind", KINDS),
  at: int(r, "at"),
  key: text(r, "key"),
  tvl: floatOrNull(r, "tvl"),
  untracked: floatOrNull(r, "untracked"),
  t: unsigned(r, "t"),
}));

/** A kept point: the DEX TVL at `at` as computed at `computed` (engine µs) under `catalogue`. */
export type KeptDexTvlPoint = {
  at: number;
  catalogue: bigint;
  tvlUsd: number | null;
  untrackedTvlUsd: number | null;
  computed: bigint;
};

export type KeptDexTvl = {
  points: KeptDexTvlPoint[];
  /** Hour boundaries whose state rows were written at `written` (only those that may make a point stale). */
  written: { at: number; written: bigint }[];
  /** Each pool's first day boundary with a state row. */
  firstDays: Map<string, number>;
  /** The engine clock when this was read (µs). */
  now: bigint;
};

export async function selectKeptDexTvl(
  store: Store,
  q: { pricing: string; first: number; last: number; step: number },
): Promise<KeptDexTvl> {
  const out: KeptDexTvl = { points: [], written: [], firstDays: new Map(), now: 0n };
  // The newest computation of each boundary (ReplacingMergeTree(computed) keeps it on merge).
  const last = new Map<number, KeptDexTvlPoint>();
  for (const r of await store.query(KEPT_SQL, keptRow, q)) {
    if (r.kind === "p") {
      const seen = last.get(r.at);
      if (seen !== undefined && seen.computed >= r.t) continue;
      last.set(r.at, {
        at: r.at,
        catalogue: BigInt(r.key),
        tvlUsd: r.tvl,
        untrackedTvlUsd: r.untracked,
        computed: r.t,
      });
    } else if (r.kind === "w") out.written.push({ at: r.at, written: r.t });
    else if (r.kind === "f") out.firstDays.set(r.key, r.at);
    else out.now = r.t;
  }
  out.points = [...last.values()];
  return out;
}

export async function insertKeptDexTvl(
  store: Store,
  pricing: string,
  points: readonly KeptDexTvlPoint[],
): Promise<void> {
  if (points.length === 0) return;
  await store.insert(
    "dex_tvl_1h",
    points.map((p) => ({
      pricing,
      at: p.at,
      catalogue: p.catalogue.toString(),
      tvl_usd: p.tvlUsd,
      untracked_tvl_usd: p.untrackedTvlUsd,
      computed: p.computed.toString(),
    })),
  );
}
