/**
 * What the v2 router does with the pool's and the vault's payout requests (shared/reference/contracts.md
 * §3.6): `pay_to` pays out one jetton transfer from the router's wallet (or chains the next cross_swap hop),
 * `pay_vault` deposits a referral fee into the (referrer, token) Vault with its StateInit, and
 * `vault_pay_to` pays a withdrawn referral balance to the vault's owner. The router ignores `exit_code`
 * (§8.11) and accepts each request only from the contract it can derive (82 otherwise).
 */
import type { Address, Cell } from "@ton/core";
import { STONFI_V2_OP } from "../../../../dex/codecs/index.ts";
import { preloadOp, readCell } from "../../chain/cell-reader.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import {
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
} from "../../chain/types.ts";
import { decodeStonfiV2PayTo, decodeStonfiV2PayVault, decodeStonfiV2VaultPayTo } from "../decode.ts";
import { encodeStonfiV2VaultDepositRefFee } from "../encode.ts";
import { CROSS_SWAP_RESERVE, PAYOUT_KEEP, V2_ERROR } from "./constants.ts";
import { carry, jettonTransferBody, parseOr9, required } from "./messages.ts";
import { routeDexMessage } from "./router-dex.ts";
import { type V2RouterState, v2PoolAddress, v2VaultAddress, v2VaultInit } from "./storage.ts";

/** The sender must be the pool of (token0, token1) on this router. */
function checkPool(
  state: V2RouterState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  t0: Address,
  t1: Address,
) {
  if (!msg.source.equals(v2PoolAddress(ctx.address, t0, t1, state.type))) {
    throw new ContractThrow(V2_ERROR.invalid_caller);
  }
}

/** A custom payload that chains the next hop: more than 32 bits, starting with cross_swap (§3.6). */
function isCrossSwap(payload: Cell | null): payload is Cell {
  return payload !== null && payload.bits.length > 32 && preloadOp(payload) === STONFI_V2_OP.cross_swap;
}

export function onPayTo(
  state: V2RouterState,
  msg: InboundInternal,
  ctx: ExecutionContext,
): HandlerResult<V2RouterState> {
  const p = parseOr9(() => decodeStonfiV2PayTo(readCell(msg.body)));
  const [token0, token1] = [required(p.token0), required(p.token1)];
  checkPool(state, msg, ctx, token0, token1);
  // only one side is ever non-zero (§3.6)
  const wallet = p.amount0Out > 0n ? token0 : token1;
  const amount = p.amount0Out + p.amount1Out;
  if (isCrossSwap(p.customPayload) && msg.value > CROSS_SWAP_RESERVE) {
    return routeDexMessage({
      state,
      ctx,
      queryId: p.queryId,
      jettonWallet: wallet,
      availableGas: msg.value - CROSS_SWAP_RESERVE,
      amount,
      caller: p.originalCaller,
      payload: p.customPayload,
    });
  }
  // A forward amount the rest of the value cannot pay is silently dropped (TOB-STONFI-4, §3.6).
  const fwd = msg.value - PAYOUT_KEEP - p.fwdTonAmount > 0n ? p.fwdTonAmount : 0n;
  const body = jettonTransferBody({
    queryId: p.queryId,
    amount,
    destination: p.toAddress,
    response: p.excessesAddress,
    forwardTonAmount: fwd,
    forward: { payload: p.customPayload },
  });
  return { exitCode: 0, state, outMessages: [carry(wallet, body)] };
}

export function onPayVault(
  state: V2RouterState,
  msg: InboundInternal,
  ctx: ExecutionContext,
): HandlerResult<V2RouterState> {
  const p = parseOr9(() => decodeStonfiV2PayVault(readCell(msg.body)));
  const [token0, token1] = [required(p.token0), required(p.token1)];
  checkPool(state, msg, ctx, token0, token1);
  const token = p.amount0Out > 0n ? token0 : token1;
  const init = v2VaultInit(ctx.address, required(p.owner), token);
  const body = encodeStonfiV2VaultDepositRefFee({
    kind: "stonfi.v2.vault.deposit_ref_fee",
    queryId: p.queryId,
    amount: p.amount0Out + p.amount1Out,
    excessesAddress: p.excessesAddress,
  });
  return { exitCode: 0, state, outMessages: [carry(contractAddressOf(init), body, { init })] };
}

export function onVaultPayTo(
  state: V2RouterState,
  msg: InboundInternal,
  ctx: ExecutionContext,
): HandlerResult<V2RouterState> {
  const p = parseOr9(() => decodeStonfiV2VaultPayTo(readCell(msg.body)));
  const [token, to] = [required(p.token), required(p.to)];
  if (!msg.source.equals(v2VaultAddress(ctx.address, to, token))) {
    throw new ContractThrow(V2_ERROR.invalid_caller);
  }
  const body = jettonTransferBody({
    queryId: p.queryId,
    amount: p.amountOut,
    destination: to,
    response: to,
    forwardTonAmount: 0n,
    forward: { payload: null },
  });
  return { exitCode: 0, state, outMessages: [carry(token, body)] };
}
