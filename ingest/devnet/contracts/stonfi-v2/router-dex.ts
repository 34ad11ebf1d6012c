/**
 * The v2 router's `route_dex_messages` (shared/reference/contracts.md §3.5): checks a swap / cross_swap /
 * provide_lp payload, refunds with the router's inline exit code when a check fails, or forwards the command
 * to the pool, always with the pool's StateInit (§3.2). Used for a `transfer_notification` from one of the
 * router's wallets (§3.4) and for the next hop of a cross_swap chain (§3.6).
 */
import type { Address, Cell } from "@ton/core";
import { STONFI_V2_OP } from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import type { TruthEvent } from "../../chain/truth.ts";
import { ContractThrow, type ExecutionContext, type HandlerResult } from "../../chain/types.ts";
import { encodeStonfiV2ProvideLp, encodeStonfiV2Swap } from "../encode.ts";
import { provideGasMin, swapGasMin, V2_ERROR } from "./constants.ts";
import { carry, isStdWc0, jettonTransferBody } from "./messages.ts";
import { sortTokens, type V2RouterState, v2PoolInit } from "./storage.ts";

export type RouteRequest = {
  state: V2RouterState;
  ctx: ExecutionContext;
  queryId: bigint;
  /** The router wallet that holds `amount` (the notification's sender, or the hop's out token). */
  jettonWallet: Address;
  availableGas: bigint;
  amount: bigint;
  /** The user the amount is credited to (`from_user`, or `original_caller` for a hop). */
  caller: Address | null;
  /** The command cell (first ref of the notification, or the cross_swap payload); null if missing. */
  payload: Cell | null;
};

type Head = {
  op: number;
  tokenWallet1: Address;
  refundAddress: Address;
  excessesAddress: Address;
  deadline: bigint;
};

/** Reads `op token_wallet1 refund excesses tx_deadline`; an error number on failure (§3.5 step 2). */
function parseHead(payload: Cell): Head | number {
  try {
    const s = readCell(payload);
    const op = s.loadUint(32);
    const addrs = [s.loadAddress(), s.loadAddress(), s.loadAddress()] as const;
    if (!addrs.every(isStdWc0)) return V2_ERROR.wrong_workchain;
    return {
      op,
      tokenWallet1: addrs[0],
      refundAddress: addrs[1],
      excessesAddress: addrs[2],
      deadline: s.loadUintBig(64),
    };
  } catch {
    // loading addr_none as a std address, or a short cell, is a cell underflow in TVM
    return V2_ERROR.cell_underflow;
  }
}

const isSwapOp = (op: number) => op === STONFI_V2_OP.swap || op === STONFI_V2_OP.cross_swap;

/** §3.5 step 3, in the contract's order; null when the command may go to the pool. */
function refusal(req: RouteRequest, head: Head): number | null {
  const { state, ctx } = req;
  const swapOp = isSwapOp(head.op);
  if (!swapOp && head.op !== STONFI_V2_OP.provide_lp) return STONFI_EXIT_CODE.transfer_bounce_invalid_request;
  if (req.jettonWallet.equals(head.tokenWallet1)) return STONFI_EXIT_CODE.transfer_bounce_invalid_pool;
  if (state.isLocked) return STONFI_EXIT_CODE.transfer_bounce_locked;
  if (!isStdWc0(req.caller)) return STONFI_EXIT_CODE.transfer_bounce_wrong_wc;
  if (head.deadline <= BigInt(ctx.now)) return STONFI_EXIT_CODE.transfer_bounce_tx_expired;
  const needed = swapOp ? swapGasMin(state.type) : provideGasMin(state.type);
  if (req.availableGas < needed) return STONFI_EXIT_CODE.transfer_bounce_low_gas;
  return null;
}

/** The router's refund: the offered jettons back, forward payload `bit 0 + exit_code` (§3.5). */
function refund(req: RouteRequest, to: Address | null, response: Address | null, exitCode: number) {
  const body = jettonTransferBody({
    queryId: req.queryId,
    amount: req.amount,
    destination: to,
    response,
    forwardTonAmount: 0n,
    forward: { exitCode },
  });
  return carry(req.jettonWallet, body);
}

/** Ground truth of a swap the router refused itself: no pool saw it (dex/classify/rejects.ts). */
function refusedSwap(req: RouteRequest, head: Head, exitCode: number): TruthEvent {
  return {
    type: "swap",
    fields: {
      dex: "v2",
      router: req.ctx.address,
      pool: null,
      query_id: req.queryId,
      sender: req.caller,
      "offer.router_wallet": req.jettonWallet,
      "ask.router_wallet": head.tokenWallet1,
      amount_in: req.amount,
      amount_out: null,
      exit_code: exitCode,
    },
  };
}

function forward(req: RouteRequest, head: Head, payload: Cell) {
  const { state, ctx } = req;
  const init = v2PoolInit(ctx.address, req.jettonWallet, head.tokenWallet1, state.type);
  // §1.2: the amount goes in the amount0 slot iff the offering wallet is token0
  const [token0] = sortTokens(req.jettonWallet, head.tokenWallet1);
  const amounts = token0.equals(req.jettonWallet)
    ? { amount0: req.amount, amount1: 0n }
    : { amount0: 0n, amount1: req.amount };
  const common = { queryId: req.queryId, fromUser: req.caller, ...amounts, dexPayload: payload };
  const body = isSwapOp(head.op)
    ? encodeStonfiV2Swap({ kind: "stonfi.v2.swap", ...common })
    : encodeStonfiV2ProvideLp({ kind: "stonfi.v2.provide_lp", ...common });
  return carry(contractAddressOf(init), body, { init });
}

export function routeDexMessage(req: RouteRequest): HandlerResult<V2RouterState> {
  const { state } = req;
  if (req.amount <= 0n) throw new ContractThrow(V2_ERROR.invalid_amount);
  if (req.payload === null) {
    const exitCode = STONFI_EXIT_CODE.transfer_bounce_invalid_request;
    return { exitCode: 0, state, outMessages: [refund(req, req.caller, req.caller, exitCode)] };
  }
  const head = parseHead(req.payload);
  if (typeof head === "number") {
    return { exitCode: 0, state, outMessages: [refund(req, req.caller, req.caller, head)] };
  }
  const refused = refusal(req, head);
  if (refused === null) return { exitCode: 0, state, outMessages: [forward(req, head, req.payload)] };
  const out = refund(req, head.refundAddress, head.excessesAddress, refused);
  const events = isSwapOp(head.op) ? [refusedSwap(req, head, refused)] : [];
  return { exitCode: 0, state, outMessages: [out], events };
}
