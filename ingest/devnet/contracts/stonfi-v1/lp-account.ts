/**
 * STON.fi DEX v1 LpAccount (contracts.md §2.7, §2.10; [v1-src] `lp_account.func`): one per (user, pool).
 * It accumulates both sides of a deposit and asks the pool to mint once both exceed 1000 units; the user can
 * take the stored amounts back (`refund_me`), mint from them directly (`direct_add_liquidity`) or recover
 * spare TON (`reset_gas`). Messages from anyone else are refused.
 */
import { V1_MIN_SIDE } from "../../../../dex/amm/liquidity.ts";
import { type Decoded, decodeBody } from "../../../../dex/codecs/index.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import {
  type ContractHandler,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { encodeStonfiV1CbAddLiquidity, encodeStonfiV1CbRefundMe } from "../encode.ts";
import {
  addressItem,
  done,
  drainMessage,
  fail,
  intItem,
  isEmptyBody,
  POOL_TON_RESERVE,
  V1_THROW,
} from "./common.ts";
import { lpAccountDataCellWith, type V1LpAccountState } from "./storage.ts";

type Result = HandlerResult<V1LpAccountState>;

function cbAddLiquidity(s: V1LpAccountState, queryId: bigint, a0: bigint, a1: bigint, minLpOut: bigint) {
  return encodeStonfiV1CbAddLiquidity({
    kind: "stonfi.v1.cb_add_liquidity",
    queryId,
    totAm0: a0,
    totAm1: a1,
    user: s.user,
    minLpOut,
  });
}

const toPool = (s: V1LpAccountState, body: OutgoingMessage["body"], mode: number): OutgoingMessage => ({
  to: s.pool,
  value: 0n,
  bounce: true,
  body,
  mode,
});

function fromPool(state: V1LpAccountState, body: Decoded): Result {
  if (body.kind !== "stonfi.v1.add_liquidity") return fail(V1_THROW.wrongOp);
  const next = {
    ...state,
    amount0: state.amount0 + body.newAmount0,
    amount1: state.amount1 + body.newAmount1,
  };
  // min_lp_out 0 (a failed mint coming back) only stores; otherwise mint once both sides are large enough.
  if (body.minLpOut === 0n || !(next.amount0 > V1_MIN_SIDE && next.amount1 > V1_MIN_SIDE)) return done(next);
  const cb = cbAddLiquidity(state, body.queryId, next.amount0, next.amount1, body.minLpOut);
  // Mode 128: the LpAccount hands all its TON to the pool with the deposit (`send_payload`).
  return done({ ...next, amount0: 0n, amount1: 0n }, [toPool(state, cb, SendMode.CARRY_ALL_BALANCE)]);
}

function fromUser(state: V1LpAccountState, ctx: ExecutionContext, body: Decoded): Result {
  switch (body.kind) {
    case "stonfi.v1.refund_me": {
      if (!(state.amount0 > 0n || state.amount1 > 0n)) fail(V1_THROW.noLiquidity, "nothing to refund");
      const cb = encodeStonfiV1CbRefundMe({
        kind: "stonfi.v1.cb_refund_me",
        queryId: body.queryId,
        totAm0: state.amount0,
        totAm1: state.amount1,
        user: state.user,
      });
      const out = toPool(state, cb, SendMode.CARRY_INBOUND_VALUE);
      return done({ ...state, amount0: 0n, amount1: 0n }, [out]);
    }
    case "stonfi.v1.direct_add_liquidity": {
      const { amount0: a0, amount1: a1, minLpOut } = body;
      if (!(minLpOut !== 0n && a0 > V1_MIN_SIDE && a1 > V1_MIN_SIDE)) fail(V1_THROW.zeroOutput);
      const next = { ...state, amount0: state.amount0 - a0, amount1: state.amount1 - a1 };
      if (next.amount0 < 0n || next.amount1 < 0n) fail(V1_THROW.noLiquidity, "more than the stored amounts");
      const cb = cbAddLiquidity(state, body.queryId, a0, a1, minLpOut);
      return done(next, [toPool(state, cb, SendMode.CARRY_INBOUND_VALUE)]);
    }
    case "stonfi.v1.reset_gas":
      if (ctx.balance <= POOL_TON_RESERVE) fail(V1_THROW.insufficientGas);
      return done(state, [drainMessage(state.user, ctx.balance, POOL_TON_RESERVE)]);
    default:
      return fail(body.kind === "malformed" ? V1_THROW.cellUnderflow : V1_THROW.wrongOp);
  }
}

function receive(state: V1LpAccountState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const body = decodeBody(msg.body, { dex: "v1" });
  if (msg.source.equals(state.pool)) return fromPool(state, body);
  if (msg.source.equals(state.user)) return fromUser(state, ctx, body);
  return fail(V1_THROW.wrongOp);
}

export const v1LpAccountHandler: ContractHandler<V1LpAccountState> = {
  kind: "stonfi-v1/lp_account",
  receiveInternal(state, msg, ctx) {
    if (msg.bounced || isEmptyBody(msg.body)) return done(state);
    return receive(state, msg, ctx);
  },
  stateToCell: (state) => lpAccountDataCellWith(beginFast, state),
  getMethods: {
    get_lp_account_data: (s) => [
      addressItem(s.user),
      addressItem(s.pool),
      intItem(s.amount0),
      intItem(s.amount1),
    ],
  },
};
