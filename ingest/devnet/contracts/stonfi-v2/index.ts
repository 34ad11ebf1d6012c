/**
 * Devnet STON.fi DEX v2 (v2.1 and v2.2): routers of the four mainnet pool types, their pools, LpAccounts,
 * LP wallets and referral Vaults, behaving at the message level like shared/reference/contracts.md §3.
 * This is the public API the market simulator codes against: code cells, StateInits and addresses, the
 * registration of every code cell, and the admin bodies it sends.
 */
import type { Address, Cell, StateInit } from "@ton/core";
import type { CodeRegistry } from "../../chain/registry.ts";
import { instantiate } from "../../chain/types.ts";
import {
  V2_LP_ACCOUNT_CODE,
  V2_LP_WALLET_CODE,
  V2_POOL_CODE,
  V2_ROUTER_CODE,
  V2_ROUTER_TYPES,
  V2_VAULT_CODE,
  type V2Minor,
  type V2RouterType,
} from "./constants.ts";
import { v2LpAccountHandler } from "./lp-account.ts";
import { v2LpWalletHandler } from "./lp-wallet.ts";
import { v2PoolHandler } from "./pool.ts";
import { v2RouterHandler } from "./router.ts";
import {
  parseLpAccountData,
  parseLpWalletData,
  parsePoolData,
  parseRouterData,
  parseVaultData,
  routerDataCell,
  type V2RouterState,
} from "./storage.ts";
import { v2VaultHandler } from "./vault.ts";

export {
  ACCOUNT_GONE,
  DEFAULT_LP_FEE,
  DEFAULT_PROTOCOL_FEE,
  V2_LP_ACCOUNT_CODE,
  V2_LP_WALLET_CODE,
  V2_POOL_CODE,
  V2_ROUTER_CODE,
  V2_ROUTER_TYPES,
  V2_VAULT_CODE,
  type V2Minor,
  type V2RouterType,
} from "./constants.ts";
export { v2LpAccountHandler } from "./lp-account.ts";
export { v2LpWalletHandler } from "./lp-wallet.ts";
export { v2PoolHandler } from "./pool.ts";
export { v2RouterHandler } from "./router.ts";
export {
  type PoolRef,
  v2SetFeesBody,
  v2SetParamsBody,
  v2UpdatePoolStatusBody,
} from "./router-admin.ts";
export {
  sortTokens,
  type V2LpAccountState,
  type V2LpWalletState,
  type V2PoolState,
  type V2RouterState,
  type V2VaultState,
  v2LpAccountAddress,
  v2LpAccountInit,
  v2LpWalletAddress,
  v2LpWalletInit,
  v2PoolAddress,
  v2PoolInit,
  v2VaultAddress,
  v2VaultInit,
} from "./storage.ts";
export { v2VaultHandler } from "./vault.ts";

/** StateInit of a v2 router of `type`, built as v2.`minor`, unlocked (§3.2). */
export function v2RouterInit(f: {
  id: bigint;
  type: V2RouterType;
  minor: V2Minor;
  admin: Address;
}): StateInit {
  const state: V2RouterState = { ...f, isLocked: false };
  return { code: V2_ROUTER_CODE[f.type][f.minor], data: routerDataCell(state) };
}

function dataOf(data: Cell | null): Cell {
  if (data === null) throw new Error("a STON.fi v2 StateInit always has data");
  return data;
}

/** Registers every v2 code cell: 8 routers (4 types × v2.1/v2.2), 4 pools, LpAccount, LP wallet, Vault. */
export function registerStonfiV2(registry: CodeRegistry): CodeRegistry {
  for (const type of V2_ROUTER_TYPES) {
    for (const minor of [1, 2] as const) {
      registry.register(V2_ROUTER_CODE[type][minor], ({ data }) =>
        instantiate(v2RouterHandler, parseRouterData(dataOf(data), type, minor)),
      );
    }
    registry.register(V2_POOL_CODE[type], ({ data }) =>
      instantiate(v2PoolHandler, parsePoolData(dataOf(data), type)),
    );
  }
  registry.register(V2_LP_ACCOUNT_CODE, ({ data }) =>
    instantiate(v2LpAccountHandler, parseLpAccountData(dataOf(data))),
  );
  registry.register(V2_LP_WALLET_CODE, ({ data }) =>
    instantiate(v2LpWalletHandler, parseLpWalletData(dataOf(data))),
  );
  return registry.register(V2_VAULT_CODE, ({ data }) =>
    instantiate(v2VaultHandler, parseVaultData(dataOf(data))),
  );
}
