/**
 * The devnet pTON v1 minter (contracts.md §2.11): `deploy_wallet#6cc43573 query_id owner` creates the
 * owner's pTON wallet (SDK attaches 1.05 TON); get-methods `get_wallet_address`, `get_jetton_data`.
 * Only the compiled v1 code is public, so the deploy message is the devnet's choice: the StateInit with an
 * empty body (a plain top-up) carrying the whole inbound value, which stays on the new wallet as its gas
 * reserve. pTON is not minted, so `get_jetton_data` reports supply 0, mintable, no admin (as pTON v2 does).
 */
import { beginCell } from "@ton/core";
import { decodePtonV1DeployWallet, PTON_V1_OP } from "../../../../dex/codecs/index.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
  SendMode,
} from "../../chain/types.ts";
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
} from "../jetton/support.ts";
import {
  type PtonV1MinterState,
  ptonV1MinterDataWith,
  ptonV1WalletAddress,
  ptonV1WalletInit,
} from "./codes.ts";

function deployWallet(state: PtonV1MinterState, msg: InboundInternal, ctx: ExecutionContext) {
  const d = parseBody(decodePtonV1DeployWallet, msg.body);
  const owner = requireBasechain(d.owner);
  const out = {
    to: ptonV1WalletAddress(owner, ctx.address),
    value: 0n,
    bounce: true,
    body: beginCell().endCell(),
    init: ptonV1WalletInit(owner, ctx.address),
    mode: SendMode.CARRY_INBOUND_VALUE,
  };
  return done(state, [out]);
}

export const ptonV1MinterHandler: ContractHandler<PtonV1MinterState> = {
  kind: "pton/v1-minter",
  receiveInternal(state, msg, ctx): HandlerResult<PtonV1MinterState> {
    if (msg.bounced) return done(state);
    switch (opOf(msg.body)) {
      case null:
        return done(state);
      case PTON_V1_OP.deploy_wallet:
        return deployWallet(state, msg, ctx);
      default:
        throw new ContractThrow(JETTON_EXIT.wrongOp);
    }
  },
  stateToCell: (state) => ptonV1MinterDataWith(beginFast, state),
  getMethods: {
    get_jetton_data: (state) => [
      intItem(0n),
      intItem(-1),
      addressItem(null),
      cellItem(state.content),
      cellItem(state.walletCode),
    ],
    get_wallet_address: (_state, args, ctx) => [
      addressItem(ptonV1WalletAddress(addressArg(args), ctx.address)),
    ],
  },
};
