/**
 * v1 pool governance and service calls (contracts.md §2.8, §2.3; [v1-src] `pool/router-calls.func`,
 * `pool.func`, `pool/getter.func`): `set_fees` and `collect_fees` / `reset_gas` from the router, the public
 * rewarded `collect_fees`, and TEP-89 `provide_wallet_address` (the pool is the LP jetton minter).
 */
import type { Address } from "@ton/core";
import { MAX_POOL_FEE_BPS } from "../../../../dex/amm/index.ts";
import type { JettonProvideWalletAddress, StonfiV1SetFeesPool } from "../../../../dex/codecs/index.ts";
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
import { encodeJettonTakeWalletAddress } from "../encode.ts";
import { done, drainMessage, fail, gasFee, POOL_TON_RESERVE, payToMessage, V1_THROW } from "./common.ts";
import { poolPayTo } from "./pool-swap.ts";
import { HOLE_ADDRESS, lpWalletInit, type V1PoolState } from "./storage.ts";

type Result = HandlerResult<V1PoolState>;

/** `REQUIRED_MIN_LIQUIDITY` and `REQUIRED_MIN_COLLECT_FEES` of [v1-src] `pool/params.func`. */
const MIN_LIQUIDITY = 1000n;
const MIN_COLLECT_FEES = 1_000_000n;
const PUBLIC_COLLECT_GAS = 40_000n;
const ONE_TON = 1_000_000_000n;
/** `PROVIDE_ADD_GAS_CONSUMPTION`: what a TEP-89 reply must leave room for. */
const DISCOVERY_GAS = 10_000_000n;

export function poolSetFees(state: V1PoolState, b: StonfiV1SetFeesPool): Result {
  for (const fee of [b.lpFee, b.protocolFee, b.refFee]) {
    if (fee < 0 || BigInt(fee) > MAX_POOL_FEE_BPS) fail(V1_THROW.feeOutOfRange);
  }
  const { lpFee, protocolFee, refFee, protocolFeeAddress } = b;
  return done({ ...state, lpFee, protocolFee, refFee, protocolFeeAddress });
}

const isHole = (a: Address | null) => a?.equals(HOLE_ADDRESS) === true;

/** Router-forwarded `collect_fees`: every collected protocol fee to protocol_fee_address (exit code 0). */
export function poolCollectFromRouter(state: V1PoolState, queryId: bigint): Result {
  if (!(state.collected0 > 0n && state.collected1 > 0n)) fail(V1_THROW.noLiquidity, "nothing collected");
  if (isHole(state.protocolFeeAddress)) fail(V1_THROW.invalidRecipient);
  const amounts = [state.collected0, state.collected1] as const;
  const p = poolPayTo(state, queryId, state.protocolFeeAddress, STONFI_EXIT_CODE.ok, amounts);
  const out = payToMessage(state.router, p, 0n, SendMode.CARRY_INBOUND_VALUE);
  return done({ ...state, collected0: 0n, collected1: 0n }, [out]);
}

/** Anyone's `collect_fees`: the caller earns 0.1% of each side for paying the gas (§2.8). */
export function poolCollectPublic(state: V1PoolState, msg: InboundInternal, queryId: bigint): Result {
  if (state.totalSupply <= MIN_LIQUIDITY) fail(V1_THROW.noLiquidity);
  if (!(state.collected0 > MIN_COLLECT_FEES && state.collected1 > MIN_COLLECT_FEES))
    fail(V1_THROW.lowLiquidity);
  if (isHole(state.protocolFeeAddress)) fail(V1_THROW.invalidRecipient);
  const required = gasFee(PUBLIC_COLLECT_GAS);
  if (msg.value - required <= ONE_TON) fail(V1_THROW.insufficientGas);
  const quarter = (msg.value - required) / 4n; // floor
  const reward0 = state.collected0 / 1000n; // floor
  const reward1 = state.collected1 / 1000n; // floor
  const rest0 = state.collected0 - reward0;
  const rest1 = state.collected1 - reward1;
  if (!(reward0 > 0n && reward1 > 0n && rest0 > 0n && rest1 > 0n)) fail(V1_THROW.zeroOutput);
  const ok = STONFI_EXIT_CODE.ok;
  const toProtocol = poolPayTo(state, queryId, state.protocolFeeAddress, ok, [rest0, rest1]);
  const toCaller = poolPayTo(state, queryId, msg.source, ok, [reward0, reward1]);
  const outs: OutgoingMessage[] = [
    payToMessage(state.router, toProtocol, 3n * quarter, SendMode.ORDINARY),
    payToMessage(state.router, toCaller, quarter, SendMode.IGNORE_ERRORS),
  ];
  return done({ ...state, collected0: 0n, collected1: 0n }, outs);
}

export function poolResetGas(state: V1PoolState, ctx: ExecutionContext): Result {
  return done(state, [drainMessage(state.router, ctx.balance, POOL_TON_RESERVE)]);
}

/**
 * TEP-89 discovery. The real pool reserves its balance and replies with mode 128; the devnet has no
 * raw_reserve, so mode 64 (carry the inbound value) gives the same result.
 */
export function poolProvideWalletAddress(
  state: V1PoolState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  b: JettonProvideWalletAddress,
): Result {
  if (msg.value <= FORWARD_FEE + DISCOVERY_GAS) fail(V1_THROW.wrongWalletAddressGas);
  const owner = b.ownerAddress;
  const wallet =
    owner !== null && owner.workChain === 0
      ? contractAddressOf(lpWalletInit(owner, ctx.address, state.lpWalletCode))
      : null;
  const body = encodeJettonTakeWalletAddress({
    kind: "jetton.take_wallet_address",
    queryId: b.queryId,
    walletAddress: wallet,
    includesOwner: b.includeAddress,
    ownerAddress: b.includeAddress ? owner : null,
  });
  return done(state, [{ to: msg.source, value: 0n, bounce: true, body, mode: SendMode.CARRY_INBOUND_VALUE }]);
}
