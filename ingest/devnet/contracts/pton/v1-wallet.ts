/**
 * The devnet pTON v1 wallet (contracts.md §2.11, observed behaviour of the mainnet v1 wallet code).
 * * TON in: anyone sends a TEP-74 `transfer` straight to the router's pTON wallet with value
 *   `ton_amount + forward_ton_amount`; the wallet keeps `ton_amount` (balance += ton_amount) and sends
 *   `transfer_notification(query_id, ton_amount, from = sender, forward_payload)` to its owner with the rest.
 * * TON out: the owner (router) sends `transfer`; the wallet pays `amount` + the remaining value to
 *   `destination` in a bounceable message whose body is `transfer_notification(query_id, amount,
 *   from = owner, forward_payload)` — no `internal_transfer`, no excesses.
 * * `reset_gas` (owner): keep balance + 0.01 TON, send the rest back as `excesses`.
 * Not observed on mainnet, so chosen here: a TON-in whose value cannot cover `ton_amount`, the compute fee
 * and the notification's forward fee throws 709 (bounces, like a jetton wallet short of TON); a bounced
 * TON-out `transfer_notification` restores the tokenized balance (the TON came back with it).
 */
import {
  decodeJettonTransfer,
  JETTON_OP,
  type JettonTransfer,
  PTON_V1_OP,
} from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { COMPUTE_FEE, FORWARD_FEE } from "../../chain/fees.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  SendMode,
} from "../../chain/types.ts";
import { encodeJettonTransferNotification } from "../encode.ts";
import {
  addressItem,
  BOUNCE_PREFIX,
  cellItem,
  done,
  intItem,
  JETTON_EXIT,
  opOf,
  parseBody,
  queryIdOf,
  requireBasechain,
} from "../jetton/support.ts";
import { PTON_V1_WALLET_CODE, type PtonWalletState, ptonWalletDataWith } from "./codes.ts";
import { resetGasMessage } from "./support.ts";

type Result = HandlerResult<PtonWalletState>;

function notification(t: JettonTransfer, from: InboundInternal["source"]) {
  return encodeJettonTransferNotification({
    kind: "jetton.transfer_notification",
    queryId: t.queryId,
    amount: t.amount,
    sender: from,
    forwardPayload: t.forwardPayload,
  });
}

function tonIn(state: PtonWalletState, msg: InboundInternal): Result {
  const t = parseBody(decodeJettonTransfer, msg.body);
  const value = msg.value - t.amount - COMPUTE_FEE;
  if (value <= FORWARD_FEE) throw new ContractThrow(JETTON_EXIT.notEnoughTon);
  const out = { to: state.owner, value, bounce: false, body: notification(t, msg.source) };
  return done({ ...state, balance: state.balance + t.amount }, [out]);
}

function tonOut(state: PtonWalletState, msg: InboundInternal): Result {
  const t = parseBody(decodeJettonTransfer, msg.body);
  const balance = state.balance - t.amount;
  if (balance < 0n) throw new ContractThrow(JETTON_EXIT.balance);
  const out = {
    to: requireBasechain(t.destination),
    value: t.amount,
    bounce: true,
    body: notification(t, msg.source),
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  return done({ ...state, balance }, [out]);
}

/** Reads `0xffffffff ++ transfer_notification query_id amount` from a bounce; null for anything else. */
function bouncedAmount(msg: InboundInternal): bigint | null {
  const s = readCell(msg.body);
  try {
    if (s.loadUint(32) !== BOUNCE_PREFIX || s.loadUint(32) !== JETTON_OP.transfer_notification) return null;
    s.skip(64);
    return s.loadCoins();
  } catch {
    return null;
  }
}

function bounced(state: PtonWalletState, msg: InboundInternal): Result {
  const amount = bouncedAmount(msg);
  return done(amount === null ? state : { ...state, balance: state.balance + amount });
}

function receive(state: PtonWalletState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const fromOwner = msg.source.equals(state.owner);
  switch (opOf(msg.body)) {
    case null:
      return done(state);
    case JETTON_OP.transfer:
      return fromOwner ? tonOut(state, msg) : tonIn(state, msg);
    case PTON_V1_OP.reset_gas: {
      if (!fromOwner) throw new ContractThrow(JETTON_EXIT.notOwner);
      return done(state, [resetGasMessage(state.owner, state.balance, queryIdOf(msg.body), ctx)]);
    }
    default:
      throw new ContractThrow(JETTON_EXIT.wrongOp);
  }
}

export const ptonV1WalletHandler: ContractHandler<PtonWalletState> = {
  kind: "pton/v1-wallet",
  receiveInternal: (state, msg, ctx) => (msg.bounced ? bounced(state, msg) : receive(state, msg, ctx)),
  stateToCell: (state) => ptonWalletDataWith(beginFast, state),
  getMethods: {
    get_wallet_data: (state) => [
      intItem(state.balance),
      addressItem(state.owner),
      addressItem(state.minter),
      cellItem(PTON_V1_WALLET_CODE),
    ],
  },
};
