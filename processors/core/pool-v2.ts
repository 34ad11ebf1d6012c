/**
 * The DEX v2 pool (every type) as a state machine over its own committed transactions (contracts.md
 * §3.6–§3.9; [v2-src] `pool/msgs/*.fc`, `pool/pools/<type>/ext_router.fc`). The math is dex/amm's; this
 * file maps each inbound message to the engine call and to the messages the pool must send.
 */
import { burn, type PoolState, provide, swap } from "../../dex/amm/index.ts";
import {
  type Decoded,
  decodeForwardPayload,
  type StonfiV2BurnNotificationExt,
  type StonfiV2CbAddLiquidity,
  type StonfiV2CbRefundMe,
  type StonfiV2ProvideLp,
  type StonfiV2Swap,
} from "../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE as EXIT } from "../../dex/exit-codes.ts";
import {
  describe,
  type ModelInput,
  next,
  payTo,
  raw,
  type Step,
  sided,
  type TrackedPool,
  unmodelled,
} from "./pool-types.ts";
import { modelV2Admin } from "./pool-v2-admin.ts";

/** TVM cell underflow: the pool's guard turns a payload that does not parse into this refund code (§3.3). */
const CELL_UNDERFLOW = 9;
/** `wrong_workchain`: receiver or referrer outside workchain 0 (§3.7 step 1). */
const WRONG_WORKCHAIN = 85;

const inWc0 = (a: { workChain: number } | null) => a !== null && a.workChain === 0;

/** §3.7: parse, check addresses, run the engine; pay_vault (referral > 0) then pay_to, or one refund. */
function v2Swap(input: ModelInput, b: StonfiV2Swap): Step {
  const p = input.pool;
  const offer0 = b.amount0 > 0n;
  const amountIn = b.amount0 + b.amount1;
  const offered = sided(offer0, amountIn);
  const payload = decodeForwardPayload(b.dexPayload, { dex: "v2" });
  if (payload.kind !== "stonfi.v2.swap_payload" && payload.kind !== "stonfi.v2.cross_swap_payload") {
    return next(p.state, [payTo(p, undefined, CELL_UNDERFLOW, offered)]);
  }
  const refund = raw(payload.refundAddress);
  // addr_none receiver means from_user (§3.7 step 1)
  const receiver = payload.receiver ?? b.fromUser;
  if (!inWc0(receiver) || (payload.refAddress !== null && payload.refAddress.workChain !== 0)) {
    return next(p.state, [payTo(p, refund, WRONG_WORKCHAIN, offered)]);
  }
  const r = swap(p.state, {
    direction: offer0 ? "0to1" : "1to0",
    amountIn,
    minOut: payload.minOut,
    hasReferral: payload.refAddress !== null,
    refFeeBps: BigInt(payload.refFee),
    deadline: payload.txDeadline,
    now: input.now,
  });
  if (r.status === "refund") return next(p.state, [payTo(p, refund, r.exitCode, offered)]);
  const out = payTo(p, raw(receiver), EXIT.swap_ok, sided(!offer0, r.amountOut));
  if (!r.referralMsgSent) return next(r.pool, [out]);
  const tokens = { token0: p.token0Wallet ?? undefined, token1: p.token1Wallet ?? undefined };
  const vault = { op: "pay_vault" as const, to: raw(payload.refAddress), ...tokens };
  return next(r.pool, [{ ...vault, ...sided(!offer0, r.referralFeeOut) }, out]);
}

/** §3.8: the pool checks the payload, the receiver's workchain and the deadline, then forwards. */
function v2Provide(input: ModelInput, b: StonfiV2ProvideLp): Step {
  const p = input.pool;
  const amounts = { amount0: b.amount0, amount1: b.amount1 };
  const payload = decodeForwardPayload(b.dexPayload, { dex: "v2" });
  if (payload.kind !== "stonfi.v2.provide_lp_payload") {
    return next(p.state, [payTo(p, undefined, CELL_UNDERFLOW, amounts)]);
  }
  const refund = raw(payload.refundAddress);
  if (!inWc0(payload.receiver)) {
    return next(p.state, [payTo(p, refund, EXIT.provide_refund_wrong_workchain, amounts)]);
  }
  if (payload.txDeadline <= input.now) {
    return next(p.state, [payTo(p, refund, EXIT.provide_refund_tx_expired, amounts)]);
  }
  return next(p.state, [{ op: "add_liquidity", ...amounts, minLpOut: payload.minLpOut }]);
}

/**
 * §3.8, §3.9.8: mint for the LpAccount's totals (one side 0 = single-sided), or hand both amounts to the
 * refund address's LpAccount with min_lp_out 0. The pool mints only a positive amount ≥ min_lp_out.
 */
function v2Mint(p: TrackedPool, b: StonfiV2CbAddLiquidity): Step {
  const back = { op: "add_liquidity" as const, amount0: b.totAm0, amount1: b.totAm1, minLpOut: 0n };
  if (b.totAm0 === 0n && b.totAm1 === 0n) return next(p.state, [back]);
  const r = provide(p.state, {
    amount0: b.totAm0,
    amount1: b.totAm1,
    minLpOut: b.minLpOut > 0n ? b.minLpOut : 1n,
    bothPositive: b.totAm0 > 0n && b.totAm1 > 0n,
  });
  if (r.status === "stored") return unmodelled("cb_add_liquidity the engine says the LpAccount keeps");
  if (r.status === "refunded") return next(p.state, [back]);
  return next(r.pool, [{ op: "mint", amount0: r.lpMinted, amount1: 0n }]);
}

/** §3.8, §3.9.9: two `pay_to(burn_ok)` to the owner, token0's side first. */
function v2Burn(p: TrackedPool, b: StonfiV2BurnNotificationExt): Step {
  if (b.amount <= 0n || b.amount > p.state.lpSupply) {
    return { kind: "diverged", expected: "burn fails (amount out of range)", actual: "committed" };
  }
  const r = burn(p.state, b.amount);
  if (r.status !== "ok") {
    return { kind: "diverged", expected: `burn fails with ${r.exitCode}`, actual: "committed" };
  }
  const owner = raw(b.from);
  const first = payTo(p, owner, EXIT.burn_ok, sided(true, r.amount0Out));
  return next(r.pool, [first, payTo(p, owner, EXIT.burn_ok, sided(false, r.amount1Out))]);
}

/** §3.8: one `pay_to(refund_ok)` per non-zero side; the pool's state is untouched. */
function v2RefundMe(p: TrackedPool, b: StonfiV2CbRefundMe): Step {
  const user = raw(b.user);
  const sides = [sided(true, b.totAm0), sided(false, b.totAm1)].filter((s) => s.amount0 + s.amount1 > 0n);
  return next(
    p.state,
    sides.map((s) => payTo(p, user, EXIT.refund_ok, s)),
  );
}

/** §3.8: only the protocol-fee address may collect; two `pay_to` (exit 0), counters zeroed. */
function v2Collect(input: ModelInput): Step {
  const { pool: p, source } = input;
  const s = p.state;
  const state: PoolState = { ...s, collectedProtocolFee0: 0n, collectedProtocolFee1: 0n };
  const first = payTo(p, source, 0, sided(true, s.collectedProtocolFee0));
  return next(state, [first, payTo(p, source, 0, sided(false, s.collectedProtocolFee1))]);
}

export function modelV2(input: ModelInput, body: Decoded): Step {
  const p = input.pool;
  switch (body.kind) {
    case "stonfi.v2.swap":
      return v2Swap(input, body);
    case "stonfi.v2.provide_lp":
      return v2Provide(input, body);
    case "stonfi.v2.cb_add_liquidity":
      return v2Mint(p, body);
    case "stonfi.v2.cb_refund_me":
      return v2RefundMe(p, body);
    case "stonfi.v2.burn_notification_ext":
      return v2Burn(p, body);
    case "stonfi.v2.collect_fees":
      return v2Collect(input);
  }
  return modelV2Admin(input, body) ?? unmodelled(`v2 pool accepted ${describe(body)}`);
}
