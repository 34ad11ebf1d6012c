/**
 * The devnet pTON v2.1 wallet (contracts.md §3.11; [pton-src] 2.1.0 `contracts/wallet.fc`, `wallet/msgs/*.fc`).
 * * `ton_transfer` in (anyone → the router's pTON wallet): ton_amount > 0 (87), refund_address addr_std (84);
 *   value ≤ ton_amount or no payload bit → `ton_refund` with the inbound value to refund_address; else
 *   balance += ton_amount and `transfer_notification(query_id, ton_amount, from = sender, payload)` to the
 *   owner with everything above `old balance + ton_amount`.
 * * `transfer` from the owner pays TON out (balance −= amount, 88 if negative): with no std response address
 *   or response = destination, one `ton_transfer(amount, refund = owner, payload)` carrying amount + the
 *   remaining value; else `ton_transfer(amount, refund = response, payload)` with exactly
 *   amount + forward_ton_amount, then `excesses` with the rest to the response address.
 * * `internal_deploy` from the minter → `excesses`; `reset_gas` from the owner; bounces are ignored.
 * Every message it sends is non-bounceable.
 */
import {
  decodeJettonTransfer,
  decodePtonV2InternalDeploy,
  decodePtonV2TonTransfer,
  encodeBody,
  JETTON_OP,
  PTON_V2_OP,
} from "../../../../dex/codecs/index.ts";
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
import { encodeJettonTransferNotification, encodePtonV2TonTransfer } from "../encode.ts";
import {
  addressItem,
  cellItem,
  done,
  intItem,
  opOf,
  parseBody,
  queryIdOf,
  requireBasechain,
} from "../jetton/support.ts";
import { PTON_V2_WALLET_CODE, type PtonWalletState, ptonWalletDataWith } from "./codes.ts";
import {
  excessesMessage,
  PTON_STORAGE_RESERVE,
  PTON_V2_EXIT,
  resetGasMessage,
  spendableKeepingOld,
} from "./support.ts";

type Result = HandlerResult<PtonWalletState>;

function tonIn(state: PtonWalletState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const t = parseBody(decodePtonV2TonTransfer, msg.body);
  if (t.tonAmount <= 0n) throw new ContractThrow(PTON_V2_EXIT.lowAmount);
  if (t.refundAddress === null) throw new ContractThrow(PTON_V2_EXIT.invalidAddress);
  if (msg.value <= t.tonAmount || t.forwardPayload === null) {
    // The refund path reserves max(old balance, 0.01 TON) and sends everything else (mode 128).
    const body = encodeBody({ kind: "pton.v2.ton_refund", queryId: t.queryId });
    const value = spendableKeepingOld(ctx, msg.value, PTON_STORAGE_RESERVE);
    return done(state, [{ to: t.refundAddress, value, bounce: false, body }]);
  }
  // Reserve old balance + ton_amount, send the rest (mode 128): the inbound value minus ton_amount and gas.
  const body = encodeJettonTransferNotification({
    kind: "jetton.transfer_notification",
    queryId: t.queryId,
    amount: t.tonAmount,
    sender: msg.source,
    forwardPayload: t.forwardPayload,
  });
  const value = msg.value - t.tonAmount - COMPUTE_FEE;
  const out = { to: state.owner, value: value > 0n ? value : 0n, bounce: false, body };
  return done({ ...state, balance: state.balance + t.tonAmount }, [out]);
}

function tonOut(state: PtonWalletState, msg: InboundInternal): Result {
  const t = parseBody(decodeJettonTransfer, msg.body);
  const balance = state.balance - t.amount;
  if (balance < 0n) throw new ContractThrow(PTON_V2_EXIT.lowBalance);
  const destination = requireBasechain(t.destination, PTON_V2_EXIT.wrongWorkchain);
  const response = t.responseDestination;
  const single = response === null || response.equals(destination);
  const body = encodePtonV2TonTransfer({
    kind: "pton.v2.ton_transfer",
    queryId: t.queryId,
    tonAmount: t.amount,
    refundAddress: single ? msg.source : response,
    forwardPayload: t.forwardPayload,
  });
  if (single) {
    const all = { to: destination, value: t.amount, bounce: false, body, mode: SendMode.CARRY_INBOUND_VALUE };
    return done({ ...state, balance }, [all]);
  }
  const pay: OutgoingMessage = {
    to: destination,
    value: t.amount + t.forwardTonAmount,
    bounce: false,
    body,
    mode: SendMode.PAY_FEES_SEPARATELY,
  };
  const rest = msg.value - COMPUTE_FEE - t.forwardTonAmount - FORWARD_FEE;
  return done({ ...state, balance }, [pay, excessesMessage(response, t.queryId, rest > 0n ? rest : 0n)]);
}

function fromMinter(state: PtonWalletState, msg: InboundInternal, ctx: ExecutionContext): Result | null {
  if (opOf(msg.body) !== PTON_V2_OP.internal_deploy) return null;
  const d = parseBody(decodePtonV2InternalDeploy, msg.body);
  const excesses = requireBasechain(d.excessesAddress, PTON_V2_EXIT.wrongWorkchain);
  return done(state, [
    excessesMessage(excesses, d.queryId, spendableKeepingOld(ctx, msg.value, PTON_STORAGE_RESERVE)),
  ]);
}

function fromOwner(state: PtonWalletState, msg: InboundInternal, ctx: ExecutionContext): Result | null {
  const op = opOf(msg.body);
  if (op === JETTON_OP.transfer) return tonOut(state, msg);
  if (op === PTON_V2_OP.reset_gas) {
    return done(state, [resetGasMessage(state.owner, state.balance, queryIdOf(msg.body), ctx)]);
  }
  return null;
}

function receive(state: PtonWalletState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.bounced) return done(state);
  if (opOf(msg.body) === null) return done(state);
  if (msg.source.workChain !== 0) throw new ContractThrow(PTON_V2_EXIT.wrongWorkchain);
  const handled =
    (msg.source.equals(state.minter) ? fromMinter(state, msg, ctx) : null) ??
    (msg.source.equals(state.owner) ? fromOwner(state, msg, ctx) : null);
  if (handled !== null) return handled;
  if (opOf(msg.body) === PTON_V2_OP.ton_transfer) return tonIn(state, msg, ctx);
  throw new ContractThrow(PTON_V2_EXIT.wrongOp);
}

export const ptonV2WalletHandler: ContractHandler<PtonWalletState> = {
  kind: "pton/v2-wallet",
  receiveInternal: receive,
  stateToCell: (state) => ptonWalletDataWith(beginFast, state),
  getMethods: {
    get_wallet_data: (state) => [
      intItem(state.balance),
      addressItem(state.owner),
      addressItem(state.minter),
      cellItem(PTON_V2_WALLET_CODE),
    ],
  },
};
