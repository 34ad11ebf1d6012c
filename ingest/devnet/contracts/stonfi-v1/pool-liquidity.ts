/**
 * v1 pool liquidity: `cb_add_liquidity` (mint, first mint locked to addr_none's LP wallet), `cb_refund_me`
 * and LP burns through `burn_notification` (contracts.md §2.7, §2.9; [v1-src] `pool.func`). The math is
 * dex/amm's `provide` and `burn`.
 */
import { type Address, Cell } from "@ton/core";
import { burn, provide } from "../../../../dex/amm/index.ts";
import type {
  StonfiV1BurnNotification,
  StonfiV1CbAddLiquidity,
  StonfiV1CbRefundMe,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import { FORWARD_FEE } from "../../chain/fees.ts";
import {
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { encodeJettonExcesses, encodeJettonInternalTransfer, encodeStonfiV1AddLiquidity } from "../encode.ts";
import { done, event, fail, gasFee, payToMessage, V1_THROW } from "./common.ts";
import { ammPool, fromAmm, poolPayTo } from "./pool-swap.ts";
import { lpAccountInit, lpWalletInit, type V1PoolState } from "./storage.ts";

type Result = HandlerResult<V1PoolState>;

/** Gas units a burn must cover before the pool splits the rest (§2.7). */
const BURN_GAS = 25_000n;

/** The LpAccount of `user` is the only contract whose callbacks a pool accepts for that user. */
function requireLpAccount(
  state: V1PoolState,
  ctx: ExecutionContext,
  msg: InboundInternal,
  user: Address | null,
) {
  if (user === null) return fail(V1_THROW.invalidCaller, "user is addr_none");
  const init = lpAccountInit(user, ctx.address, state.lpAccountCode);
  if (!contractAddressOf(init).equals(msg.source)) fail(V1_THROW.invalidCaller, "not the user's LpAccount");
  return { user, init };
}

/** Pool → LP wallet mint: an `internal_transfer` with the wallet's StateInit (§2.7). */
function mintMessage(
  state: V1PoolState,
  ctx: ExecutionContext,
  queryId: bigint,
  to: Address | null,
  amount: bigint,
) {
  const init = lpWalletInit(to, ctx.address, state.lpWalletCode);
  const body = encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId,
    amount,
    from: ctx.address,
    responseAddress: to,
    forwardTonAmount: 0n,
    forwardPayload: { inRef: false, payload: Cell.EMPTY },
  });
  const out: OutgoingMessage = {
    to: contractAddressOf(init),
    value: 0n,
    bounce: true,
    body,
    init,
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  return out;
}

export function poolCbAddLiquidity(
  state: V1PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV1CbAddLiquidity,
): Result {
  const { user, init } = requireLpAccount(state, ctx, msg, b.user);
  const r = provide(ammPool(state), { amount0: b.totAm0, amount1: b.totAm1, minLpOut: b.minLpOut });
  const fields = {
    dex: "v1",
    pool: ctx.address,
    user,
    amount0: b.totAm0,
    amount1: b.totAm1,
    query_id: b.queryId,
  };
  if (r.status !== "minted") {
    // Too little LP or a reserve out of range: both amounts go back to the LpAccount with min_lp_out 0
    // (so it stores them instead of calling again), with its StateInit in case it is gone (§2.7).
    const body = encodeStonfiV1AddLiquidity({
      kind: "stonfi.v1.add_liquidity",
      queryId: b.queryId,
      newAmount0: b.totAm0,
      newAmount1: b.totAm1,
      minLpOut: 0n,
    });
    const mode = SendMode.CARRY_INBOUND_VALUE | SendMode.IGNORE_ERRORS;
    const back: OutgoingMessage = { to: msg.source, value: 0n, bounce: true, body, init, mode };
    return done(state, [back], [event("liquidity_mint", { ...fields, lp_amount: null, success: false })]);
  }
  // The first deposit is minted to addr_none's LP wallet and locked for good (§2.9).
  const to = r.lpMintedTo === "addr_none" ? null : user;
  const minted = event("liquidity_mint", { ...fields, receiver: to, lp_amount: r.lpMinted, success: true });
  return done(fromAmm(state, r.pool), [mintMessage(state, ctx, b.queryId, to, r.lpMinted)], [minted]);
}

export function poolCbRefundMe(
  state: V1PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV1CbRefundMe,
): Result {
  const { user } = requireLpAccount(state, ctx, msg, b.user);
  const p = poolPayTo(state, b.queryId, user, STONFI_EXIT_CODE.refund_ok, [b.totAm0, b.totAm1]);
  const refunded = event("liquidity_withdraw", {
    dex: "v1",
    kind: "lp_refund",
    pool: ctx.address,
    owner: user,
    lp_amount: null,
    amount0: b.totAm0,
    amount1: b.totAm1,
    "asset0.router_wallet": state.token0,
    "asset1.router_wallet": state.token1,
    query_id: b.queryId,
  });
  return done(state, [payToMessage(state.router, p, 0n, SendMode.CARRY_INBOUND_VALUE)], [refunded]);
}

function burnChecks(
  state: V1PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV1BurnNotification,
) {
  const required = gasFee(BURN_GAS);
  // `msg_value > 6·fwd_fee`: the devnet's forward fee is the flat FORWARD_FEE.
  if (!(msg.value > required && msg.value > 6n * FORWARD_FEE)) fail(V1_THROW.insufficientGas);
  if (b.from === null) return fail(V1_THROW.invalidCaller, "burn from addr_none");
  const wallet = contractAddressOf(lpWalletInit(b.from, ctx.address, state.lpWalletCode));
  if (!wallet.equals(msg.source)) fail(V1_THROW.invalidCaller, "not the owner's LP wallet");
  if (b.amount <= 0n) fail(V1_THROW.zeroOutput);
  // More than the supply would drive the reserves negative, which store_coins rejects.
  if (b.amount > state.totalSupply) fail(V1_THROW.integerOutOfRange, "burn above the LP supply");
  return { from: b.from, required };
}

export function poolBurn(
  state: V1PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: StonfiV1BurnNotification,
): Result {
  const { from, required } = burnChecks(state, msg, ctx, b);
  const r = burn(ammPool(state), b.amount);
  if (r.status !== "ok") return fail(r.exitCode);
  const p = poolPayTo(state, b.queryId, from, STONFI_EXIT_CODE.burn_ok, [r.amount0Out, r.amount1Out]);
  const outs: OutgoingMessage[] = [];
  if (b.responseAddress === null) {
    outs.push(payToMessage(state.router, p, 0n, SendMode.CARRY_INBOUND_VALUE));
  } else {
    // Half of what is left after the gas goes back as excesses, half pays the router (§2.7).
    const half = (msg.value - required) / 2n; // floor; positive after burnChecks
    const excesses = encodeJettonExcesses({ kind: "jetton.excesses", queryId: b.queryId });
    const mode = SendMode.IGNORE_ERRORS;
    outs.push({ to: b.responseAddress, value: half, bounce: false, body: excesses, mode });
    outs.push(payToMessage(state.router, p, half, SendMode.ORDINARY));
  }
  const burned = event("liquidity_withdraw", {
    dex: "v1",
    kind: "burn",
    pool: ctx.address,
    owner: from,
    lp_amount: b.amount,
    amount0: r.amount0Out,
    amount1: r.amount1Out,
    "asset0.router_wallet": state.token0,
    "asset1.router_wallet": state.token1,
    query_id: b.queryId,
  });
  return done(fromAmm(state, r.pool), outs, [burned]);
}
