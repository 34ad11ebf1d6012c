/**
 * The devnet TEP-74 jetton minter (TEP-74; TEP-89 wallet discovery; behaviour of the reference
 * token-contract `ft/jetton-minter.fc` and `ft/jetton-minter-discoverable.fc`):
 * admin `mint` (./mint.ts) → the admin-built `internal_transfer` with StateInit to the recipient's wallet;
 * `burn_notification` from a wallet it can derive → total_supply −= amount, `excesses` to the response
 * address; `provide_wallet_address` → `take_wallet_address`. Bounced messages are ignored (a bounced mint
 * leaves total_supply as it is, like the reference).
 */
import { decodeJettonProvideWalletAddress, JETTON_OP } from "../../../../dex/codecs/index.ts";
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
import { decodeJettonBurnNotification } from "../decode.ts";
import { encodeJettonExcesses, encodeJettonTakeWalletAddress } from "../encode.ts";
import {
  type JettonMinterState,
  jettonMinterDataWith,
  jettonWalletAddress,
  jettonWalletInit,
} from "./codes.ts";
import { decodeJettonMint, JETTON_MINT_OP, JETTON_MINT_OP_LEGACY } from "./mint.ts";
import {
  addressArg,
  addressItem,
  cellItem,
  done,
  intItem,
  JETTON_EXIT,
  opOf,
  parseBody,
  requireBasechain,
} from "./support.ts";

type Result = HandlerResult<JettonMinterState>;

function mint(state: JettonMinterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (state.admin === null || !msg.source.equals(state.admin)) throw new ContractThrow(JETTON_EXIT.notAdmin);
  const m = parseBody(decodeJettonMint, msg.body);
  const to = requireBasechain(m.to);
  // The reference sends master_msg unchanged with mode 1 (fees on top of ton_amount), bounceable.
  const out = {
    to: jettonWalletAddress(to, ctx.address),
    value: m.tonAmount,
    bounce: true,
    body: m.masterMsg,
    init: jettonWalletInit(to, ctx.address),
    mode: SendMode.PAY_FEES_SEPARATELY,
  };
  return done({ ...state, totalSupply: state.totalSupply + m.transfer.amount }, [out]);
}

function burnNotification(state: JettonMinterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const n = parseBody(decodeJettonBurnNotification, msg.body);
  if (n.sender === null || !msg.source.equals(jettonWalletAddress(n.sender, ctx.address))) {
    throw new ContractThrow(JETTON_EXIT.notWallet);
  }
  const next = { ...state, totalSupply: state.totalSupply - n.amount };
  if (n.responseDestination === null) return done(next);
  const out = {
    to: n.responseDestination,
    value: 0n,
    bounce: false,
    body: encodeJettonExcesses({ kind: "jetton.excesses", queryId: n.queryId }),
    mode: SendMode.CARRY_INBOUND_VALUE | SendMode.IGNORE_ERRORS,
  };
  return done(next, [out]);
}

/** TEP-89: the wallet address of `owner` (addr_none outside the basechain), optionally with the owner. */
function provideWalletAddress(state: JettonMinterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.value <= FORWARD_FEE + COMPUTE_FEE) throw new ContractThrow(JETTON_EXIT.discoveryGas);
  const p = parseBody(decodeJettonProvideWalletAddress, msg.body);
  const owner = p.ownerAddress;
  const walletAddress =
    owner !== null && owner.workChain === 0 ? jettonWalletAddress(owner, ctx.address) : null;
  const body = encodeJettonTakeWalletAddress({
    kind: "jetton.take_wallet_address",
    queryId: p.queryId,
    walletAddress,
    includesOwner: p.includeAddress,
    ownerAddress: p.includeAddress ? owner : null,
  });
  const out = { to: msg.source, value: 0n, bounce: true, body, mode: SendMode.CARRY_INBOUND_VALUE };
  return done(state, [out]);
}

export const jettonMinterHandler: ContractHandler<JettonMinterState> = {
  kind: "jetton/minter",
  receiveInternal(state, msg, ctx) {
    if (msg.bounced) return done(state);
    switch (opOf(msg.body)) {
      case null:
        return done(state);
      case JETTON_MINT_OP:
      case JETTON_MINT_OP_LEGACY:
        return mint(state, msg, ctx);
      case JETTON_OP.burn_notification:
        return burnNotification(state, msg, ctx);
      case JETTON_OP.provide_wallet_address:
        return provideWalletAddress(state, msg, ctx);
      default:
        throw new ContractThrow(JETTON_EXIT.wrongOp);
    }
  },
  stateToCell: (state) => jettonMinterDataWith(beginFast, state),
  getMethods: {
    get_jetton_data: (state) => [
      intItem(state.totalSupply),
      intItem(-1),
      addressItem(state.admin),
      cellItem(state.content),
      cellItem(state.walletCode),
    ],
    get_wallet_address: (_state, args, ctx) => [
      addressItem(jettonWalletAddress(addressArg(args), ctx.address)),
    ],
  },
};
