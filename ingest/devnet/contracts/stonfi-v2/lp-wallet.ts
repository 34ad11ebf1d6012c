/**
 * The devnet STON.fi v2 LP jetton wallet (shared/reference/contracts.md §3.1, §3.2, §3.8; TEP-74):
 * credits mints from its pool and transfers from other LP wallets of that pool, sends TEP-74 transfers,
 * and turns `burn` into the pool's `burn_notification_ext`. A bounced outgoing transfer or burn
 * notification restores the balance. Exit codes 705–709 as the v2 LP wallet (§3.3).
 */
import type { Address } from "@ton/core";
import {
  decodeJettonInternalTransfer,
  decodeJettonTransfer,
  JETTON_OP,
  STONFI_V2_OP,
} from "../../../../dex/codecs/index.ts";
import { preloadOp, readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
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
import { decodeJettonBurn } from "../decode.ts";
import {
  encodeJettonInternalTransfer,
  encodeJettonTransferNotification,
  encodeStonfiV2BurnNotificationExt,
} from "../encode.ts";
import { LP_WALLET_ERROR as E, LP_BURN_MIN, V2_ERROR, V2_LP_WALLET_CODE } from "./constants.ts";
import { carry, excesses, message, parseOr9, stackAddress, stackCell, stackInt } from "./messages.ts";
import { lpWalletDataCellWith, type V2LpWalletState, v2LpWalletAddress, v2LpWalletInit } from "./storage.ts";

type Result = HandlerResult<V2LpWalletState>;

function onInternalTransfer(state: V2LpWalletState, msg: InboundInternal): Result {
  const b = parseOr9(() => decodeJettonInternalTransfer(readCell(msg.body)));
  const fromWallet = b.from ? v2LpWalletAddress(b.from, state.pool) : null;
  if (!msg.source.equals(state.pool) && !(fromWallet && msg.source.equals(fromWallet))) {
    throw new ContractThrow(E.wrong_sender_or_gas);
  }
  const outMessages: OutgoingMessage[] = [];
  let left = msg.value - COMPUTE_FEE;
  if (b.forwardTonAmount > 0n) {
    const note = encodeJettonTransferNotification({
      kind: "jetton.transfer_notification",
      queryId: b.queryId,
      amount: b.amount,
      sender: b.from,
      forwardPayload: b.forwardPayload,
    });
    outMessages.push(
      message(state.owner, b.forwardTonAmount, note, { bounce: false, mode: SendMode.PAY_FEES_SEPARATELY }),
    );
    left -= b.forwardTonAmount + FORWARD_FEE;
  }
  if (b.responseAddress && left > FORWARD_FEE) {
    outMessages.push({
      ...excesses(b.responseAddress, b.queryId),
      value: left,
      mode: SendMode.IGNORE_ERRORS,
    });
  }
  return { exitCode: 0, state: { ...state, balance: state.balance + b.amount }, outMessages };
}

function requireOwner(state: V2LpWalletState, msg: InboundInternal): void {
  if (!msg.source.equals(state.owner)) throw new ContractThrow(E.not_owner);
}

function onTransfer(state: V2LpWalletState, msg: InboundInternal): Result {
  requireOwner(state, msg);
  const b = parseOr9(() => decodeJettonTransfer(readCell(msg.body)));
  if (b.amount > state.balance) throw new ContractThrow(E.insufficient_balance);
  if (b.forwardPayload === null) throw new ContractThrow(E.no_forward_payload);
  const destination: Address | null = b.destination;
  if (destination === null || destination.workChain !== 0) throw new ContractThrow(V2_ERROR.wrong_workchain);
  if (msg.value <= b.forwardTonAmount + 2n * (COMPUTE_FEE + FORWARD_FEE))
    throw new ContractThrow(E.insufficient_gas);
  const init = v2LpWalletInit(destination, state.pool);
  const body = encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId: b.queryId,
    amount: b.amount,
    from: state.owner,
    responseAddress: b.responseDestination,
    forwardTonAmount: b.forwardTonAmount,
    forwardPayload: b.forwardPayload,
  });
  const next = { ...state, balance: state.balance - b.amount };
  return { exitCode: 0, state: next, outMessages: [carry(contractAddressOf(init), body, { init })] };
}

function onBurn(state: V2LpWalletState, msg: InboundInternal): Result {
  requireOwner(state, msg);
  const b = parseOr9(() => decodeJettonBurn(readCell(msg.body)));
  if (b.amount > state.balance) throw new ContractThrow(E.insufficient_balance);
  if (msg.value <= LP_BURN_MIN) throw new ContractThrow(E.wrong_sender_or_gas);
  const body = encodeStonfiV2BurnNotificationExt({
    kind: "stonfi.v2.burn_notification_ext",
    queryId: b.queryId,
    amount: b.amount,
    from: state.owner,
    responseAddress: b.responseDestination,
    customPayload: b.customPayload,
  });
  return {
    exitCode: 0,
    state: { ...state, balance: state.balance - b.amount },
    outMessages: [carry(state.pool, body)],
  };
}

/** A bounced `internal_transfer` or `burn_notification_ext` gives the amount back (TEP-74 on_bounce). */
function onBounce(state: V2LpWalletState, msg: InboundInternal): Result {
  const s = readCell(msg.body);
  s.skip(32);
  const op = s.loadUint(32);
  if (op !== JETTON_OP.internal_transfer && op !== STONFI_V2_OP.burn_notification_ext) {
    return { exitCode: 0, state, outMessages: [] };
  }
  s.skip(64);
  return { exitCode: 0, state: { ...state, balance: state.balance + s.loadCoins() }, outMessages: [] };
}

type Handler = (state: V2LpWalletState, msg: InboundInternal, ctx: ExecutionContext) => Result;

const HANDLERS: Readonly<Record<number, Handler>> = {
  [JETTON_OP.internal_transfer]: onInternalTransfer,
  [JETTON_OP.transfer]: onTransfer,
  [JETTON_OP.burn]: onBurn,
};

function receiveInternal(state: V2LpWalletState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.bounced) return onBounce(state, msg);
  if (msg.body.bits.length < 32) throw new ContractThrow(V2_ERROR.wrong_op);
  const handler = HANDLERS[preloadOp(msg.body)];
  if (handler === undefined) throw new ContractThrow(V2_ERROR.wrong_op);
  return handler(state, msg, ctx);
}

export const v2LpWalletHandler: ContractHandler<V2LpWalletState> = {
  kind: "stonfi-v2/lp_wallet",
  receiveInternal,
  stateToCell: (state) => lpWalletDataCellWith(beginFast, state),
  getMethods: {
    get_wallet_data: (s) => [
      stackInt(s.balance),
      stackAddress(s.owner),
      stackAddress(s.pool),
      stackCell(V2_LP_WALLET_CODE),
    ],
  },
};
