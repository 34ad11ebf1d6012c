/**
 * STON.fi DEX v1 router (contracts.md §2.1, §2.4–§2.6, §2.10; [v1-src] `router.func`). It trusts whoever
 * sends a `transfer_notification` to be its jetton wallet for that token (as the real router does), routes
 * `swap` / `provide_lp` payloads to the pool of (sender wallet, token_wallet1), refunds refused requests with
 * a jetton transfer carrying `transfer_bounce_*`, and executes the pools' `pay_to`. Admin calls: ./router-admin.ts.
 */
import type { Address, Cell } from "@ton/core";
import {
  type Decoded,
  decodeBody,
  decodeForwardPayload,
  type JettonTransferNotification,
  STONFI_V1_OP,
  type StonfiV1PayTo,
  type StonfiV1SwapPayload,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import { FORWARD_FEE } from "../../chain/fees.ts";
import type { TruthEvent } from "../../chain/truth.ts";
import {
  type ContractHandler,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { encodeStonfiV1ProvideLp, encodeStonfiV1Swap } from "../encode.ts";
import {
  addressArg,
  addressItem,
  cellItem,
  done,
  event,
  exitCodeTransfer,
  fail,
  gasFee,
  intItem,
  isEmptyBody,
  V1_THROW,
} from "./common.ts";
import { routerAdminCall } from "./router-admin.ts";
import {
  orderWallets,
  routerDataCellWith,
  tempUpgradeCell,
  type V1RouterState,
  v1PoolInit,
} from "./storage.ts";

type Result = HandlerResult<V1RouterState>;
type Notification = JettonTransferNotification;

/** Gas units the router's `pay_to` must be able to pay for (§2.6). */
const PAY_TO_GAS = 20_000n;

/** The pool of two router wallets, as this router derives it (§2.2). */
export function poolInitOf(state: V1RouterState, ctx: { address: Address }, a: Address, b: Address) {
  return v1PoolInit({ ...state, address: ctx.address }, a, b);
}

/** The router ignores the Either bit and takes the first ref after `from_user` (§2.4). */
function payloadCell(n: Notification): Cell {
  const p = n.forwardPayload;
  const cell = p === null ? undefined : p.inRef ? p.payload : p.payload.refs[0];
  return cell ?? fail(V1_THROW.cellUnderflow, "transfer_notification without a payload ref");
}

/** `op:uint32 token_wallet1:MsgAddress`, the part every payload op shares, read before any check. */
function payloadHead(cell: Cell): { op: number; tokenWallet1: Address | null } {
  try {
    const s = readCell(cell);
    return { op: s.loadUint(32), tokenWallet1: s.loadMaybeAddress() };
  } catch {
    return fail(V1_THROW.cellUnderflow, "payload too short");
  }
}

function refusal(state: V1RouterState, msg: InboundInternal, tokenWallet1: Address): number | null {
  if (state.isLocked) return STONFI_EXIT_CODE.transfer_bounce_locked;
  // `fwd_fee·6 > msg_value`: the devnet forward fee is flat, so the notification's is FORWARD_FEE.
  if (6n * FORWARD_FEE > msg.value || msg.source.equals(tokenWallet1)) {
    return STONFI_EXIT_CODE.transfer_bounce_invalid_request;
  }
  return null;
}

function refusedSwapEvent(
  ctx: ExecutionContext,
  msg: InboundInternal,
  n: Notification,
  tokenWallet1: Address,
  cell: Cell,
  exitCode: number,
): TruthEvent {
  const payload = decodeForwardPayload(cell, { dex: "v1" });
  return event("swap", {
    dex: "v1",
    router: ctx.address,
    pool: null,
    query_id: n.queryId,
    sender: n.sender,
    "offer.router_wallet": msg.source,
    "ask.router_wallet": tokenWallet1,
    amount_in: n.amount,
    amount_out: null,
    ...(payload.kind === "stonfi.v1.swap_payload" ? { min_out: payload.minOut } : {}),
    referral_fee: null,
    exit_code: exitCode,
  });
}

function routeSwap(
  state: V1RouterState,
  ctx: ExecutionContext,
  msg: InboundInternal,
  n: Notification,
  tokenWallet1: Address,
  p: StonfiV1SwapPayload,
): OutgoingMessage {
  const pool = contractAddressOf(poolInitOf(state, ctx, msg.source, tokenWallet1));
  const body = encodeStonfiV1Swap({
    kind: "stonfi.v1.swap",
    queryId: n.queryId,
    toAddress: p.toAddress,
    senderWallet: msg.source,
    jettonAmount: n.amount,
    minOut: p.minOut,
    hasRef: p.hasRef,
    fromUser: n.sender,
    refAddress: p.hasRef ? p.refAddress : null,
  });
  // No StateInit: a swap into a pool that does not exist bounces, and the router ignores bounces (§2.5).
  return { to: pool, value: 0n, bounce: true, body, mode: SendMode.CARRY_INBOUND_VALUE };
}

function routeProvide(
  state: V1RouterState,
  ctx: ExecutionContext,
  msg: InboundInternal,
  n: Notification,
  tokenWallet1: Address,
  minLpOut: bigint,
): OutgoingMessage {
  const init = poolInitOf(state, ctx, msg.source, tokenWallet1);
  // The deposit goes in the amount0 slot iff the sending wallet is the pool's token0 (§1.2).
  const isToken0 = orderWallets(msg.source, tokenWallet1)[0].equals(msg.source);
  const body = encodeStonfiV1ProvideLp({
    kind: "stonfi.v1.provide_lp",
    queryId: n.queryId,
    owner: n.sender,
    minLpOut,
    amount0: isToken0 ? n.amount : 0n,
    amount1: isToken0 ? 0n : n.amount,
  });
  // With the pool's StateInit: the first deposit deploys the pool (§2.5).
  return {
    to: contractAddressOf(init),
    value: 0n,
    bounce: true,
    body,
    init,
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
}

function notification(
  state: V1RouterState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  n: Notification,
): Result {
  const cell = payloadCell(n);
  if (n.amount <= 0n) fail(V1_THROW.invalidAmount);
  const { op, tokenWallet1 } = payloadHead(cell);
  if (tokenWallet1 === null) return fail(V1_THROW.cellUnderflow, "token_wallet1 is addr_none");
  if (tokenWallet1.workChain !== 0) fail(V1_THROW.wrongWorkchain);
  const refused = refusal(state, msg, tokenWallet1);
  if (refused !== null) {
    const back = exitCodeTransfer(
      msg.source,
      { queryId: n.queryId, amount: n.amount, owner: n.sender, exitCode: refused },
      0n,
      SendMode.CARRY_INBOUND_VALUE,
    );
    const events =
      op === STONFI_V1_OP.swap ? [refusedSwapEvent(ctx, msg, n, tokenWallet1, cell, refused)] : [];
    return done(state, [back], events);
  }
  const payload = decodeForwardPayload(cell, { dex: "v1" });
  if (payload.kind === "malformed") fail(V1_THROW.cellUnderflow, payload.reason);
  if (payload.kind === "stonfi.v1.swap_payload") {
    return done(state, [routeSwap(state, ctx, msg, n, tokenWallet1, payload)]);
  }
  if (payload.kind === "stonfi.v1.provide_lp_payload") {
    return done(state, [routeProvide(state, ctx, msg, n, tokenWallet1, payload.minLpOut)]);
  }
  // An unknown payload op is ignored: the jettons stay with the router (§2.4, §8.9).
  return done(state);
}

/** Pool → router `pay_to` (§2.6): only from the pool of (token0, token1); one transfer per non-zero side. */
function payTo(state: V1RouterState, msg: InboundInternal, ctx: ExecutionContext, p: StonfiV1PayTo): Result {
  const required = gasFee(PAY_TO_GAS);
  if (msg.value <= required) fail(V1_THROW.insufficientGas);
  if (p.token0 === null || p.token1 === null) return fail(V1_THROW.invalidCaller, "pay_to names addr_none");
  const pool = contractAddressOf(poolInitOf(state, ctx, p.token0, p.token1));
  if (!pool.equals(msg.source)) fail(V1_THROW.invalidCaller, "pay_to not from a pool of this router");
  const both = p.amount0Out > 0n && p.amount1Out > 0n;
  const value = both ? (msg.value - required) / 2n : 0n; // floor: both sides get the same half
  const mode = (both ? SendMode.ORDINARY : SendMode.CARRY_INBOUND_VALUE) | SendMode.IGNORE_ERRORS;
  const outs: OutgoingMessage[] = [];
  for (const [amount, wallet] of [
    [p.amount0Out, p.token0],
    [p.amount1Out, p.token1],
  ] as const) {
    if (amount <= 0n) continue;
    const t = { queryId: p.queryId, amount, owner: p.owner, exitCode: p.exitCode };
    outs.push(exitCodeTransfer(wallet, t, value, mode));
  }
  return done(state, outs);
}

function receive(state: V1RouterState, msg: InboundInternal, ctx: ExecutionContext, body: Decoded): Result {
  if (body.kind === "stonfi.v1.pay_to") return payTo(state, msg, ctx, body);
  if (body.kind === "jetton.transfer_notification") return notification(state, msg, ctx, body);
  if (state.admin !== null && msg.source.equals(state.admin)) return routerAdminCall(state, msg, ctx, body);
  if (body.kind === "malformed") fail(V1_THROW.cellUnderflow, body.reason);
  return fail(V1_THROW.wrongOp);
}

export const v1RouterHandler: ContractHandler<V1RouterState> = {
  kind: "stonfi-v1/router",
  receiveInternal(state, msg, ctx) {
    // Bounces (e.g. a swap into a pool that does not exist) are ignored, as are empty bodies (§8.9).
    if (msg.bounced || isEmptyBody(msg.body)) return done(state);
    return receive(state, msg, ctx, decodeBody(msg.body, { dex: "v1" }));
  },
  stateToCell: (state) => routerDataCellWith(beginFast, state),
  getMethods: {
    get_pool_address(state, args, ctx) {
      const a = addressArg(args, 0);
      const b = addressArg(args, 1);
      if (a.equals(b)) fail(V1_THROW.wrongAddress);
      if (a.workChain !== 0 || b.workChain !== 0) fail(V1_THROW.wrongWorkchain);
      return [addressItem(contractAddressOf(poolInitOf(state, ctx, a, b)))];
    },
    get_router_data: (state) => [
      intItem(state.isLocked ? -1n : 0n),
      addressItem(state.admin),
      cellItem(tempUpgradeCell(state.tempUpgrade)),
      cellItem(state.poolCode),
      cellItem(state.lpWalletCode),
      cellItem(state.lpAccountCode),
    ],
  },
};
