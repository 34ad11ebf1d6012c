/**
 * A v2 pool's `swap` (shared/reference/contracts.md §3.7): parse the user's payload, run the exact swap of
 * dex/amm (§3.9, referral 0..100 bps on the ask side), then either `pay_vault` (referral > 0) + `pay_to`
 * (swap_ok) to the receiver, or a `pay_to` refund of the offered amount with the refund code. The state is
 * saved only on success. Ground truth: one `swap` event on this (the pool's) transaction.
 */
import type { Address, Cell } from "@ton/core";
import { swap as ammSwap, type SwapResult } from "../../../../dex/amm/index.ts";
import { STONFI_V2_OP, type StonfiV2Swap, type StonfiV2SwapPayload } from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import type { TruthEvent, TruthValue } from "../../chain/truth.ts";
import {
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
} from "../../chain/types.ts";
import { decodeStonfiV2CrossSwapPayload, decodeStonfiV2SwapPayload } from "../decode.ts";
import { encodeStonfiV2PayVault } from "../encode.ts";
import { PAY_VAULT_VALUE, V2_ERROR } from "./constants.ts";
import { inboundLeft, isStdWc0, message, parseOr9, payToBody } from "./messages.ts";
import { ammPool, requireSender, withAmm } from "./pool-amm.ts";
import type { V2PoolState } from "./storage.ts";

type Payload = Omit<StonfiV2SwapPayload, "kind">;
type Leg = {
  state: V2PoolState;
  msg: InboundInternal;
  ctx: ExecutionContext;
  body: StonfiV2Swap;
  amountIn: bigint;
  zeroIn: boolean;
};
type Outcome = { exitCode: number; amountOut: bigint | null; referralFee: bigint; payload: Payload | null };

/** The swap (or cross_swap) payload, closed layout; null when it does not parse (§3.7 step 1). */
function decodePayload(cell: Cell): Payload | null {
  try {
    const s = readCell(cell);
    return s.preloadUint(32) === STONFI_V2_OP.cross_swap
      ? decodeStonfiV2CrossSwapPayload(s)
      : decodeStonfiV2SwapPayload(s);
  } catch {
    return null;
  }
}

/** Refund and excesses addresses of a payload that failed to parse (the router already checked them). */
function payloadHead(cell: Cell): { refund: Address; excesses: Address } {
  return parseOr9(() => {
    const s = readCell(cell);
    s.skip(32);
    s.loadAddress();
    return { refund: s.loadAddress(), excesses: s.loadAddress() };
  });
}

const sideAmounts = (zeroSide: boolean, amount: bigint) =>
  zeroSide ? { amount0: amount, amount1: 0n } : { amount0: 0n, amount1: amount };

/**
 * `pay_to` of the offered amount back to the refund address. A failure while parsing (§3.7 step 1) refunds
 * with no payload and no forward amount; a refused swap (step 3) with the payload's refund_payload and gas.
 */
function refundMessage(leg: Leg, exitCode: number, p: Payload | null, parseStage: boolean): OutgoingMessage {
  const head = p
    ? { refund: p.refundAddress, excesses: p.excessesAddress }
    : payloadHead(leg.body.dexPayload);
  const body = payToBody({
    queryId: leg.body.queryId,
    to: head.refund,
    excesses: head.excesses,
    originalCaller: leg.body.fromUser,
    exitCode,
    customPayload: parseStage ? null : (p?.refundPayload ?? null),
    fwdTonAmount: parseStage ? 0n : (p?.refundFwdGas ?? 0n),
    ...sideAmounts(leg.zeroIn, leg.amountIn),
    token0: leg.state.token0,
    token1: leg.state.token1,
  });
  return message(leg.msg.source, inboundLeft(leg.msg.value), body);
}

function successMessages(leg: Leg, p: Payload, receiver: Address, r: SwapResult): OutgoingMessage[] {
  const { state, body, msg } = leg;
  const out: OutgoingMessage[] = [];
  if (r.referralMsgSent && p.refAddress !== null) {
    const ref = sideAmounts(!leg.zeroIn, r.referralFeeOut);
    const vault = encodeStonfiV2PayVault({
      kind: "stonfi.v2.pay_vault",
      queryId: body.queryId,
      owner: p.refAddress,
      excessesAddress: p.excessesAddress,
      amount0Out: ref.amount0,
      token0: state.token0,
      amount1Out: ref.amount1,
      token1: state.token1,
    });
    out.push(message(msg.source, PAY_VAULT_VALUE, vault));
  }
  const payTo = payToBody({
    queryId: body.queryId,
    to: receiver,
    excesses: p.excessesAddress,
    originalCaller: body.fromUser,
    exitCode: r.exitCode,
    customPayload: p.customPayload,
    fwdTonAmount: p.fwdGas,
    ...sideAmounts(!leg.zeroIn, r.amountOut),
    token0: state.token0,
    token1: state.token1,
  });
  out.push(message(msg.source, inboundLeft(msg.value, ...out.map((m) => m.value)), payTo));
  return out;
}

function swapEvent(leg: Leg, receiver: Address | null, o: Outcome): TruthEvent {
  const { state, body, zeroIn } = leg;
  const p = o.payload;
  // a payload that did not parse tells nothing about slippage or referral
  const known: Record<string, TruthValue> = p
    ? { min_out: p.minOut, referrer: p.refAddress, referral_fee: p.refAddress ? o.referralFee : null }
    : {};
  return {
    type: "swap",
    fields: {
      dex: "v2",
      router: state.router,
      pool: leg.ctx.address,
      query_id: body.queryId,
      sender: body.fromUser,
      receiver,
      "offer.router_wallet": zeroIn ? state.token0 : state.token1,
      "ask.router_wallet": zeroIn ? state.token1 : state.token0,
      amount_in: leg.amountIn,
      amount_out: o.amountOut,
      exit_code: o.exitCode,
      ...known,
    },
  };
}

function refunded(
  leg: Leg,
  exitCode: number,
  p: Payload | null,
  receiver: Address | null,
  parseStage = false,
) {
  const outcome = { exitCode, amountOut: null, referralFee: 0n, payload: p };
  return {
    exitCode: 0,
    state: leg.state,
    outMessages: [refundMessage(leg, exitCode, p, parseStage)],
    events: [swapEvent(leg, receiver, outcome)],
  };
}

export function poolSwap(
  state: V2PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  body: StonfiV2Swap,
): HandlerResult<V2PoolState> {
  requireSender(msg, state.router);
  const amountIn = body.amount0 + body.amount1;
  const leg: Leg = { state, msg, ctx, body, amountIn, zeroIn: body.amount0 > 0n };
  // the router never routes 0 (it throws 92 first, §3.5 step 1)
  if (amountIn <= 0n) throw new ContractThrow(V2_ERROR.invalid_amount);
  const p = decodePayload(body.dexPayload);
  if (p === null) return refunded(leg, V2_ERROR.cell_underflow, null, body.fromUser, true);
  // §3.7 step 1: addr_none receiver means from_user; receiver and referrer must be in workchain 0
  const receiver = p.receiver ?? body.fromUser;
  if (!isStdWc0(receiver) || (p.refAddress !== null && p.refAddress.workChain !== 0)) {
    return refunded(leg, V2_ERROR.wrong_workchain, p, receiver, true);
  }
  const r = ammSwap(ammPool(state), {
    direction: leg.zeroIn ? "0to1" : "1to0",
    amountIn,
    minOut: p.minOut,
    hasReferral: p.refAddress !== null,
    refFeeBps: BigInt(p.refFee),
    deadline: p.txDeadline,
    now: BigInt(ctx.now),
  });
  if (r.status === "refund") return refunded(leg, r.exitCode, p, receiver);
  const outcome = { exitCode: r.exitCode, amountOut: r.amountOut, referralFee: r.referralFeeOut, payload: p };
  return {
    exitCode: 0,
    state: withAmm(state, r.pool),
    outMessages: successMessages(leg, p, receiver, r),
    events: [swapEvent(leg, receiver, outcome)],
  };
}
