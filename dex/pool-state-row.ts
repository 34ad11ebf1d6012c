/**
 * The one mapping between the AMM engine's `PoolState` and the state columns of a `pool_states` row
 * (schemas/facts.ts): the processors write rows with it, restart from them, and the API reads the store's
 * rows and the hot cache's entries back with it.
 */
import type { PoolStateRow } from "../schemas/facts.ts";
import type { CurveState, PoolState } from "./amm/types.ts";

/** The columns of a `pool_states` row that hold the state (the rest place it: pool, lt, tx, time). */
export type PoolStateColumns = Pick<
  PoolStateRow,
  | "pool_type"
  | "reserve0"
  | "reserve1"
  | "lp_supply"
  | "lp_fee_bps"
  | "protocol_fee_bps"
  | "ref_fee_bps"
  | "collected_protocol_fee0"
  | "collected_protocol_fee1"
  | "is_locked"
  | "amp"
  | "rate"
  | "w0"
>;

export function poolStateOfColumns(r: PoolStateColumns): PoolState {
  return {
    type: r.pool_type,
    reserve0: r.reserve0,
    reserve1: r.reserve1,
    lpSupply: r.lp_supply,
    lpFeeBps: BigInt(r.lp_fee_bps),
    protocolFeeBps: BigInt(r.protocol_fee_bps),
    refFeeBps: BigInt(r.ref_fee_bps),
    collectedProtocolFee0: r.collected_protocol_fee0,
    collectedProtocolFee1: r.collected_protocol_fee1,
    isLocked: r.is_locked,
    amp: r.amp,
    rate: r.rate,
    w0: r.w0,
  };
}

/** The columns of a curve's state (`CurveState`): what valuation reads of a row. */
export type CurveStateColumns = Pick<
  PoolStateColumns,
  "pool_type" | "reserve0" | "reserve1" | "amp" | "rate" | "w0"
>;

export function curveStateOfColumns(r: CurveStateColumns): CurveState {
  return {
    type: r.pool_type,
    reserve0: r.reserve0,
    reserve1: r.reserve1,
    amp: r.amp,
    rate: r.rate,
    w0: r.w0,
  };
}

export function poolStateColumns(s: PoolState): PoolStateColumns {
  return {
    pool_type: s.type,
    reserve0: s.reserve0,
    reserve1: s.reserve1,
    lp_supply: s.lpSupply,
    lp_fee_bps: Number(s.lpFeeBps),
    protocol_fee_bps: Number(s.protocolFeeBps),
    ref_fee_bps: Number(s.refFeeBps),
    collected_protocol_fee0: s.collectedProtocolFee0,
    collected_protocol_fee1: s.collectedProtocolFee1,
    is_locked: s.isLocked,
    amp: s.amp,
    rate: s.rate,
    w0: s.w0,
  };
}
