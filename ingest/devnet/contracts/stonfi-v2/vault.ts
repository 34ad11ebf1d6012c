/**
 * The devnet STON.fi v2 referral Vault, one per (referrer, router wallet of the fee token) on a router
 * (shared/reference/contracts.md §3.1, §3.2, §3.6): `deposit_ref_fee` from the router accumulates, and
 * `withdraw_fee` from anyone sends `vault_pay_to` to the router with the whole balance and destroys the
 * vault (mode 128+32; see `V2VaultState.destroyed`); the next deposit redeploys it with its StateInit.
 * Ground truth: `vault_deposit` and `vault_withdrawal` on the vault's transaction.
 */
import { decodeStonfiV2VaultWithdrawFee, STONFI_V2_VAULT_OP } from "../../../../dex/codecs/index.ts";
import { preloadOp, readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  SendMode,
} from "../../chain/types.ts";
import { decodeStonfiV2VaultDepositRefFee } from "../decode.ts";
import { encodeStonfiV2VaultPayTo } from "../encode.ts";
import { ACCOUNT_GONE, V2_ERROR, WITHDRAW_MIN } from "./constants.ts";
import { excesses, message, parseOr9, stackAddress, stackInt } from "./messages.ts";
import { type V2VaultState, vaultDataCellWith } from "./storage.ts";

type Result = HandlerResult<V2VaultState>;

function onDeposit(state: V2VaultState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (!msg.source.equals(state.router)) throw new ContractThrow(V2_ERROR.invalid_caller);
  const b = parseOr9(() => decodeStonfiV2VaultDepositRefFee(readCell(msg.body)));
  const next = { ...state, deposited: state.deposited + b.amount };
  const outMessages = b.excessesAddress ? [excesses(b.excessesAddress, b.queryId)] : [];
  const fields = {
    dex: "v2",
    router: state.router,
    vault: ctx.address,
    referrer: state.owner,
    "asset.router_wallet": state.token,
    amount: b.amount,
    query_id: b.queryId,
  };
  return { exitCode: 0, state: next, outMessages, events: [{ type: "vault_deposit", fields }] };
}

function onWithdraw(state: V2VaultState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const b = parseOr9(() => decodeStonfiV2VaultWithdrawFee(readCell(msg.body)));
  if (state.deposited <= 0n) throw new ContractThrow(V2_ERROR.zero_output);
  if (ctx.balance <= WITHDRAW_MIN) throw new ContractThrow(V2_ERROR.insufficient_gas);
  const body = encodeStonfiV2VaultPayTo({
    kind: "stonfi.v2.vault.vault_pay_to",
    queryId: b.queryId,
    amountOut: state.deposited,
    token: state.token,
    to: state.owner,
  });
  const payTo = message(state.router, 0n, body, { mode: SendMode.CARRY_ALL_BALANCE });
  const fields = {
    dex: "v2",
    router: state.router,
    vault: ctx.address,
    owner: state.owner,
    "asset.router_wallet": state.token,
    amount: state.deposited,
    query_id: b.queryId,
  };
  const next = { ...state, deposited: 0n, destroyed: true };
  return { exitCode: 0, state: next, outMessages: [payTo], events: [{ type: "vault_withdrawal", fields }] };
}

function receiveInternal(state: V2VaultState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.bounced) return { exitCode: 0, state, outMessages: [] };
  if (state.destroyed && msg.init === undefined) throw new ContractThrow(ACCOUNT_GONE);
  const live = state.destroyed ? { ...state, destroyed: false } : state;
  if (msg.body.bits.length < 32) throw new ContractThrow(V2_ERROR.empty_not_allowed);
  const op = preloadOp(msg.body);
  if (op === STONFI_V2_VAULT_OP.deposit_ref_fee) return onDeposit(live, msg, ctx);
  if (op === STONFI_V2_VAULT_OP.withdraw_fee) return onWithdraw(live, msg, ctx);
  throw new ContractThrow(V2_ERROR.wrong_op);
}

export const v2VaultHandler: ContractHandler<V2VaultState> = {
  kind: "stonfi-v2/vault",
  receiveInternal,
  stateToCell: (state) => vaultDataCellWith(beginFast, state),
  getMethods: {
    get_vault_data: (s) => {
      if (s.destroyed) throw new ContractThrow(ACCOUNT_GONE);
      return [stackAddress(s.owner), stackAddress(s.token), stackAddress(s.router), stackInt(s.deposited)];
    },
  },
};
