/**
 * The devnet STON.fi v2 LpAccount, one per (user, pool) (shared/reference/contracts.md §3.1, §3.2, §3.8):
 * accumulates `add_liquidity` deposits from its pool and calls `cb_add_liquidity` with the totals when
 * `min_lp_out > 0` and both sides (or, with `both_positive = 0`, either side) are non-zero; `refund_me`
 * returns the balances through `cb_refund_me`; `direct_add_liquidity` mints from stored balances. It
 * self-destructs (mode 128+32) whenever it forwards everything; see `V2LpAccountState.destroyed`.
 */
import { type Address, Cell } from "@ton/core";
import { decodeStonfiV2RefundMe, STONFI_V2_OP } from "../../../../dex/codecs/index.ts";
import { preloadOp, readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { COMPUTE_FEE, FORWARD_FEE } from "../../chain/fees.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { decodeStonfiV2AddLiquidity, decodeStonfiV2DirectAddLiquidity } from "../decode.ts";
import { encodeStonfiV2CbAddLiquidity, encodeStonfiV2CbRefundMe } from "../encode.ts";
import { ACCOUNT_GONE, DIRECT_ADD_MIN, LP_ACCOUNT_KEEP, REFUND_ME_MIN, V2_ERROR } from "./constants.ts";
import { carry, excesses, isStdWc0, message, parseOr9, stackAddress, stackInt } from "./messages.ts";
import { lpAccountDataCellWith, type V2LpAccountState } from "./storage.ts";

type Result = HandlerResult<V2LpAccountState>;

/** Everything the account holds goes with the message: mode 128 (+32 destroy, see the header). */
const sendAll = (to: Address, body: Cell): OutgoingMessage =>
  message(to, 0n, body, { mode: SendMode.CARRY_ALL_BALANCE });

const emptied = (s: V2LpAccountState): V2LpAccountState => ({
  ...s,
  amount0: 0n,
  amount1: 0n,
  destroyed: true,
});

function onAddLiquidity(state: V2LpAccountState, msg: InboundInternal): Result {
  if (!msg.source.equals(state.pool)) throw new ContractThrow(V2_ERROR.invalid_caller);
  const b = parseOr9(() => decodeStonfiV2AddLiquidity(readCell(msg.body)));
  const a0 = state.amount0 + b.newAmount0;
  const a1 = state.amount1 + b.newAmount1;
  const mint = b.minLpOut > 0n && (b.bothPositive ? a0 > 0n && a1 > 0n : a0 + a1 > 0n);
  if (!mint) {
    const outMessages = b.excessAddress ? [excesses(b.excessAddress, b.queryId)] : [];
    return { exitCode: 0, state: { ...state, amount0: a0, amount1: a1 }, outMessages };
  }
  const body = encodeStonfiV2CbAddLiquidity({
    kind: "stonfi.v2.cb_add_liquidity",
    queryId: b.queryId,
    totAm0: a0,
    totAm1: a1,
    user: state.user,
    minLpOut: b.minLpOut,
    fwdAmount: b.fwdAmount,
    customPayload: b.customPayload,
    toUser: b.toUser,
    refundAddress: b.refundAddress,
    excessAddress: b.excessAddress,
  });
  return { exitCode: 0, state: emptied(state), outMessages: [sendAll(state.pool, body)] };
}

function onRefundMe(state: V2LpAccountState, msg: InboundInternal): Result {
  if (!msg.source.equals(state.user)) throw new ContractThrow(V2_ERROR.invalid_caller);
  const b = parseOr9(() => decodeStonfiV2RefundMe(readCell(msg.body)));
  if (state.amount0 === 0n && state.amount1 === 0n) throw new ContractThrow(V2_ERROR.no_liquidity);
  if (msg.value <= REFUND_ME_MIN) throw new ContractThrow(V2_ERROR.insufficient_gas);
  const body = encodeStonfiV2CbRefundMe({
    kind: "stonfi.v2.cb_refund_me",
    queryId: b.queryId,
    totAm0: state.amount0,
    totAm1: state.amount1,
    user: state.user,
    leftPayload: b.leftPayload,
    rightPayload: b.rightPayload,
  });
  return { exitCode: 0, state: emptied(state), outMessages: [sendAll(state.pool, body)] };
}

function onDirectAdd(state: V2LpAccountState, msg: InboundInternal): Result {
  if (!msg.source.equals(state.user)) throw new ContractThrow(V2_ERROR.invalid_caller);
  const b = parseOr9(() => decodeStonfiV2DirectAddLiquidity(readCell(msg.body)));
  if (msg.value <= DIRECT_ADD_MIN) throw new ContractThrow(V2_ERROR.insufficient_gas);
  if (![b.toUser, b.refundAddress, b.excessAddress].every(isStdWc0))
    throw new ContractThrow(V2_ERROR.wrong_address);
  // 0 means "the whole stored balance" of that side
  const am0 = b.am0 === 0n ? state.amount0 : b.am0;
  const am1 = b.am1 === 0n ? state.amount1 : b.am1;
  if (b.minLpOut <= 0n || am0 <= 0n || am1 <= 0n) throw new ContractThrow(V2_ERROR.zero_output);
  if (am0 > state.amount0 || am1 > state.amount1) throw new ContractThrow(V2_ERROR.no_liquidity);
  const body = encodeStonfiV2CbAddLiquidity({
    kind: "stonfi.v2.cb_add_liquidity",
    queryId: b.queryId,
    totAm0: am0,
    totAm1: am1,
    user: state.user,
    minLpOut: b.minLpOut,
    fwdAmount: b.fwdAmount,
    customPayload: b.customPayload,
    toUser: b.toUser,
    refundAddress: b.refundAddress,
    excessAddress: b.excessAddress,
  });
  const next = { ...state, amount0: state.amount0 - am0, amount1: state.amount1 - am1 };
  return { exitCode: 0, state: next, outMessages: [carry(state.pool, body)] };
}

/** Keeps 0.001 TON, the rest of the balance goes to the user (empty body). */
function onResetGas(state: V2LpAccountState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (!msg.source.equals(state.user)) throw new ContractThrow(V2_ERROR.invalid_caller);
  const value = ctx.balance - COMPUTE_FEE - LP_ACCOUNT_KEEP;
  const outMessages = value > FORWARD_FEE ? [message(state.user, value, Cell.EMPTY, { bounce: false })] : [];
  return { exitCode: 0, state, outMessages };
}

type Handler = (state: V2LpAccountState, msg: InboundInternal, ctx: ExecutionContext) => Result;

const HANDLERS: Readonly<Record<number, Handler>> = {
  [STONFI_V2_OP.add_liquidity]: onAddLiquidity,
  [STONFI_V2_OP.refund_me]: onRefundMe,
  [STONFI_V2_OP.direct_add_liquidity]: onDirectAdd,
  [STONFI_V2_OP.reset_gas]: onResetGas,
};

function receiveInternal(state: V2LpAccountState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.bounced) return { exitCode: 0, state, outMessages: [] };
  // a destroyed LpAccount comes back only through a message carrying its StateInit (all zero balances)
  if (state.destroyed && msg.init === undefined) throw new ContractThrow(ACCOUNT_GONE);
  const live = state.destroyed ? { ...state, destroyed: false } : state;
  if (msg.body.bits.length < 32) throw new ContractThrow(V2_ERROR.empty_not_allowed);
  const handler = HANDLERS[preloadOp(msg.body)];
  if (handler === undefined) throw new ContractThrow(V2_ERROR.wrong_op);
  return handler(live, msg, ctx);
}

export const v2LpAccountHandler: ContractHandler<V2LpAccountState> = {
  kind: "stonfi-v2/lp_account",
  receiveInternal,
  stateToCell: (state) => lpAccountDataCellWith(beginFast, state),
  getMethods: {
    get_lp_account_data: (s) => {
      if (s.destroyed) throw new ContractThrow(ACCOUNT_GONE);
      return [stackAddress(s.user), stackAddress(s.pool), stackInt(s.amount0), stackInt(s.amount1)];
    },
  },
};
