/**
 * Pools with their current state: `pools` (FINAL, highest version) joined with its router (to name the
 * pTON side TON) and the latest `pool_states` row per pool (`FINAL … ORDER BY pool, lt DESC LIMIT 1 BY
 * pool`: the sorting key is (pool, lt), so a filtered state subquery reads only the selected pools'
 * ranges; listing every pool reads the whole history: see the scaling note in ../../read-model-clickhouse.ts).
 *
 * Every pool the store has a row for is listed (every pool an operation named), with null for what the
 * store does not know: no `pool_states` row (its state is unknown: active before the first transaction
 * indexed), a token whose master is not known yet, a router not revealed. A pair query needs both tokens.
 */
import { z } from "zod";
import type { CurveState, PoolState } from "../../../dex/amm/index.ts";
import { curveStateOfColumns, poolStateOfColumns } from "../../../dex/pool-state-row.ts";
import type { Store } from "../../../infra/store/client.ts";
import { DEX_VERSIONS, POOL_TYPES } from "../../../schemas/facts.ts";
import type { PoolRecord, RawAddress } from "../../read-model.ts";
import { big, nstr, POOLS_WITH_ROUTER, str, tokenAssetSql } from "./common.ts";
import { bool, type Fields, int, oneOf, unsigned } from "./fast-row.ts";

/** Columns of a state row the AMM needs, in the order PoolState names them. */
export const STATE_COLUMNS = `pool_type, reserve0, reserve1, lp_supply, lp_fee_bps, protocol_fee_bps, ref_fee_bps,
  collected_protocol_fee0, collected_protocol_fee1, is_locked, amp, rate, w0`;

export const stateRow = z.object({
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
});

/** A state row's columns → PoolState (the one mapping, dex/pool-state-row.ts). */
export const toPoolState: (s: z.infer<typeof stateRow>) => PoolState = poolStateOfColumns;

/** `stateRow` read by hand (./fast-row.ts) for the wide reads (thousands of states): same checks, same PoolState. */
export const readState = (r: Fields): PoolState =>
  poolStateOfColumns({
    pool_type: oneOf(r, "pool_type", POOL_TYPES),
    reserve0: unsigned(r, "reserve0"),
    reserve1: unsigned(r, "reserve1"),
    lp_supply: unsigned(r, "lp_supply"),
    lp_fee_bps: int(r, "lp_fee_bps"),
    protocol_fee_bps: int(r, "protocol_fee_bps"),
    ref_fee_bps: int(r, "ref_fee_bps"),
    collected_protocol_fee0: unsigned(r, "collected_protocol_fee0"),
    collected_protocol_fee1: unsigned(r, "collected_protocol_fee1"),
    is_locked: bool(r, "is_locked"),
    amp: unsigned(r, "amp"),
    rate: unsigned(r, "rate"),
    w0: unsigned(r, "w0"),
  });

/** Columns of a state row a curve's price needs (dex/amm `CurveState`): what valuation reads. */
export const CURVE_COLUMNS = "pool_type, reserve0, reserve1, amp, rate, w0";

export const readCurveState = (r: Fields): CurveState =>
  curveStateOfColumns({
    pool_type: oneOf(r, "pool_type", POOL_TYPES),
    reserve0: unsigned(r, "reserve0"),
    reserve1: unsigned(r, "reserve1"),
    amp: unsigned(r, "amp"),
    rate: unsigned(r, "rate"),
    w0: unsigned(r, "w0"),
  });

/** A state row of the LEFT JOIN: every column null when the pool has no state (join_use_nulls). */
const maybeState = z.object(
  Object.fromEntries(Object.entries(stateRow.shape).map(([k, v]) => [k, v.nullable()])) as {
    [K in keyof typeof stateRow.shape]: z.ZodNullable<(typeof stateRow.shape)[K]>;
  },
);

const poolRow = maybeState.extend({
  pool: str,
  router: nstr,
  dex: z.enum(DEX_VERSIONS),
  token0: nstr,
  token1: nstr,
  token0_wallet: nstr,
  token1_wallet: nstr,
  state_lt: big.nullable(),
});

/** The state of a joined row, or null when the pool has none (the state columns are all set or all null). */
function stateOf(r: z.infer<typeof poolRow>): PoolState | null {
  const parsed = stateRow.safeParse(r);
  return r.state_lt === null || !parsed.success ? null : toPoolState(parsed.data);
}

/**
 * Which pools: every one, one address, or the pools trading a pair. The pair's pre-filter on the raw
 * masters is a superset (at least one of two different assets is a jetton named by its master); the exact
 * test runs on the resolved tokens.
 */
type Selection = "all" | "address" | "pair";
const PAIR = "(token0_master IN {pair:Array(String)} OR token1_master IN {pair:Array(String)})";
const FILTERS: Record<Selection, { pools: string; states: string; tokens: string }> = {
  all: { pools: "1", states: "1", tokens: "1" },
  address: { pools: "pool = {address:String}", states: "pool = {address:String}", tokens: "1" },
  pair: {
    pools: PAIR,
    states: `pool IN (SELECT pool FROM pools FINAL WHERE ${PAIR})`,
    tokens: `((token0 = {a:String} AND token1 = {b:String}) OR (token0 = {b:String} AND token1 = {a:String}))`,
  },
};

function poolsSql(selection: Selection): string {
  const f = FILTERS[selection];
  return `SELECT pp.pool AS pool, pp.router AS router, pp.dex AS dex, pp.token0 AS token0, pp.token1 AS token1,
  pp.token0_wallet AS token0_wallet, pp.token1_wallet AS token1_wallet, s.lt AS state_lt, ${STATE_COLUMNS}
FROM (
  SELECT p.pool AS pool, p.router AS router, CAST(p.dex AS String) AS dex, p.token0_wallet AS token0_wallet,
    p.token1_wallet AS token1_wallet, ${tokenAssetSql(0)} AS token0, ${tokenAssetSql(1)} AS token1
  FROM ${POOLS_WITH_ROUTER}
  WHERE ${f.pools}
) AS pp
LEFT JOIN (
  SELECT pool, lt, ${STATE_COLUMNS}
  FROM pool_states FINAL
  WHERE ${f.states}
  ORDER BY pool, lt DESC
  LIMIT 1 BY pool
) AS s ON s.pool = pp.pool
WHERE ${f.tokens}
ORDER BY pool
SETTINGS join_use_nulls = 1`;
}

const SQL: Record<Selection, string> = {
  all: poolsSql("all"),
  address: poolsSql("address"),
  pair: poolsSql("pair"),
};

/**
 * Not in the facts: the protocol fee address (a get-method value: null, unknown), the
 * deprecated flag and the USD statistics.
 */
function toPool(r: z.infer<typeof poolRow>): PoolRecord {
  const state = stateOf(r);
  return {
    address: r.pool,
    router: r.router,
    dex: r.dex,
    token0: r.token0,
    token1: r.token1,
    token0Wallet: r.token0_wallet,
    token1Wallet: r.token1_wallet,
    state,
    stateLt: state === null ? null : r.state_lt,
    protocolFeeAddress: null,
    deprecated: false,
  };
}

export async function selectPools(
  store: Store,
  where: { address: RawAddress } | { a: RawAddress; b: RawAddress } | null,
): Promise<PoolRecord[]> {
  if (where === null) return (await store.query(SQL.all, poolRow)).map(toPool);
  if ("address" in where) return (await store.query(SQL.address, poolRow, where)).map(toPool);
  const params = { ...where, pair: [where.a, where.b] };
  return (await store.query(SQL.pair, poolRow, params)).map(toPool);
}
