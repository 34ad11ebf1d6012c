/**
 * USD activity per pool for the catalogue's USD fields (api/pricing.ts): sums of the swaps' USD columns
 * (migration 010) read from the pool rollups (migration 009/011, kept exact by infra/store/rollups.ts), not
 * from raw swaps: the last day from the minute rollup, 7 and 30 days from the hour rollup. A window is
 * (until − N days, until] at the rollup's resolution (a bucket counts when its start is inside). Rollups
 * are read with FINAL (their key is (pool, bucket)).
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { PoolUsdWindow, PoolUsdWindows } from "../../read-model.ts";
import { big, seconds, str } from "./common.ts";

const DAY = 86_400;

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
