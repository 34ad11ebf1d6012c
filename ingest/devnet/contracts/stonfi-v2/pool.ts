/**
 * The devnet STON.fi DEX v2 pool of every router type, also the LP jetton minter
 * (shared/reference/contracts.md §3.1, §3.2, §3.7, §3.8, get-methods §3.10). Message handling lives in
 * ./pool-swap.ts, ./pool-liquidity.ts, ./pool-withdraw.ts and ./pool-admin.ts; this file dispatches by op
 * and answers the get-methods. Bounced messages are ignored.
 */
import { beginCell, type Cell, type Slice, type TupleItem } from "@ton/core";
import { STONFI_V2_OP } from "../../../../dex/codecs/index.ts";
import { preloadOp, readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type GetMethod,
  type HandlerResult,
  type InboundInternal,
} from "../../chain/types.ts";
import {
  decodeStonfiV2BurnNotificationExt,
  decodeStonfiV2CbAddLiquidity,
  decodeStonfiV2CbRefundMe,
  decodeStonfiV2ProvideLp,
  decodeStonfiV2Swap,
} from "../decode.ts";
import { V2_ERROR, V2_LP_WALLET_CODE } from "./constants.ts";
import { argAddress, parseOr9, stackAddress, stackCell, stackInt, stackString } from "./messages.ts";
import { poolSetFees, poolSetParams, poolSetRate, poolUpdateStatus } from "./pool-admin.ts";
import { poolCbAddLiquidity, poolProvide } from "./pool-liquidity.ts";
import { poolSwap } from "./pool-swap.ts";
import { poolBurn, poolCbRefundMe, poolCollectFees } from "./pool-withdraw.ts";
import { poolDataCellWith, type V2PoolState, v2LpAccountAddress, v2LpWalletAddress } from "./storage.ts";

type Result = HandlerResult<V2PoolState>;
type Handler = (state: V2PoolState, msg: InboundInternal, ctx: ExecutionContext) => Result;

/** Decodes the body with `decode` (a failure is a cell underflow) and hands it to `f`. */
const withBody =
  <T>(
    decode: (s: Slice) => T,
    f: (s: V2PoolState, m: InboundInternal, c: ExecutionContext, b: T) => Result,
  ): Handler =>
  (state, msg, ctx) =>
    f(
      state,
      msg,
      ctx,
      parseOr9(() => decode(readCell(msg.body))),
    );

const HANDLERS: Readonly<Record<number, Handler>> = {
  [STONFI_V2_OP.swap]: withBody(decodeStonfiV2Swap, poolSwap),
  [STONFI_V2_OP.provide_lp]: withBody(decodeStonfiV2ProvideLp, poolProvide),
  [STONFI_V2_OP.cb_add_liquidity]: withBody(decodeStonfiV2CbAddLiquidity, poolCbAddLiquidity),
  [STONFI_V2_OP.cb_refund_me]: withBody(decodeStonfiV2CbRefundMe, poolCbRefundMe),
  [STONFI_V2_OP.burn_notification_ext]: withBody(decodeStonfiV2BurnNotificationExt, poolBurn),
  [STONFI_V2_OP.collect_fees]: poolCollectFees,
  [STONFI_V2_OP.internal_set_fees]: poolSetFees,
  [STONFI_V2_OP.internal_set_params]: poolSetParams,
  [STONFI_V2_OP.internal_update_status]: poolUpdateStatus,
  [STONFI_V2_OP.set_rate]: poolSetRate,
};

function receiveInternal(state: V2PoolState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.bounced) return { exitCode: 0, state, outMessages: [] };
  if (msg.body.bits.length < 32) throw new ContractThrow(V2_ERROR.empty_not_allowed);
  const handler = HANDLERS[preloadOp(msg.body)];
  if (handler === undefined) throw new ContractThrow(V2_ERROR.wrong_op);
  return handler(state, msg, ctx);
}

/** The type-specific tail of `get_pool_data` (§3.10). */
function typeTail(s: V2PoolState): TupleItem[] {
  if (s.type === "stableswap") return [stackInt(s.amp)];
  if (s.type === "weighted_const_product") return [stackInt(s.w0)];
  if (s.type === "weighted_stableswap") {
    return [stackInt(s.amp), stackInt(s.rate), stackInt(s.w0), stackAddress(s.rateSetter)];
  }
  return [];
}

/** TEP-64 off-chain content: the STON.fi LP metadata URI of this pool (§3.2). */
function lpContent(pool: { hash: Buffer }): Cell {
  const uri = `https://meta.ston.fi/lp/v1/0:${pool.hash.toString("hex").toUpperCase()}.json`;
  return beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
}

const getMethods: Readonly<Record<string, GetMethod<V2PoolState>>> = {
  get_pool_type: (s) => [stackString(s.type)],
  get_pool_data: (s) => [
    stackInt(s.isLocked),
    stackAddress(s.router),
    stackInt(s.totalSupplyLp),
    stackInt(s.reserve0),
    stackInt(s.reserve1),
    stackAddress(s.token0),
    stackAddress(s.token1),
    stackInt(s.lpFee),
    stackInt(s.protocolFee),
    stackAddress(s.protocolFeeAddress),
    stackInt(s.collected0),
    stackInt(s.collected1),
    ...typeTail(s),
  ],
  get_lp_account_address: (_s, args, ctx) => [
    stackAddress(v2LpAccountAddress(argAddress(args, 0), ctx.address)),
  ],
  get_wallet_address: (_s, args, ctx) => [stackAddress(v2LpWalletAddress(argAddress(args, 0), ctx.address))],
  get_jetton_data: (s, _args, ctx) => [
    stackInt(s.totalSupplyLp),
    stackInt(-1),
    stackAddress(s.router),
    stackCell(lpContent(ctx.address)),
    stackCell(V2_LP_WALLET_CODE),
  ],
};

export const v2PoolHandler: ContractHandler<V2PoolState> = {
  kind: "stonfi-v2/pool",
  receiveInternal,
  stateToCell: (state) => poolDataCellWith(beginFast, state),
  getMethods,
};
