/**
 * STON.fi DEX v1 LP wallet (contracts.md §2.1, §2.7, §2.10; [v1-src] `lp_wallet.func`, the TEP-74 reference
 * wallet with the pool as master): `transfer`, `internal_transfer` (mints from the pool and transfers from
 * sibling wallets), `burn` → `burn_notification` to the pool, and bounce recovery of both.
 */
import type { Address } from "@ton/core";
import {
  decodeBody,
  JETTON_OP,
  type JettonBurn,
  type JettonInternalTransfer,
  type JettonTransfer,
} from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import { FORWARD_FEE } from "../../chain/fees.ts";
import {
  type ContractHandler,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  type OutgoingMessage,
  SendMode,
} from "../../chain/types.ts";
import {
  encodeJettonExcesses,
  encodeJettonInternalTransfer,
  encodeJettonTransferNotification,
  encodeStonfiV1BurnNotification,
} from "../encode.ts";
import {
  addressItem,
  cellItem,
  done,
  fail,
  intItem,
  isEmptyBody,
  LP_WALLET_GAS,
  LP_WALLET_STORAGE,
  LP_WALLET_THROW,
  V1_THROW,
} from "./common.ts";
import { lpWalletDataCellWith, lpWalletInit, type V1LpWalletState } from "./storage.ts";

type Result = HandlerResult<V1LpWalletState>;

const walletOf = (state: V1LpWalletState, owner: Address | null) =>
  lpWalletInit(owner, state.pool, state.walletCode);

function transfer(state: V1LpWalletState, msg: InboundInternal, t: JettonTransfer): Result {
  const to = t.destination;
  if (to === null || to.workChain !== 0) return fail(V1_THROW.wrongWorkchain);
  const balance = state.balance - t.amount;
  if (state.owner === null || !state.owner.equals(msg.source)) fail(LP_WALLET_THROW.notOwner);
  if (balance < 0n) fail(LP_WALLET_THROW.balance);
  if (t.forwardPayload === null) fail(LP_WALLET_THROW.noForwardPayload);
  const hops = t.forwardTonAmount > 0n ? 2n : 1n;
  const needed = t.forwardTonAmount + hops * FORWARD_FEE + 2n * LP_WALLET_GAS + LP_WALLET_STORAGE;
  if (msg.value <= needed) fail(LP_WALLET_THROW.gas);
  const init = walletOf(state, to);
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
    to: contractAddressOf(init),
    value: 0n,
    bounce: true,
    body,
    init,
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  return done({ ...state, balance }, [out]);
}

function receiveTokens(
  state: V1LpWalletState,
  msg: InboundInternal,
  ctx: ExecutionContext,
  t: JettonInternalTransfer,
) {
  const fromPool = msg.source.equals(state.pool);
  const fromSibling = t.from !== null && contractAddressOf(walletOf(state, t.from)).equals(msg.source);
  if (!fromPool && !fromSibling) fail(LP_WALLET_THROW.wrongSenderOrGas);
  // Top the wallet up to its storage reserve first, then pay the notification, then return the rest.
  const before = ctx.balance - msg.value;
  const storage = LP_WALLET_STORAGE - (before < LP_WALLET_STORAGE ? before : LP_WALLET_STORAGE);
  let rest = msg.value - storage - LP_WALLET_GAS;
  const outs: OutgoingMessage[] = [];
  if (t.forwardTonAmount > 0n && state.owner !== null) {
    rest -= t.forwardTonAmount + FORWARD_FEE;
    const body = encodeJettonTransferNotification({
      kind: "jetton.transfer_notification",
      queryId: t.queryId,
      amount: t.amount,
      sender: t.from,
      forwardPayload: t.forwardPayload,
    });
    outs.push({
      to: state.owner,
      value: t.forwardTonAmount,
      bounce: true,
      body,
      mode: SendMode.PAY_FEES_SEPARATELY,
    });
  }
  if (t.responseAddress !== null && rest > 0n) {
    const body = encodeJettonExcesses({ kind: "jetton.excesses", queryId: t.queryId });
    outs.push({ to: t.responseAddress, value: rest, bounce: false, body, mode: SendMode.IGNORE_ERRORS });
  }
  return done({ ...state, balance: state.balance + t.amount }, outs);
}

function burnTokens(state: V1LpWalletState, msg: InboundInternal, b: JettonBurn): Result {
  const balance = state.balance - b.amount;
  if (state.owner === null || !state.owner.equals(msg.source)) fail(LP_WALLET_THROW.notOwner);
  if (balance < 0n) fail(LP_WALLET_THROW.balance);
  if (msg.value <= FORWARD_FEE + 2n * LP_WALLET_GAS) fail(LP_WALLET_THROW.wrongSenderOrGas);
  const body = encodeStonfiV1BurnNotification({
    kind: "stonfi.v1.burn_notification",
    queryId: b.queryId,
    amount: b.amount,
    from: state.owner,
    responseAddress: b.responseDestination,
  });
  const out: OutgoingMessage = {
    to: state.pool,
    value: 0n,
    bounce: true,
    body,
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  return done({ ...state, balance }, [out]);
}

/**
 * A bounced `internal_transfer` or `burn_notification` gives the amount back. The bounce body is
 * `0xffffffff` + the first 256 bits of the original (op, query_id, amount), too short for the codecs.
 */
function onBounce(state: V1LpWalletState, msg: InboundInternal): Result {
  const s = readCell(msg.body);
  s.skip(32);
  const op = s.loadUint(32);
  if (op !== JETTON_OP.internal_transfer && op !== JETTON_OP.burn_notification) fail(LP_WALLET_THROW.gas);
  s.skip(64);
  return done({ ...state, balance: state.balance + s.loadCoins() });
}

export const v1LpWalletHandler: ContractHandler<V1LpWalletState> = {
  kind: "stonfi-v1/lp_wallet",
  receiveInternal(state, msg, ctx) {
    if (isEmptyBody(msg.body)) return done(state);
    if (msg.bounced) return onBounce(state, msg);
    const body = decodeBody(msg.body);
    switch (body.kind) {
      case "jetton.transfer":
        return transfer(state, msg, body);
      case "jetton.internal_transfer":
        return receiveTokens(state, msg, ctx, body);
      case "jetton.burn":
        return burnTokens(state, msg, body);
      default:
        return fail(body.kind === "malformed" ? V1_THROW.cellUnderflow : V1_THROW.wrongOp);
    }
  },
  stateToCell: (state) => lpWalletDataCellWith(beginFast, state),
  getMethods: {
    get_wallet_data: (s) => [
      intItem(s.balance),
      addressItem(s.owner),
      addressItem(s.pool),
      cellItem(s.walletCode),
    ],
  },
};
