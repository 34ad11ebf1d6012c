/**
 * Value leaving a v2 pool other than by swaps (shared/reference/contracts.md §3.8, burn math §3.9.9 via
 * dex/amm): `burn_notification_ext` from an LP wallet pays both sides in two `pay_to(burn_ok)` (or throws,
 * and the LP wallet restores the balance from the bounce); `cb_refund_me` from an LpAccount pays each
 * non-zero side in a `pay_to(refund_ok)`; `collect_fees` from the protocol-fee address pays the collected
 * fees (exit code 0). Ground truth: `liquidity_withdraw` (burn, lp_refund) on this pool transaction.
 */
import type { Address, Cell } from "@ton/core";
import { burn as ammBurn } from "../../../../dex/amm/index.ts";
import {
  decodeStonfiV2CollectFees,
  type StonfiV2BurnNotificationExt,
  type StonfiV2CbRefundMe,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { readCell } from "../../chain/cell-reader.ts";
import type { TruthEvent } from "../../chain/truth.ts";
import {
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
} from "../../chain/types.ts";
import { burnGasMin, COLLECT_FEES_MIN, V2_ERROR } from "./constants.ts";
import { inboundLeft, message, parseOr9, payToBody, required } from "./messages.ts";
import { ammPool, requireSender, withAmm } from "./pool-amm.ts";
import { type V2PoolState, v2LpAccountAddress, v2LpWalletAddress } from "./storage.ts";

type Result = HandlerResult<V2PoolState>;
type Side = { amount0: bigint; amount1: bigint; payload: Cell | null };

/** One `pay_to` per side; the inbound value is split between them (§3.8: first half, then the rest). */
function payouts(
  state: V2PoolState,
  msg: InboundInternal,
  to: Address,
  queryId: bigint,
  exitCode: number,
  sides: Side[],
): OutgoingMessage[] {
  let left = inboundLeft(msg.value);
  return sides.map((side, i) => {
    const value = i === sides.length - 1 ? left : left / 2n;
    left -= value;
    const body = payToBody({
      queryId,
      to,
      excesses: to,
      originalCaller: to,
      exitCode,
      customPayload: side.payload,
      fwdTonAmount: 0n,
      amount0: side.amount0,
      amount1: side.amount1,
      token0: state.token0,
      token1: state.token1,
    });
    return message(state.router, value, body);
  });
}

/** A burn's custom payload of exactly 2 data bits holds per-side `Maybe ^Cell` payloads (§3.8). */
function splitPayload(custom: Cell | null): [Cell | null, Cell | null] {
  if (custom === null || custom.bits.length !== 2) return [custom, custom];
  const s = readCell(custom);
  return [s.loadMaybeRef(), s.loadMaybeRef()];
}

function withdrawEvent(
  state: V2PoolState,
  ctx: ExecutionContext,
  f: {
    kind: "burn" | "lp_refund";
    owner: Address;
    lp: bigint | null;
    amount0: bigint;
    amount1: bigint;
    queryId: bigint;
  },
): TruthEvent {
  return {
    type: "liquidity_withdraw",
    fields: {
      dex: "v2",
      kind: f.kind,
      pool: ctx.address,
      owner: f.owner,
      lp_amount: f.lp,
      amount0: f.amount0,
      amount1: f.amount1,
      "asset0.router_wallet": state.token0,
      "asset1.router_wallet": state.token1,
      query_id: f.queryId,
    },
  };
}

export function poolBurn(
  state: V2PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV2BurnNotificationExt,
): Result {
  const owner = required(b.from);
  requireSender(msg, v2LpWalletAddress(owner, ctx.address));
  if (b.responseAddress !== null) throw new ContractThrow(V2_ERROR.wrong_address);
  if (state.isLocked) throw new ContractThrow(V2_ERROR.invalid_call);
  if (b.amount <= 0n) throw new ContractThrow(V2_ERROR.zero_output);
  if (b.amount > state.totalSupplyLp) throw new ContractThrow(V2_ERROR.invalid_amount);
  const r = ammBurn(ammPool(state), b.amount);
  if (r.status !== "ok") throw new ContractThrow(r.exitCode);
  if (msg.value <= burnGasMin(state.type)) throw new ContractThrow(V2_ERROR.insufficient_gas);
  const [left, right] = splitPayload(b.customPayload);
  const sides = [
    { amount0: r.amount0Out, amount1: 0n, payload: left },
    { amount0: 0n, amount1: r.amount1Out, payload: right },
  ];
  const event = withdrawEvent(state, ctx, {
    kind: "burn",
    owner,
    lp: b.amount,
    amount0: r.amount0Out,
    amount1: r.amount1Out,
    queryId: b.queryId,
  });
  const outMessages = payouts(state, msg, owner, b.queryId, STONFI_EXIT_CODE.burn_ok, sides);
  return { exitCode: 0, state: withAmm(state, r.pool), outMessages, events: [event] };
}

export function poolCbRefundMe(
  state: V2PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV2CbRefundMe,
): Result {
  const user = required(b.user);
  requireSender(msg, v2LpAccountAddress(user, ctx.address));
  const sides: Side[] = [];
  if (b.totAm0 > 0n) sides.push({ amount0: b.totAm0, amount1: 0n, payload: b.leftPayload });
  if (b.totAm1 > 0n) sides.push({ amount0: 0n, amount1: b.totAm1, payload: b.rightPayload });
  const event = withdrawEvent(state, ctx, {
    kind: "lp_refund",
    owner: user,
    lp: null,
    amount0: b.totAm0,
    amount1: b.totAm1,
    queryId: b.queryId,
  });
  const outMessages = payouts(state, msg, user, b.queryId, STONFI_EXIT_CODE.refund_ok, sides);
  return { exitCode: 0, state, outMessages, events: [event] };
}

/** Only from the protocol-fee address; both counters must be non-zero (§3.8, §8.3). */
export function poolCollectFees(state: V2PoolState, msg: InboundInternal): Result {
  const to = state.protocolFeeAddress;
  if (to === null || !msg.source.equals(to)) throw new ContractThrow(V2_ERROR.invalid_caller);
  // the SDK's body omits both Maybe bits: that is a cell underflow on chain (exit 9)
  const b = parseOr9(() => decodeStonfiV2CollectFees(readCell(msg.body)));
  if (state.collected0 <= 0n || state.collected1 <= 0n) throw new ContractThrow(V2_ERROR.zero_output);
  if (msg.value <= COLLECT_FEES_MIN) throw new ContractThrow(V2_ERROR.insufficient_gas);
  const sides = [
    { amount0: state.collected0, amount1: 0n, payload: b.payload0 },
    { amount0: 0n, amount1: state.collected1, payload: b.payload1 },
  ];
  const outMessages = payouts(state, msg, to, b.queryId, STONFI_EXIT_CODE.ok, sides);
  return { exitCode: 0, state: { ...state, collected0: 0n, collected1: 0n }, outMessages };
}
