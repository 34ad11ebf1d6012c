/**
 * Router → v1 pool `swap` and `provide_lp` (contracts.md §2.5, §2.6, §2.9; [v1-src] `pool/router-calls.func`).
 * The math and the acceptance rules are dex/amm's `swap` (v1 constant product, strict `out > min_out`); this
 * file only turns its result into `pay_to` messages and ground-truth events.
 */
import type { Address } from "@ton/core";
import { type PoolState, poolState, type SwapResult, swap } from "../../../../dex/amm/index.ts";
import type { StonfiV1ProvideLp, StonfiV1Swap } from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import type { TruthEvent } from "../../chain/truth.ts";
import {
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { encodeStonfiV1AddLiquidity } from "../encode.ts";
import { done, event, fail, gasFee, type PayTo, payToMessage, V1_THROW } from "./common.ts";
import { lpAccountInit, type V1PoolState } from "./storage.ts";

type Result = HandlerResult<V1PoolState>;

/** Gas units a swap with a referrer keeps before splitting the rest between its two `pay_to` (§2.9). */
const REF_SWAP_GAS = 25_000n;

/** The pool as dex/amm sees it. */
export function ammPool(p: V1PoolState): PoolState {
  return poolState({
    type: "v1_constant_product",
    reserve0: p.reserve0,
    reserve1: p.reserve1,
    lpSupply: p.totalSupply,
    lpFeeBps: BigInt(p.lpFee),
    protocolFeeBps: BigInt(p.protocolFee),
    refFeeBps: BigInt(p.refFee),
    collectedProtocolFee0: p.collected0,
    collectedProtocolFee1: p.collected1,
  });
}

/** Writes the numbers dex/amm changed back into the pool's storage. */
export function fromAmm(p: V1PoolState, a: PoolState): V1PoolState {
  return {
    ...p,
    reserve0: a.reserve0,
    reserve1: a.reserve1,
    totalSupply: a.lpSupply,
    collected0: a.collectedProtocolFee0,
    collected1: a.collectedProtocolFee1,
  };
}

/** `[amount0, amount1]` with `amount` on token0's side when `onToken0`. */
const sided = (onToken0: boolean, amount: bigint): [bigint, bigint] =>
  onToken0 ? [amount, 0n] : [0n, amount];

type Trade = { sw: StonfiV1Swap; offerIs0: boolean; offer: Address; ask: Address };

function swapEvent(state: V1PoolState, ctx: ExecutionContext, t: Trade, r: SwapResult): TruthEvent {
  const ok = r.status === "ok";
  return event("swap", {
    dex: "v1",
    router: state.router,
    pool: ctx.address,
    query_id: t.sw.queryId,
    sender: t.sw.fromUser,
    receiver: t.sw.toAddress,
    "offer.router_wallet": t.offer,
    "ask.router_wallet": t.ask,
    amount_in: t.sw.jettonAmount,
    amount_out: ok ? r.amountOut : null,
    min_out: t.sw.minOut,
    referral_fee: ok && t.sw.hasRef ? r.referralFeeOut : null,
    referrer: t.sw.hasRef ? t.sw.refAddress : null,
    exit_code: r.exitCode,
  });
}

function referralEvent(state: V1PoolState, ctx: ExecutionContext, t: Trade, r: SwapResult): TruthEvent {
  return event("referral_payment", {
    dex: "v1",
    router: state.router,
    pool: ctx.address,
    referrer: t.sw.refAddress,
    "asset.router_wallet": t.ask,
    amount: r.referralFeeOut,
    query_id: t.sw.queryId,
  });
}

/** A `pay_to` naming this pool's two wallets (the router derives the pool from them, §2.6). */
export function poolPayTo(
  state: V1PoolState,
  queryId: bigint,
  owner: Address | null,
  exitCode: number,
  [amount0Out, amount1Out]: readonly [bigint, bigint],
): PayTo {
  return { queryId, owner, exitCode, amount0Out, token0: state.token0, amount1Out, token1: state.token1 };
}

/** The real pool charges nothing for a zero offer: it refunds it like an empty pool (§2.9). */
function simulate(state: V1PoolState, t: Trade): SwapResult {
  if (t.sw.jettonAmount <= 0n) {
    const pool = ammPool(state);
    const zero = { amountOut: 0n, protocolFeeOut: 0n, referralFeeOut: 0n, baseOut: 0n };
    return {
      status: "refund",
      exitCode: STONFI_EXIT_CODE.swap_refund_no_liq,
      ...zero,
      referralMsgSent: false,
      refundAmount: 0n,
      pool,
    };
  }
  const direction = t.offerIs0 ? "0to1" : "1to0";
  return swap(ammPool(state), {
    direction,
    amountIn: t.sw.jettonAmount,
    minOut: t.sw.minOut,
    hasReferral: t.sw.hasRef,
  });
}

export function poolSwap(
  state: V1PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  sw: StonfiV1Swap,
): Result {
  // Any wallet other than token0 is taken as token1, as the real pool does; the router only sends its own.
  const offerIs0 = sw.senderWallet?.equals(state.token0) === true;
  const t: Trade = {
    sw,
    offerIs0,
    offer: offerIs0 ? state.token0 : state.token1,
    ask: offerIs0 ? state.token1 : state.token0,
  };
  const r = simulate(state, t);
  const events = [swapEvent(state, ctx, t, r)];
  if (r.status === "refund") {
    // The refund goes to from_user (the original sender), not to the receiver (§2.9).
    const refund = poolPayTo(state, sw.queryId, sw.fromUser, r.exitCode, sided(offerIs0, sw.jettonAmount));
    return done(state, [payToMessage(state.router, refund, 0n, SendMode.CARRY_INBOUND_VALUE)], events);
  }
  const main = poolPayTo(state, sw.queryId, sw.toAddress, r.exitCode, sided(!offerIs0, r.amountOut));
  const next = fromAmm(state, r.pool);
  if (!sw.hasRef)
    return done(next, [payToMessage(state.router, main, 0n, SendMode.CARRY_INBOUND_VALUE)], events);
  // With a referrer the pool splits what is left after its gas between the two pay_to, the referral one
  // first, even when it pays 0 (§2.9, §11.2). A negative half fails like FunC's store_coins.
  const rest = msg.value - gasFee(REF_SWAP_GAS);
  if (rest < 0n) fail(V1_THROW.integerOutOfRange, "not enough TON to split between referral and output");
  const half = rest / 2n; // floor
  const refAmounts = sided(!offerIs0, r.referralFeeOut);
  const ref = poolPayTo(state, sw.queryId, sw.refAddress, STONFI_EXIT_CODE.swap_ok_ref, refAmounts);
  const outs: OutgoingMessage[] = [
    payToMessage(state.router, ref, half, SendMode.ORDINARY | SendMode.IGNORE_ERRORS),
    payToMessage(state.router, main, half, SendMode.ORDINARY),
  ];
  return done(next, outs, [...events, referralEvent(state, ctx, t, r)]);
}

/** `provide_lp`: forwards the deposit to the user's LpAccount, deploying it if needed (§2.7). */
export function poolProvide(state: V1PoolState, ctx: ExecutionContext, p: StonfiV1ProvideLp): Result {
  if (p.owner === null) return fail(V1_THROW.cellUnderflow, "provide_lp owner is addr_none");
  const init = lpAccountInit(p.owner, ctx.address, state.lpAccountCode);
  const lpAccount = contractAddressOf(init);
  const body = encodeStonfiV1AddLiquidity({
    kind: "stonfi.v1.add_liquidity",
    queryId: p.queryId,
    newAmount0: p.amount0,
    newAmount1: p.amount1,
    minLpOut: p.minLpOut,
  });
  const out: OutgoingMessage = {
    to: lpAccount,
    value: 0n,
    bounce: true,
    body,
    init,
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  const provided = event("liquidity_provide", {
    dex: "v1",
    router: state.router,
    pool: ctx.address,
    sender: p.owner,
    lp_account: lpAccount,
    amount0: p.amount0,
    amount1: p.amount1,
    "asset0.router_wallet": state.token0,
    "asset1.router_wallet": state.token1,
    min_lp_out: p.minLpOut,
    query_id: p.queryId,
    exit_code: null,
  });
  return done(state, [out], [provided]);
}
