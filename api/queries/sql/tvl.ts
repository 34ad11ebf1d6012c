/**
 * Pool states at time boundaries for the TVL history (api/queries/tvl.ts), from `pool_states FINAL`: each
 * pool's last state at or before the first boundary, then its last state in each later step (the first
 * boundary at or after the transaction's time: `ceil(utime / step) · step`). Carried forward by the caller.
 */
import { z } from "zod";
import { poolStateOfColumns } from "../../../dex/pool-state-row.ts";
import type { Store } from "../../../infra/store/client.ts";
import { POOL_TYPES } from "../../../schemas/pool-types.ts";
import type { PoolStatePoint } from "../../read-model.ts";
import { big, seconds, str } from "./common.ts";

const COLUMNS = `pool, pool_type, reserve0, reserve1, lp_supply, lp_fee_bps, protocol_fee_bps, ref_fee_bps,
  collected_protocol_fee0, collected_protocol_fee1, is_locked, amp, rate, w0`;

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

const row = z.object({
  pool: str,
  pool_type: z.enum(POOL_TYPES),
  reserve0: big,
  reserve1: big,
  lp_supply: big,
  lp_fee_bps: z.number().int(),
  protocol_fee_bps: z.number().int(),
  ref_fee_bps: z.number().int(),
  collected_protocol_fee0: big,
  collected_protocol_fee1: big,
  is_locked: z.boolean(),
  amp: big,
  rate: big,
  w0: big,
  at: seconds,
});

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
