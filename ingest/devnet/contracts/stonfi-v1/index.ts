/**
 * Devnet STON.fi DEX v1: router, pool (also the LP minter), LpAccount and LP wallet (contracts.md §2).
 *
 *   registerStonfiV1(registry)            the four code cells in a CodeRegistry
 *   v1RouterInit({ admin })               a router to deploy with chain.deployGenesis
 *   v1PoolAddress(router, walletA, walletB)  pool of two router jetton wallets, either order (§1.2, §2.2)
 *   v1LpAccountAddress / v1LpWalletAddress   the pool's children
 *   v1SetFeesBody, v1CollectFeesBody, ...    admin → router bodies (§2.8), built with dex/codecs
 *
 * Ground truth (../../chain/truth.ts) is returned by the pool for swap, referral_payment,
 * liquidity_provide, liquidity_mint and liquidity_withdraw, and by the router for a swap it refuses.
 */
import type { Address, Cell } from "@ton/core";
import { encodeBody } from "../../../../dex/codecs/index.ts";
import { contractAddressOf } from "../../chain/derivations.ts";
import type { CodeRegistry } from "../../chain/registry.ts";
import { DevnetError, instantiate } from "../../chain/types.ts";
import {
  encodeStonfiV1CollectFees,
  encodeStonfiV1InitAdminUpgrade,
  encodeStonfiV1ResetPoolGas,
  encodeStonfiV1SetFees,
} from "../encode.ts";
import { v1LpAccountHandler } from "./lp-account.ts";
import { v1LpWalletHandler } from "./lp-wallet.ts";
import { v1PoolHandler } from "./pool.ts";
import { v1RouterHandler } from "./router.ts";
import {
  lpAccountInit,
  lpWalletInit,
  parseLpAccountData,
  parseLpWalletData,
  parsePoolData,
  parseRouterData,
  V1_LP_ACCOUNT_CODE,
  V1_LP_WALLET_CODE,
  V1_POOL_CODE,
  V1_ROUTER_CODE,
} from "./storage.ts";

export { LP_WALLET_THROW as V1_LP_WALLET_THROW, V1_THROW } from "./common.ts";
export { v1LpAccountHandler } from "./lp-account.ts";
export { v1LpWalletHandler } from "./lp-wallet.ts";
export { v1PoolHandler } from "./pool.ts";
export { v1RouterHandler } from "./router.ts";
export { V1_ADMIN_UPGRADE_DELAY, V1_CODE_UPGRADE_DELAY } from "./router-admin.ts";
export {
  HOLE_ADDRESS,
  orderWallets,
  V1_DEFAULT_FEES,
  V1_LP_ACCOUNT_CODE,
  V1_LP_WALLET_CODE,
  V1_POOL_CODE,
  V1_ROUTER_CODE,
  type V1LpAccountState,
  type V1LpWalletState,
  type V1PoolState,
  type V1RouterState,
  type V1TempUpgrade,
  v1PoolAddress,
  v1PoolInit,
  v1RouterInit,
} from "./storage.ts";

function dataOf(data: Cell | null, kind: string): Cell {
  if (data === null) throw new DevnetError(`${kind} deployed without data`);
  return data;
}

export function registerStonfiV1(registry: CodeRegistry): CodeRegistry {
  return registry
    .register(V1_ROUTER_CODE, ({ data }) =>
      instantiate(v1RouterHandler, parseRouterData(dataOf(data, "router"))),
    )
    .register(V1_POOL_CODE, ({ data }) => instantiate(v1PoolHandler, parsePoolData(dataOf(data, "pool"))))
    .register(V1_LP_ACCOUNT_CODE, ({ data }) =>
      instantiate(v1LpAccountHandler, parseLpAccountData(dataOf(data, "lp_account"))),
    )
    .register(V1_LP_WALLET_CODE, ({ data }) =>
      instantiate(v1LpWalletHandler, parseLpWalletData(dataOf(data, "lp_wallet"))),
    );
}

/** LpAccount of `user` in a devnet v1 pool (what `get_lp_account_address` returns). */
export function v1LpAccountAddress(pool: Address, user: Address): Address {
  return contractAddressOf(lpAccountInit(user, pool, V1_LP_ACCOUNT_CODE));
}

/** LP wallet of `owner` (null: the addr_none wallet holding the locked first mint). */
export function v1LpWalletAddress(pool: Address, owner: Address | null): Address {
  return contractAddressOf(lpWalletInit(owner, pool, V1_LP_WALLET_CODE));
}

export type V1SetFees = {
  queryId: bigint;
  lpFee: number;
  protocolFee: number;
  refFee: number;
  protocolFeeAddress: Address | null;
  /** The pool's two router jetton wallets, any order. */
  wallet0: Address;
  wallet1: Address;
};

/** Admin → router `set_fees` (§2.8): the pool accepts each fee in 0..100 bps. */
export function v1SetFeesBody(x: V1SetFees): Cell {
  const { queryId, lpFee, protocolFee, refFee, protocolFeeAddress } = x;
  return encodeStonfiV1SetFees({
    kind: "stonfi.v1.set_fees",
    queryId,
    lpFee,
    protocolFee,
    refFee,
    protocolFeeAddress,
    jettonWallet0: x.wallet0,
    jettonWallet1: x.wallet1,
  });
}

/** Admin → router `collect_fees` for the pool of two router wallets (§2.8). */
export function v1CollectFeesBody(queryId: bigint, wallet0: Address, wallet1: Address): Cell {
  return encodeStonfiV1CollectFees({
    kind: "stonfi.v1.collect_fees",
    queryId,
    jettonWallet0: wallet0,
    jettonWallet1: wallet1,
  });
}

/** Admin → router `reset_pool_gas` (§2.8). */
export function v1ResetPoolGasBody(queryId: bigint, wallet0: Address, wallet1: Address): Cell {
  return encodeStonfiV1ResetPoolGas({
    kind: "stonfi.v1.reset_pool_gas",
    queryId,
    jettonWallet0: wallet0,
    jettonWallet1: wallet1,
  });
}

/** Admin → router `lock` / `unlock`: a locked router refunds every transfer (`transfer_bounce_locked`). */
export function v1LockBody(queryId: bigint, locked: boolean): Cell {
  return encodeBody({ kind: locked ? "stonfi.v1.lock" : "stonfi.v1.unlock", queryId });
}

/** Admin → router `init_admin_upgrade` (2-day timelock, then `finalize_upgrades`). */
export function v1InitAdminUpgradeBody(queryId: bigint, newAdmin: Address): Cell {
  return encodeStonfiV1InitAdminUpgrade({ kind: "stonfi.v1.init_admin_upgrade", queryId, newAdmin });
}
