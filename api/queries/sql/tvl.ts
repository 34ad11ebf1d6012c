/**
 * Pool states at time boundaries for the TVL history (api/queries/tvl.ts), from `pool_states FINAL`: each
 * pool's last state at or before the first boundary, then its last state in each later step (the first
 * boundary at or after the transaction's time: `ceil(utime / step) · step`). Carried forward by the caller.
 */
import { poolStateOfColumns } from "../../../dex/pool-state-row.ts";
import type { Store } from "../../../infra/store/client.ts";
import type { PoolStatePoint } from "../../read-model.ts";
import { seconds, str } from "./common.ts";
import { STATE_COLUMNS, stateRow } from "./pools.ts";

const COLUMNS = `pool, ${STATE_COLUMNS}`;

const BEFORE_SQL = `SELECT ${COLUMNS}, {first:UInt32} AS at
FROM pool_states FINAL
WHERE utime <= toDateTime({first:UInt32}, 'UTC')
ORDER BY pool, lt DESC
LIMIT 1 BY pool`;

const WITHIN_SQL = `SELECT ${COLUMNS},
  toUInt32(intDiv(toUInt32(utime) + {step:UInt32} - 1, {step:UInt32}) * {step:UInt32}) AS at
FROM pool_states FINAL
WHERE utime > toDateTime({first:UInt32}, 'UTC') AND utime <= toDateTime({until:UInt32}, 'UTC')
ORDER BY pool, at, lt DESC
LIMIT 1 BY pool, at`;

const row = stateRow.extend({ pool: str, at: seconds });

export async function selectPoolStateTimeline(
  store: Store,
  q: { first: number; until: number; step: number },
): Promise<PoolStatePoint[]> {
  const [before, within] = await Promise.all([
    store.query(BEFORE_SQL, row, { first: q.first }),
    store.query(WITHIN_SQL, row, q),
  ]);
  return [...before, ...within].map((r) => ({ pool: r.pool, at: r.at, state: poolStateOfColumns(r) }));
}
