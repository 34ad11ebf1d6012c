/**
 * Answer one AMM case (schemas/amm-case.ts) with the engine and render every field the vectors'
 * `expected` has for that kind, as decimal strings (vectors/amm/FORMAT.md §3–§5). Pure.
 *
 * Not produced: `contract_probes` (how many sandbox executions the vector generator's search used —
 * a property of that test driver, not of the math).
 */
import type { AmmCase, BurnCase, ProvideCase, ReverseCase, SwapCase } from "../../schemas/amm-case.ts";
import { describeExitCode } from "../exit-codes.ts";
import { burn, provide } from "./liquidity.ts";
import { bisectionMissesMinimum, OutputNotReachableError, reverseSwap } from "./reverse.ts";
import { swap } from "./swap.ts";
import { dexVersionOf, type PoolState, poolState } from "./types.ts";

export type CaseOutput = Record<string, string | boolean | null>;

/** Block time the vectors were executed at (FORMAT.md §2); swap deadlines are relative to it. */
export const VECTOR_NOW = 1700000000n;
const DEFAULT_DEADLINE_OFFSET = 3600n;

function poolOf(c: SwapCase | ReverseCase | ProvideCase | BurnCase): PoolState {
  const p = c.params;
  const n = (v: string | undefined) => BigInt(v ?? "0");
  const v1 = dexVersionOf(c.pool_type) === "v1";
  return poolState({
    type: c.pool_type,
    reserve0: n(p.reserve0),
    reserve1: n(p.reserve1),
    lpSupply: n(p.lp_supply),
    lpFeeBps: n(p.lp_fee_bps),
    protocolFeeBps: n(p.protocol_fee_bps),
    // v1: the pool's stored referral fee; v2 takes it per swap, so the pool holds none.
    refFeeBps: v1 ? n(p.ref_fee_bps) : 0n,
    collectedProtocolFee0: n(p.collected_protocol_fee0),
    collectedProtocolFee1: n(p.collected_protocol_fee1),
    isLocked: p.is_locked ?? false,
    amp: n(p.amp),
    rate: n(p.rate),
    w0: n(p.w0),
  });
}

function stateFields(pool: PoolState, withRate: boolean): CaseOutput {
  const out: CaseOutput = {
    new_reserve0: String(pool.reserve0),
    new_reserve1: String(pool.reserve1),
    new_protocol_fee0: String(pool.collectedProtocolFee0),
    new_protocol_fee1: String(pool.collectedProtocolFee1),
    new_lp_supply: String(pool.lpSupply),
  };
  if (withRate) out.new_rate = String(pool.rate);
  return out;
}

function runSwap(c: SwapCase): CaseOutput {
  const pool = poolOf(c);
  const r = swap(pool, {
    direction: c.direction,
    amountIn: BigInt(c.amount_in),
    minOut: BigInt(c.min_out),
    hasReferral: c.has_referral,
    refFeeBps: BigInt(c.params.ref_fee_bps ?? "0"),
    deadline:
      VECTOR_NOW +
      (c.tx_deadline_offset === undefined ? DEFAULT_DEADLINE_OFFSET : BigInt(c.tx_deadline_offset)),
    now: VECTOR_NOW,
  });
  const out: CaseOutput = {
    status: r.status,
    exit_code: String(r.exitCode),
    exit_name: describeExitCode(r.exitCode, dexVersionOf(pool.type)).name,
    amount_out: String(r.amountOut),
    protocol_fee_out: String(r.protocolFeeOut),
    referral_fee_out: String(r.referralFeeOut),
    referral_msg_sent: r.referralMsgSent,
    ...stateFields(r.pool, false),
  };
  if (r.status === "ok") out.base_out = String(r.baseOut);
  else out.refund_amount = String(r.refundAmount);
  return out;
}

function runReverse(c: ReverseCase): CaseOutput {
  const pool = poolOf(c);
  const req = {
    direction: c.direction,
    targetOut: BigInt(c.target_out),
    hasReferral: c.has_referral,
    refFeeBps: BigInt(c.params.ref_fee_bps ?? "0"),
  };
  try {
    const r = reverseSwap(pool, req);
    return {
      feasible: true,
      min_amount_in: String(r.amountIn),
      amount_out_at_min: String(r.swap.amountOut),
      base_out_at_min: String(r.swap.baseOut),
      amount_out_at_min_minus_1:
        r.amountOutAtAmountInMinus1 === null ? null : String(r.amountOutAtAmountInMinus1),
      fee_rounding_hole: bisectionMissesMinimum(pool, req, r.amountIn),
    };
  } catch (e) {
    if (!(e instanceof OutputNotReachableError)) throw e;
    return {
      feasible: false,
      max_amount_in: String(e.maxAmountIn),
      amount_out_at_max_amount_in: String(e.amountOutAtMaxAmountIn),
    };
  }
}

function runProvide(c: ProvideCase, pool: PoolState): CaseOutput {
  const r = provide(pool, {
    amount0: BigInt(c.amount0),
    amount1: BigInt(c.amount1),
    minLpOut: BigInt(c.min_lp_out),
    bothPositive: c.both_positive,
  });
  const out: CaseOutput = { status: r.status, lp_minted: String(r.lpMinted) };
  if (r.lpMintedTo !== null) out.lp_minted_to = r.lpMintedTo;
  if (r.poolReceived !== null) {
    out.pool_received_amount0 = String(r.poolReceived[0]);
    out.pool_received_amount1 = String(r.poolReceived[1]);
  }
  if (r.refunded !== null) {
    out.refunded_amount0 = String(r.refunded[0]);
    out.refunded_amount1 = String(r.refunded[1]);
  }
  out.lp_account_amount0 = String(r.lpAccount[0]);
  out.lp_account_amount1 = String(r.lpAccount[1]);
  out.protocol_fee0_charged = String(r.protocolFeeCharged[0]);
  out.protocol_fee1_charged = String(r.protocolFeeCharged[1]);
  return { ...out, ...stateFields(r.pool, pool.type === "v2_weighted_stableswap") };
}

function runBurn(c: BurnCase, pool: PoolState): CaseOutput {
  const r = burn(pool, BigInt(c.lp_amount));
  const out: CaseOutput = {
    status: r.status,
    exit_code: String(r.exitCode),
    amount0_out: String(r.amount0Out),
    amount1_out: String(r.amount1Out),
  };
  if (r.status === "ok") out.payout_messages = String(r.payoutMessages);
  return { ...out, ...stateFields(r.pool, pool.type === "v2_weighted_stableswap") };
}

/** Throws `AmmInputError` for cases the contracts could never see (zero amounts, fees out of range). */
export function runAmmCase(c: AmmCase): CaseOutput {
  switch (c.kind) {
    case "swap":
      return runSwap(c.value);
    case "reverse":
      return runReverse(c.value);
    case "liquidity":
      return c.value.op === "provide"
        ? runProvide(c.value, poolOf(c.value))
        : runBurn(c.value, poolOf(c.value));
  }
}

/** Fields of `expected` that differ from `actual` (`contract_probes` is not a math outcome). */
export function diffCase(
  expected: Record<string, unknown>,
  actual: CaseOutput,
): { field: string; expected: unknown; actual: unknown }[] {
  const diffs: { field: string; expected: unknown; actual: unknown }[] = [];
  for (const [field, want] of Object.entries(expected)) {
    if (field === "contract_probes") continue;
    const got = actual[field];
    if (got !== want) diffs.push({ field, expected: want, actual: got === undefined ? "(missing)" : got });
  }
  return diffs;
}
