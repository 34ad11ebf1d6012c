/**
 * Constants and message helpers shared by the pTON v1 and v2.1 handlers. Values from [pton-src]
 * (github.com/ston-fi/pton-contracts 2.1.0, `contracts/common/{errors,gas}.fc`), see contracts.md §3.11.
 *
 * TON's reserve actions are not modelled by the devnet chain (../../chain/README.md), so "reserve R, send
 * the whole balance" (mode 128) is written as an explicit value: what the account holds after the compute
 * fee, minus R. The account ends with exactly R, as on chain.
 */
import type { Address } from "@ton/core";
import { COMPUTE_FEE } from "../../chain/fees.ts";
import { type ExecutionContext, type OutgoingMessage, SendMode } from "../../chain/types.ts";
import { encodeJettonExcesses } from "../encode.ts";
import { max } from "../jetton/support.ts";

/** `storage_fee::wallet` = `storage_fee::minter` = 0.01 TON: what a pTON account keeps for itself. */
export const PTON_STORAGE_RESERVE = 10_000_000n;
/**
 * `deploy_wallet` needs `msg_value > 3 × fwd_fee + this`: minter storage + deploy gas + wallet storage +
 * `internal_deploy` gas, 0.01 TON each in [pton-src] `gas.fc`.
 */
export const PTON_V2_DEPLOY_GAS = 40_000_000n;

/** [pton-src] `contracts/common/errors.fc`. */
export const PTON_V2_EXIT = {
  insufficientGas: 83,
  invalidAddress: 84,
  wrongWorkchain: 85,
  lowAmount: 87,
  lowBalance: 88,
  invalidAmount: 89,
  invalidBody: 90,
  wrongOp: 0xffff,
} as const;

/** `get_version` of pTON 2.1.0: `(major, minor, development)`; the development tag is the devnet's. */
export const PTON_V2_VERSION = { major: 2, minor: 1, development: "release" } as const;

/** What the account can spend after this transaction's compute fee, keeping `reserve`. */
export function spendableAbove(ctx: ExecutionContext, reserve: bigint): bigint {
  return max(ctx.balance - COMPUTE_FEE - reserve, 0n);
}

/**
 * funcbox `reserves::max_balance(x)` + mode 128: reserve max(balance before the message, x) and send the
 * rest, so the account never spends what it held before and tops itself up to `x` from the message.
 */
export function spendableKeepingOld(ctx: ExecutionContext, msgValue: bigint, floor: bigint): bigint {
  return spendableAbove(ctx, max(ctx.balance - msgValue, floor));
}

/** `excesses` carrying `value`; skipped (mode +2) when it cannot pay its own forward fee. */
export function excessesMessage(to: Address, queryId: bigint, value: bigint): OutgoingMessage {
  return {
    to,
    value,
    bounce: false,
    body: encodeJettonExcesses({ kind: "jetton.excesses", queryId }),
    mode: SendMode.IGNORE_ERRORS,
  };
}

/** `reset_gas` (owner → wallet): keep the tokenized balance + the storage reserve, return the rest. */
export function resetGasMessage(
  owner: Address,
  tokenized: bigint,
  queryId: bigint,
  ctx: ExecutionContext,
): OutgoingMessage {
  return excessesMessage(owner, queryId, spendableAbove(ctx, tokenized + PTON_STORAGE_RESERVE));
}
