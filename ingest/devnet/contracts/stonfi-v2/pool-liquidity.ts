/**
 * A v2 pool's side of adding liquidity (shared/reference/contracts.md §3.8, math §3.9.8 via dex/amm):
 * `provide_lp` from the router is checked and forwarded to the user's LpAccount (`add_liquidity`, with its
 * StateInit) or refunded by `pay_to`; `cb_add_liquidity` from an LpAccount mints LP to the receiver's LP
 * wallet (with its StateInit), or hands the amounts back to the refund address's LpAccount when the mint
 * fails. Ground truth: `liquidity_provide` and `liquidity_mint` on this (the pool's) transaction.
 */
import { type Address, beginCell, type Cell } from "@ton/core";
import { provide as ammProvide } from "../../../../dex/amm/index.ts";
import type {
  StonfiV2CbAddLiquidity,
  StonfiV2ProvideLp,
  StonfiV2ProvideLpPayload,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import type { TruthEvent } from "../../chain/truth.ts";
import type { ExecutionContext, HandlerResult, InboundInternal } from "../../chain/types.ts";
import { decodeStonfiV2ProvideLpPayload } from "../decode.ts";
import { encodeJettonInternalTransfer, encodeStonfiV2AddLiquidity } from "../encode.ts";
import { MINT_KEEP, V2_ERROR } from "./constants.ts";
import { carry, inboundLeft, isStdWc0, message, parseOr9, payToBody, required } from "./messages.ts";
import { ammPool, requireSender, withAmm } from "./pool-amm.ts";
import { type V2PoolState, v2LpAccountAddress, v2LpAccountInit, v2LpWalletInit } from "./storage.ts";

type Result = HandlerResult<V2PoolState>;

function decodePayload(cell: Cell): StonfiV2ProvideLpPayload | null {
  try {
    return decodeStonfiV2ProvideLpPayload(readCell(cell));
  } catch {
    return null;
  }
}

function provideEvent(
  state: V2PoolState,
  ctx: ExecutionContext,
  b: StonfiV2ProvideLp,
  extra: { lpAccount: Address | null; minLpOut: bigint | null; exitCode: number | null },
): TruthEvent {
  return {
    type: "liquidity_provide",
    fields: {
      dex: "v2",
      router: state.router,
      pool: ctx.address,
      sender: b.fromUser,
      lp_account: extra.lpAccount,
      amount0: b.amount0,
      amount1: b.amount1,
      "asset0.router_wallet": state.token0,
      "asset1.router_wallet": state.token1,
      ...(extra.minLpOut === null ? {} : { min_lp_out: extra.minLpOut }),
      query_id: b.queryId,
      exit_code: extra.exitCode,
      success: extra.exitCode === null,
    },
  };
}

/** A refused provide goes back through the router as a `pay_to` of the provided amount (§3.8). */
function provideRefund(
  state: V2PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV2ProvideLp,
  p: StonfiV2ProvideLpPayload | null,
  exitCode: number,
): Result {
  const head =
    p ??
    parseOr9(() => {
      const s = readCell(b.dexPayload);
      s.skip(32);
      s.loadAddress();
      return { refundAddress: s.loadAddress(), excessesAddress: s.loadAddress() };
    });
  const body = payToBody({
    queryId: b.queryId,
    to: head.refundAddress,
    excesses: head.excessesAddress,
    originalCaller: b.fromUser,
    exitCode,
    customPayload: null,
    fwdTonAmount: 0n,
    amount0: b.amount0,
    amount1: b.amount1,
    token0: state.token0,
    token1: state.token1,
  });
  const events = [provideEvent(state, ctx, b, { lpAccount: null, minLpOut: p?.minLpOut ?? null, exitCode })];
  return { exitCode: 0, state, outMessages: [message(msg.source, inboundLeft(msg.value), body)], events };
}

export function poolProvide(
  state: V2PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV2ProvideLp,
): Result {
  requireSender(msg, state.router);
  const p = decodePayload(b.dexPayload);
  if (p === null) return provideRefund(state, msg, ctx, b, null, V2_ERROR.cell_underflow);
  if (!isStdWc0(p.receiver)) {
    return provideRefund(state, msg, ctx, b, p, STONFI_EXIT_CODE.provide_refund_wrong_workchain);
  }
  if (p.txDeadline <= BigInt(ctx.now)) {
    return provideRefund(state, msg, ctx, b, p, STONFI_EXIT_CODE.provide_refund_tx_expired);
  }
  const user = required(b.fromUser);
  const init = v2LpAccountInit(user, ctx.address);
  const body = encodeStonfiV2AddLiquidity({
    kind: "stonfi.v2.add_liquidity",
    queryId: b.queryId,
    newAmount0: b.amount0,
    newAmount1: b.amount1,
    minLpOut: p.minLpOut,
    fwdAmount: p.fwdGas,
    bothPositive: p.bothPositive,
    toUser: p.receiver,
    customPayload: p.customPayload,
    refundAddress: p.refundAddress,
    excessAddress: p.excessesAddress,
  });
  const lpAccount = contractAddressOf(init);
  const events = [provideEvent(state, ctx, b, { lpAccount, minLpOut: p.minLpOut, exitCode: null })];
  return { exitCode: 0, state, outMessages: [carry(lpAccount, body, { init })], events };
}

/** What the pool mints for (tot0, tot1): the engine's "max LP mint" with its refund rules (§3.9.8). */
function mintOf(state: V2PoolState, tot0: bigint, tot1: bigint, minLpOut: bigint) {
  if (tot0 === 0n && tot1 === 0n) return null;
  const r = ammProvide(ammPool(state), {
    amount0: tot0,
    amount1: tot1,
    // the pool mints iff liquidity ≥ min_lp_out and > 0; the engine models the latter with min 1
    minLpOut: minLpOut > 0n ? minLpOut : 1n,
    // one side only is a single-sided deposit; the LpAccount already decided to call the pool
    bothPositive: tot0 > 0n && tot1 > 0n,
  });
  return r.status === "minted" ? { lp: r.lpMinted, pool: withAmm(state, r.pool) } : null;
}

function mintMessage(
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV2CbAddLiquidity,
  user: Address,
  lp: bigint,
) {
  const receiver = b.toUser ?? user;
  const init = v2LpWalletInit(receiver, ctx.address);
  // the notification amount is dropped when the rest of the value cannot pay it (§3.8)
  const fwd = msg.value - MINT_KEEP - b.fwdAmount > 0n ? b.fwdAmount : 0n;
  const body = encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId: b.queryId,
    amount: lp,
    from: user,
    responseAddress: b.excessAddress,
    forwardTonAmount: fwd,
    forwardPayload: b.customPayload
      ? { inRef: true, payload: b.customPayload }
      : { inRef: false, payload: beginCell().endCell() },
  });
  return carry(contractAddressOf(init), body, { init });
}

/** Failed mint: the amounts become a refundable balance of the refund address's LpAccount (§3.8). */
function mintFailedMessage(ctx: ExecutionContext, b: StonfiV2CbAddLiquidity, user: Address) {
  const init = v2LpAccountInit(b.refundAddress ?? user, ctx.address);
  const body = encodeStonfiV2AddLiquidity({
    kind: "stonfi.v2.add_liquidity",
    queryId: b.queryId,
    newAmount0: b.totAm0,
    newAmount1: b.totAm1,
    minLpOut: 0n,
    fwdAmount: 0n,
    bothPositive: true,
    toUser: null,
    customPayload: null,
    refundAddress: null,
    excessAddress: b.excessAddress,
  });
  return carry(contractAddressOf(init), body, { init });
}

export function poolCbAddLiquidity(
  state: V2PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV2CbAddLiquidity,
): Result {
  const user = required(b.user);
  requireSender(msg, v2LpAccountAddress(user, ctx.address));
  const minted = mintOf(state, b.totAm0, b.totAm1, b.minLpOut);
  const event: TruthEvent = {
    type: "liquidity_mint",
    fields: {
      dex: "v2",
      pool: ctx.address,
      user,
      receiver: b.toUser ?? user,
      amount0: b.totAm0,
      amount1: b.totAm1,
      lp_amount: minted?.lp ?? null,
      query_id: b.queryId,
      success: minted !== null,
    },
  };
  if (minted === null) {
    return { exitCode: 0, state, outMessages: [mintFailedMessage(ctx, b, user)], events: [event] };
  }
  const out = mintMessage(msg, ctx, b, user, minted.lp);
  return { exitCode: 0, state: minted.pool, outMessages: [out], events: [event] };
}
