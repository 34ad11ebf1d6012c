/**
 * The devnet TEP-74 jetton wallet (TEP-74; behaviour of the reference token-contract `ft/jetton-wallet.fc`):
 * `transfer` (owner only) → `internal_transfer` with StateInit to the destination's wallet; `internal_transfer`
 * (from the master or a sibling wallet) → credit, `transfer_notification` to the owner when
 * forward_ton_amount > 0, `excesses` to the response address; `burn` → `burn_notification` to the master;
 * a bounced `internal_transfer`/`burn_notification` restores the balance.
 *
 * Fees: the reference checks `msg_value > forward_ton_amount + fwd_count × fwd_fee + 2 × gas + min_storage`;
 * here gas and fwd_fee are the devnet's flat COMPUTE_FEE and FORWARD_FEE (../../chain/fees.ts), and the
 * 0.01 TON storage reserve is kept as in the reference (a fresh wallet keeps it out of the first excesses).
 */
import type { Cell, Slice } from "@ton/core";
import {
  decodeJettonInternalTransfer,
  decodeJettonTransfer,
  JETTON_OP,
  type JettonInternalTransfer,
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
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import { decodeJettonBurn } from "../decode.ts";
import {
  encodeJettonBurnNotification,
  encodeJettonExcesses,
  encodeJettonInternalTransfer,
  encodeJettonTransferNotification,
} from "../encode.ts";
import {
  type JettonWalletState,
  jettonWalletAddress,
  jettonWalletDataWith,
  jettonWalletInit,
} from "./codes.ts";
import {
  addressItem,
  BOUNCE_PREFIX,
  cellItem,
  done,
  intItem,
  JETTON_EXIT,
  min,
  opOf,
  parseBody,
  requireBasechain,
} from "./support.ts";

/** `min_tons_for_storage` of the reference wallet: 0.01 TON kept on the wallet's own account. */
export const JETTON_WALLET_MIN_STORAGE = 10_000_000n;

type Result = HandlerResult<JettonWalletState>;

function transfer(state: JettonWalletState, msg: InboundInternal): Result {
  if (!msg.source.equals(state.owner)) throw new ContractThrow(JETTON_EXIT.notOwner);
  const t = parseBody(decodeJettonTransfer, msg.body);
  const balance = state.balance - t.amount;
  if (balance < 0n) throw new ContractThrow(JETTON_EXIT.balance);
  const destination = requireBasechain(t.destination);
  if (t.forwardPayload === null) throw new ContractThrow(JETTON_EXIT.noForwardPayload);
  // internal_transfer, plus transfer_notification when something is forwarded (excesses are best-effort).
  const fwdCount = t.forwardTonAmount > 0n ? 2n : 1n;
  const needed = t.forwardTonAmount + fwdCount * FORWARD_FEE + 2n * COMPUTE_FEE + JETTON_WALLET_MIN_STORAGE;
  if (msg.value <= needed) throw new ContractThrow(JETTON_EXIT.notEnoughTon);
  const body = encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId: t.queryId,
    amount: t.amount,
    from: state.owner,
    responseAddress: t.responseDestination,
    forwardTonAmount: t.forwardTonAmount,
    forwardPayload: t.forwardPayload,
  });
  const out: OutgoingMessage = {
    to: jettonWalletAddress(destination, state.master),
    value: 0n,
    bounce: true,
    body,
    init: jettonWalletInit(destination, state.master),
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  return done({ ...state, balance }, [out]);
}

/** Only the master, or the wallet of `from` under the same master, may credit this wallet. */
function isTrustedSender(
  state: JettonWalletState,
  source: InboundInternal["source"],
  t: JettonInternalTransfer,
) {
  if (source.equals(state.master)) return true;
  return t.from !== null && source.equals(jettonWalletAddress(t.from, state.master));
}

function receive(state: JettonWalletState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const t = parseBody(decodeJettonInternalTransfer, msg.body);
  if (!isTrustedSender(state, msg.source, t)) throw new ContractThrow(JETTON_EXIT.wrongSender);
  // Top the wallet's own account up to the storage reserve out of the incoming value, as the reference does.
  const before = ctx.balance - msg.value;
  const storageFee = JETTON_WALLET_MIN_STORAGE - min(before, JETTON_WALLET_MIN_STORAGE);
  let rest = msg.value - storageFee - COMPUTE_FEE;
  const outs: OutgoingMessage[] = [];
  if (t.forwardTonAmount > 0n) {
    rest -= t.forwardTonAmount + FORWARD_FEE;
    outs.push({
      to: state.owner,
      value: t.forwardTonAmount,
      bounce: false,
      body: encodeJettonTransferNotification({
        kind: "jetton.transfer_notification",
        queryId: t.queryId,
        amount: t.amount,
        sender: t.from,
        forwardPayload: t.forwardPayload,
      }),
      mode: SendMode.PAY_FEES_SEPARATELY,
    });
  }
  if (t.responseAddress !== null && rest > 0n) {
    outs.push({
      to: t.responseAddress,
      value: rest,
      bounce: false,
      body: encodeJettonExcesses({ kind: "jetton.excesses", queryId: t.queryId }),
      mode: SendMode.IGNORE_ERRORS,
    });
  }
  return done({ ...state, balance: state.balance + t.amount }, outs);
}

function burn(state: JettonWalletState, msg: InboundInternal): Result {
  if (!msg.source.equals(state.owner)) throw new ContractThrow(JETTON_EXIT.notOwner);
  const b = parseBody(decodeJettonBurn, msg.body);
  const balance = state.balance - b.amount;
  if (balance < 0n) throw new ContractThrow(JETTON_EXIT.balance);
  if (msg.value <= FORWARD_FEE + 2n * COMPUTE_FEE) throw new ContractThrow(JETTON_EXIT.wrongSender);
  const body = encodeJettonBurnNotification({
    kind: "jetton.burn_notification",
    queryId: b.queryId,
    amount: b.amount,
    sender: state.owner,
    responseDestination: b.responseDestination,
  });
  const out = { to: state.master, value: 0n, bounce: true, body, mode: SendMode.CARRY_INBOUND_VALUE };
  return done({ ...state, balance }, [out]);
}

/** A bounce carries `0xffffffff ++ op query_id amount…`: give the amount back (reference `on_bounce`). */
function bounced(state: JettonWalletState, body: Cell): Result {
  const s: Slice = readCell(body);
  try {
    if (s.loadUint(32) !== BOUNCE_PREFIX) throw new ContractThrow(JETTON_EXIT.notEnoughTon);
    const op = s.loadUint(32);
    if (op !== JETTON_OP.internal_transfer && op !== JETTON_OP.burn_notification) {
      throw new ContractThrow(JETTON_EXIT.notEnoughTon);
    }
    s.skip(64);
    return done({ ...state, balance: state.balance + s.loadCoins() });
  } catch (error) {
    if (error instanceof ContractThrow) throw error;
    throw new ContractThrow(JETTON_EXIT.cellUnderflow);
  }
}

export const jettonWalletHandler: ContractHandler<JettonWalletState> = {
  kind: "jetton/wallet",
  receiveInternal(state, msg, ctx) {
    if (msg.bounced) return bounced(state, msg.body);
    switch (opOf(msg.body)) {
      case null:
        return done(state);
      case JETTON_OP.transfer:
        return transfer(state, msg);
      case JETTON_OP.internal_transfer:
        return receive(state, msg, ctx);
      case JETTON_OP.burn:
        return burn(state, msg);
      default:
        throw new ContractThrow(JETTON_EXIT.wrongOp);
    }
  },
  stateToCell: (state) => jettonWalletDataWith(beginFast, state),
  getMethods: {
    get_wallet_data: (state) => [
      intItem(state.balance),
      addressItem(state.owner),
      addressItem(state.master),
      cellItem(state.walletCode),
    ],
  },
};
