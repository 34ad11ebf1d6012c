/**
 * The devnet pTON v2.1 minter (contracts.md §3.11; [pton-src] 2.1.0 `contracts/minter.fc`, `minter/msgs/any.fc`,
 * `minter/get.fc`): `deploy_wallet(query_id, owner, excesses)` needs `value > 3 × fwd_fee + 0.04 TON` (83),
 * both addresses in the basechain (85), and sends `internal_deploy(query_id, excesses)` with the wallet's
 * StateInit and everything above the minter's 0.01 TON reserve; TEP-89 `provide_wallet_address` is answered
 * the same way. Get-methods: `get_jetton_data` = (0, -1, addr_none, content, wallet_code),
 * `get_wallet_address(owner)` (85 outside the basechain), `get_version` = (2, 1, development).
 */
import { beginCell } from "@ton/core";
import {
  decodeJettonProvideWalletAddress,
  decodePtonV2DeployWallet,
  JETTON_OP,
  PTON_V2_OP,
} from "../../../../dex/codecs/index.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import { FORWARD_FEE } from "../../chain/fees.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type HandlerResult,
  type InboundInternal,
} from "../../chain/types.ts";
import { encodeJettonTakeWalletAddress, encodePtonV2InternalDeploy } from "../encode.ts";
import {
  addressArg,
  addressItem,
  cellItem,
  done,
  intItem,
  opOf,
  parseBody,
  requireBasechain,
} from "../jetton/support.ts";
import {
  type PtonV2MinterState,
  ptonV2MinterDataWith,
  ptonV2WalletAddress,
  ptonV2WalletInit,
} from "./codes.ts";
import {
  PTON_STORAGE_RESERVE,
  PTON_V2_DEPLOY_GAS,
  PTON_V2_EXIT,
  PTON_V2_VERSION,
  spendableKeepingOld,
} from "./support.ts";

type Result = HandlerResult<PtonV2MinterState>;

function deployWallet(state: PtonV2MinterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.value <= 3n * FORWARD_FEE + PTON_V2_DEPLOY_GAS)
    throw new ContractThrow(PTON_V2_EXIT.insufficientGas);
  const d = parseBody(decodePtonV2DeployWallet, msg.body);
  const owner = requireBasechain(d.owner, PTON_V2_EXIT.wrongWorkchain);
  const excessesAddress = requireBasechain(d.excessesAddress, PTON_V2_EXIT.wrongWorkchain);
  const out = {
    to: ptonV2WalletAddress(owner, ctx.address),
    value: spendableKeepingOld(ctx, msg.value, PTON_STORAGE_RESERVE),
    bounce: true,
    body: encodePtonV2InternalDeploy({
      kind: "pton.v2.internal_deploy",
      queryId: d.queryId,
      excessesAddress,
    }),
    init: ptonV2WalletInit(owner, ctx.address),
  };
  return done(state, [out]);
}

function provideWalletAddress(state: PtonV2MinterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const p = parseBody(decodeJettonProvideWalletAddress, msg.body);
  const owner = p.ownerAddress;
  const body = encodeJettonTakeWalletAddress({
    kind: "jetton.take_wallet_address",
    queryId: p.queryId,
    walletAddress: owner !== null && owner.workChain === 0 ? ptonV2WalletAddress(owner, ctx.address) : null,
    includesOwner: p.includeAddress,
    ownerAddress: p.includeAddress ? owner : null,
  });
  const value = spendableKeepingOld(ctx, msg.value, PTON_STORAGE_RESERVE);
  return done(state, [{ to: msg.source, value, bounce: true, body }]);
}

function walletAddressOf(args: Parameters<typeof addressArg>[0], minter: ExecutionContext["address"]) {
  const owner = addressArg(args);
  if (owner.workChain !== 0) throw new ContractThrow(PTON_V2_EXIT.wrongWorkchain);
  return ptonV2WalletAddress(owner, minter);
}

export const ptonV2MinterHandler: ContractHandler<PtonV2MinterState> = {
  kind: "pton/v2-minter",
  receiveInternal(state, msg, ctx) {
    if (opOf(msg.body) === null || msg.bounced) return done(state);
    if (msg.source.workChain !== 0) throw new ContractThrow(PTON_V2_EXIT.wrongWorkchain);
    switch (opOf(msg.body)) {
      case PTON_V2_OP.deploy_wallet:
        return deployWallet(state, msg, ctx);
      case JETTON_OP.provide_wallet_address:
        return provideWalletAddress(state, msg, ctx);
      default:
        throw new ContractThrow(PTON_V2_EXIT.wrongOp);
    }
  },
  stateToCell: (state) => ptonV2MinterDataWith(beginFast, state),
  getMethods: {
    get_jetton_data: (state) => [
      intItem(0n),
      intItem(-1),
      addressItem(null),
      cellItem(state.content),
      cellItem(state.walletCode),
    ],
    get_wallet_address: (_state, args, ctx) => [addressItem(walletAddressOf(args, ctx.address))],
    get_version: () => [
      intItem(PTON_V2_VERSION.major),
      intItem(PTON_V2_VERSION.minor),
      { type: "slice", cell: beginCell().storeStringTail(PTON_V2_VERSION.development).endCell() },
    ],
  },
};
