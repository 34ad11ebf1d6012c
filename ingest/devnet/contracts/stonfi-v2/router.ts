/**
 * The devnet STON.fi DEX v2 router, one per pool type, v2.1 or v2.2 build (shared/reference/contracts.md
 * §3.1–§3.6, §3.8, §3.10, §3.12). Entry point for swaps and provides (`transfer_notification` from its
 * jetton or pTON wallets), executor of the pools' `pay_to` / `pay_vault` and the vaults' `vault_pay_to`,
 * and the admin's gateway to its pools. Bounced messages are ignored, as the v2 router does (§11.2).
 */
import { type Address, beginCell, type Cell, type TupleItem } from "@ton/core";
import { JETTON_OP, STONFI_V2_OP, STONFI_V2_VAULT_OP } from "../../../../dex/codecs/index.ts";
import { preloadOp, readCell } from "../../chain/cell-reader.ts";
import { beginFast } from "../../chain/cell-writer.ts";
import {
  type ContractHandler,
  ContractThrow,
  type ExecutionContext,
  type GetMethod,
  type HandlerResult,
  type InboundInternal,
} from "../../chain/types.ts";
import { V2_ERROR, V2_LP_ACCOUNT_CODE, V2_LP_WALLET_CODE, V2_POOL_CODE, V2_VAULT_CODE } from "./constants.ts";
import { argAddress, parseOr9, stackAddress, stackCell, stackInt, stackString } from "./messages.ts";
import { adminOp } from "./router-admin.ts";
import { routeDexMessage } from "./router-dex.ts";
import { onPayTo, onPayVault, onVaultPayTo } from "./router-payout.ts";
import {
  routerDataCellWith,
  TEMP_UPGRADE_CELL,
  type V2RouterState,
  v2PoolAddress,
  v2VaultAddress,
} from "./storage.ts";

type Result = HandlerResult<V2RouterState>;
type Handler = (state: V2RouterState, msg: InboundInternal, ctx: ExecutionContext) => Result;

/**
 * §3.4: the notification must carry a reference after `from_user`; the first ref is the command (the
 * Either bit itself is not inspected). The sending wallet is the offered token.
 */
function onNotification(state: V2RouterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  const { queryId, amount, caller, payload } = parseOr9(() => {
    const s = readCell(msg.body);
    s.skip(32);
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const caller = s.loadMaybeAddress();
    return { queryId, amount, caller, payload: s.remainingRefs > 0 ? s.loadRef() : null };
  });
  return routeDexMessage({
    state,
    ctx,
    queryId,
    jettonWallet: msg.source,
    availableGas: msg.value,
    amount,
    caller,
    payload,
  });
}

const HANDLERS: Readonly<Record<number, Handler>> = {
  [JETTON_OP.transfer_notification]: onNotification,
  [STONFI_V2_OP.pay_to]: onPayTo,
  [STONFI_V2_OP.pay_vault]: onPayVault,
  [STONFI_V2_VAULT_OP.vault_pay_to]: onVaultPayTo,
};

function receiveInternal(state: V2RouterState, msg: InboundInternal, ctx: ExecutionContext): Result {
  if (msg.bounced) return { exitCode: 0, state, outMessages: [] };
  if (msg.body.bits.length < 32) throw new ContractThrow(V2_ERROR.empty_not_allowed);
  const op = preloadOp(msg.body);
  const handler = HANDLERS[op];
  if (handler) return handler(state, msg, ctx);
  const admin = adminOp(op);
  if (admin === undefined) throw new ContractThrow(V2_ERROR.wrong_op);
  if (!msg.source.equals(state.admin)) throw new ContractThrow(V2_ERROR.invalid_caller);
  return admin(state, msg, ctx);
}

function poolAddressGetter(state: V2RouterState, args: TupleItem[], ctx: { address: Address }): TupleItem[] {
  const a = argAddress(args, 0);
  const b = argAddress(args, 1);
  if (a.workChain !== 0 || b.workChain !== 0) throw new ContractThrow(V2_ERROR.wrong_workchain);
  if (a.equals(b)) throw new ContractThrow(V2_ERROR.wrong_address);
  return [stackAddress(v2PoolAddress(ctx.address, a, b, state.type))];
}

const EMPTY_CELL: Cell = beginCell().endCell();

const getMethods: Readonly<Record<string, GetMethod<V2RouterState>>> = {
  get_pool_address: poolAddressGetter,
  get_vault_address: (_state, args, ctx) => [
    stackAddress(v2VaultAddress(ctx.address, argAddress(args, 0), argAddress(args, 1))),
  ],
  get_router_data: (s) => [
    stackInt(s.id),
    stackString(s.type),
    stackInt(s.isLocked),
    stackAddress(s.admin),
    stackCell(TEMP_UPGRADE_CELL),
    stackCell(V2_POOL_CODE[s.type]),
    stackCell(V2_LP_WALLET_CODE),
    stackCell(V2_LP_ACCOUNT_CODE),
    stackCell(V2_VAULT_CODE),
  ],
  // v2.2.0 builds return (2, 2, "release"); v2.1 builds differ only in the minor (§3.10, §3.12)
  get_router_version: (s) => [stackInt(2), stackInt(s.minor), stackString("release")],
  get_upgraded_pool_code: () => [stackCell(EMPTY_CELL)],
};

export const v2RouterHandler: ContractHandler<V2RouterState> = {
  kind: "stonfi-v2/router",
  receiveInternal,
  stateToCell: (state) => routerDataCellWith(beginFast, state),
  getMethods,
};
