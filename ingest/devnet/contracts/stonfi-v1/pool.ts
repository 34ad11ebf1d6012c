/**
 * STON.fi DEX v1 pool, also the LP jetton minter (contracts.md §2.1, §2.5–§2.10; [v1-src] `pool.func`):
 * dispatch by op and sender, and the get-methods with the exact stacks of §2.10. The operations live in
 * ./pool-swap.ts, ./pool-liquidity.ts and ./pool-admin.ts.
 */
import { beginCell, type TupleItem } from "@ton/core";
import { CURVES, isTvmExit, outputFees } from "../../../../dex/amm/index.ts";
import { mulDiv } from "../../../../dex/amm/math.ts";
import { type Decoded, decodeBody } from "../../../../dex/codecs/index.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type GetMethod,
  type HandlerResult,
  type InboundInternal,
} from "../../chain/types.ts";
import {
  addressArg,
  addressItem,
  cellItem,
  done,
  fail,
  intArg,
  intItem,
  isEmptyBody,
  V1_THROW,
} from "./common.ts";
import {
  poolCollectFromRouter,
  poolCollectPublic,
  poolProvideWalletAddress,
  poolResetGas,
  poolSetFees,
} from "./pool-admin.ts";
import { poolBurn, poolCbAddLiquidity, poolCbRefundMe } from "./pool-liquidity.ts";
import { ammPool, poolProvide, poolSwap } from "./pool-swap.ts";
import { lpAccountInit, lpWalletInit, poolDataCellWith, type V1PoolState } from "./storage.ts";

type Result = HandlerResult<V1PoolState>;

/** `REQUIRED_MIN_LIQUIDITY`: below it `get_expected_outputs` refuses to quote (§2.9). */
const MIN_LIQUIDITY = 1000n;

function fromRouter(state: V1PoolState, msg: InboundInternal, ctx: ExecutionContext, body: Decoded): Result {
  switch (body.kind) {
    case "stonfi.v1.swap":
      return poolSwap(state, msg, ctx, body);
    case "stonfi.v1.provide_lp":
      return poolProvide(state, ctx, body);
    case "stonfi.v1.reset_gas":
      return poolResetGas(state, ctx);
    case "stonfi.v1.collect_fees_pool":
      return poolCollectFromRouter(state, body.queryId);
    case "stonfi.v1.set_fees_pool":
      return poolSetFees(state, body);
    default:
      return fail(body.kind === "malformed" ? V1_THROW.cellUnderflow : V1_THROW.wrongOp);
  }
}

function receive(state: V1PoolState, msg: InboundInternal, ctx: ExecutionContext, body: Decoded): Result {
  switch (body.kind) {
    case "stonfi.v1.burn_notification":
      return poolBurn(state, msg, ctx, body);
    case "stonfi.v1.cb_add_liquidity":
      return poolCbAddLiquidity(state, msg, ctx, body);
    case "stonfi.v1.cb_refund_me":
      return poolCbRefundMe(state, msg, ctx, body);
  }
  if (msg.source.equals(state.router)) return fromRouter(state, msg, ctx, body);
  if (body.kind === "stonfi.v1.collect_fees_pool") return poolCollectPublic(state, msg, body.queryId);
  if (body.kind === "jetton.provide_wallet_address") return poolProvideWalletAddress(state, msg, ctx, body);
  return fail(body.kind === "malformed" ? V1_THROW.cellUnderflow : V1_THROW.wrongOp);
}

/** FunC division by zero (TVM exit 4) in a getter becomes the run's exit code. */
function tvm<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (isTvmExit(error)) throw new ContractThrow(error.exitCode, error.message);
    throw error;
  }
}

/** `https://lp.ston.fi/0:<HEX>.json` as TEP-64 off-chain content (prefix 0x01) (§2.2). */
function lpContent(ctx: { address: { hash: Buffer } }) {
  const uri = `https://lp.ston.fi/0:${ctx.address.hash.toString("hex").toUpperCase()}.json`;
  return beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
}

const getExpectedOutputs: GetMethod<V1PoolState> = (state, args) => {
  const amount = intArg(args, 0);
  const wallet = addressArg(args, 1);
  if (state.totalSupply <= MIN_LIQUIDITY) fail(V1_THROW.noLiquidity);
  // An unknown wallet quotes 0 (the real getter computes nothing for it); never with a referrer.
  const direction = wallet.equals(state.token0) ? "0to1" : wallet.equals(state.token1) ? "1to0" : null;
  if (direction === null) return [intItem(0n), intItem(0n), intItem(0n)];
  const pool = ammPool(state);
  const g = tvm(() =>
    outputFees(CURVES.v1_constant_product.baseOut(pool, direction, amount), pool.protocolFeeBps, 0n),
  );
  return [intItem(g.amountOut < 0n ? 0n : g.amountOut), intItem(g.protocolFeeOut), intItem(g.referralFeeOut)];
};

const getExpectedTokens: GetMethod<V1PoolState> = (state, args) => {
  const [a0, a1] = [intArg(args, 0), intArg(args, 1)];
  const s = state.totalSupply;
  // The later-deposit formula, min(floor(a0·S/r0), floor(a1·S/r1)), even on an empty pool (§2.9).
  const minted = tvm(() => {
    const m0 = mulDiv(a0, s, state.reserve0);
    const m1 = mulDiv(a1, s, state.reserve1);
    return m0 < m1 ? m0 : m1;
  });
  return [intItem(minted)];
};

const getExpectedLiquidity: GetMethod<V1PoolState> = (state, args) => {
  const lp = intArg(args, 0);
  if (lp <= 0n) fail(V1_THROW.zeroOutput);
  const out0 = tvm(() => mulDiv(lp, state.reserve0, state.totalSupply));
  const out1 = tvm(() => mulDiv(lp, state.reserve1, state.totalSupply));
  if (!(out0 > 0n && out1 > 0n)) fail(V1_THROW.zeroOutput);
  return [intItem(out0), intItem(out1)];
};

const getPoolData: GetMethod<V1PoolState> = (s) => [
  intItem(s.reserve0),
  intItem(s.reserve1),
  addressItem(s.token0),
  addressItem(s.token1),
  intItem(s.lpFee),
  intItem(s.protocolFee),
  intItem(s.refFee),
  addressItem(s.protocolFeeAddress),
  intItem(s.collected0),
  intItem(s.collected1),
];

const GET_METHODS: Record<string, GetMethod<V1PoolState>> = {
  get_pool_data: getPoolData,
  get_expected_outputs: getExpectedOutputs,
  get_expected_tokens: getExpectedTokens,
  get_expected_liquidity: getExpectedLiquidity,
  get_lp_account_address: (state, args, ctx): TupleItem[] => {
    const init = lpAccountInit(addressArg(args, 0), ctx.address, state.lpAccountCode);
    return [addressItem(contractAddressOf(init))];
  },
  get_jetton_data: (state, _args, ctx) => [
    intItem(state.totalSupply),
    intItem(-1n),
    addressItem(state.router),
    cellItem(lpContent(ctx)),
    cellItem(state.lpWalletCode),
  ],
  get_wallet_address: (state, args, ctx) => {
    const init = lpWalletInit(addressArg(args, 0), ctx.address, state.lpWalletCode);
    return [addressItem(contractAddressOf(init))];
  },
};

export const v1PoolHandler: ContractHandler<V1PoolState> = {
  kind: "stonfi-v1/pool",
  receiveInternal(state, msg, ctx) {
    // Bounced messages and empty bodies are ignored, as in [v1-src] `pool.func`.
    if (msg.bounced || isEmptyBody(msg.body)) return done(state);
    return receive(state, msg, ctx, decodeBody(msg.body, { dex: "v1" }));
  },
  stateToCell: (state) => poolDataCellWith(beginFast, state),
  getMethods: GET_METHODS,
};
