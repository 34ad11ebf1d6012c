/**
 * Storage layouts, StateInits and address derivation of the devnet STON.fi v2 contracts, following
 * shared/reference/contracts.md §3.2 (router, pool, LpAccount, LpWallet, Vault data) and §1.2 (token0 is the
 * router wallet whose address cell hash is larger). Code references kept in the data are the devnet
 * marker cells of ./constants.ts, so every address derives exactly as the real contract derives it.
 */
import { type Address, beginCell, type Cell, type Slice, type StateInit } from "@ton/core";
import type { Begin } from "../../chain/cell-writer.ts";
import { addressKey, cached, contractAddressOf } from "../../chain/derivations.ts";
import { byIdentity2, byIdentity3 } from "../identity-cache.ts";
import { orderWallets } from "../token-order.ts";
import {
  DEFAULT_LP_FEE,
  DEFAULT_PROTOCOL_FEE,
  FP_ONE,
  V2_LP_ACCOUNT_CODE,
  V2_LP_WALLET_CODE,
  V2_POOL_CODE,
  V2_VAULT_CODE,
  type V2RouterType,
} from "./constants.ts";
import type { V2LpAccountState, V2LpWalletState, V2PoolState, V2RouterState, V2VaultState } from "./state.ts";

/** §1.2 token order (shared with v1). */
export const sortTokens = orderWallets;
export type { V2LpAccountState, V2LpWalletState, V2PoolState, V2RouterState, V2VaultState } from "./state.ts";

/** StateInits are memoised by their inputs: routers and pools derive them on every swap and provide. */
const inits = new Map<string, StateInit>();

/** Router data: `is_locked admin ^temp_upgrade ^[id ^lp_wallet ^pool ^lp_account ^vault] ^upgrade_pool_code`. */
/** `temp_upgrade` of a router with no pending upgrade: zero timers, no pending admin, empty code cells. */
export const TEMP_UPGRADE_CELL: Cell = beginCell()
  .storeUint(0, 64)
  .storeUint(0, 64)
  .storeUint(0, 64)
  .storeAddress(null)
  .storeRef(beginCell().endCell())
  .storeRef(beginCell().endCell())
  .endCell();

/** Router data: `is_locked admin ^temp_upgrade ^[id ^lp_wallet ^pool ^lp_account ^vault] ^upgrade_pool_code`. */
export const routerDataCell = (s: V2RouterState): Cell => routerDataCellWith(beginCell, s);
export function routerDataCellWith<C>(begin: Begin<C>, s: V2RouterState): C {
  const statics = begin()
    .storeUint(s.id, 64)
    .storeRef(V2_LP_WALLET_CODE)
    .storeRef(V2_POOL_CODE[s.type])
    .storeRef(V2_LP_ACCOUNT_CODE)
    .storeRef(V2_VAULT_CODE)
    .endCell();
  return begin()
    .storeBit(s.isLocked)
    .storeAddress(s.admin)
    .storeRef(TEMP_UPGRADE_CELL)
    .storeRef(statics)
    .storeRef(begin().endCell())
    .endCell();
}

export function parseRouterData(
  data: Cell,
  type: V2RouterType,
  minor: V2RouterState["minor"],
): V2RouterState {
  const s = data.beginParse();
  const isLocked = s.loadBit();
  const admin = s.loadAddress();
  s.loadRef();
  const id = s.loadRef().beginParse().loadUintBig(64);
  return { type, minor, id, isLocked, admin };
}

/** A fresh pool: every coin 0, template fees, no protocol-fee address, type defaults (§3.2). */
export function initialPoolState(
  type: V2RouterType,
  router: Address,
  walletA: Address,
  walletB: Address,
): V2PoolState {
  const [token0, token1] = sortTokens(walletA, walletB);
  return {
    type,
    router,
    token0,
    token1,
    isLocked: false,
    reserve0: 0n,
    reserve1: 0n,
    totalSupplyLp: 0n,
    collected0: 0n,
    collected1: 0n,
    protocolFeeAddress: null,
    lpFee: DEFAULT_LP_FEE,
    protocolFee: DEFAULT_PROTOCOL_FEE,
    amp: type === "stableswap" ? 1n : type === "weighted_stableswap" ? FP_ONE : 0n,
    rate: 0n,
    w0: 0n,
    rateSetter: null,
  };
}

/** Pool data in the storage layout of §3.2, with the type-specific fields after the fees. */
export const poolDataCell = (p: V2PoolState): Cell => poolDataCellWith(beginCell, p);
export function poolDataCellWith<C>(begin: Begin<C>, p: V2PoolState): C {
  const b = begin()
    .storeBit(p.isLocked)
    .storeCoins(p.reserve0)
    .storeCoins(p.reserve1)
    .storeCoins(p.totalSupplyLp)
    .storeCoins(p.collected0)
    .storeCoins(p.collected1)
    .storeAddress(p.protocolFeeAddress)
    .storeUint(p.lpFee, 16)
    .storeUint(p.protocolFee, 16);
  if (p.type === "stableswap") b.storeUint(p.amp, 32);
  if (p.type === "weighted_const_product") b.storeUint(p.w0, 64);
  if (p.type === "weighted_stableswap") {
    b.storeRef(
      begin()
        .storeUint(p.amp, 128)
        .storeUint(p.rate, 128)
        .storeUint(p.w0, 128)
        .storeAddress(p.rateSetter)
        .endCell(),
    );
  }
  const statics = begin()
    .storeAddress(p.router)
    .storeAddress(p.token0)
    .storeAddress(p.token1)
    .storeRef(V2_LP_WALLET_CODE)
    .storeRef(V2_LP_ACCOUNT_CODE)
    .endCell();
  return b.storeRef(statics).endCell();
}

function parseTypeFields(s: Slice, type: V2RouterType) {
  const none = { amp: 0n, rate: 0n, w0: 0n, rateSetter: null as Address | null };
  if (type === "stableswap") return { ...none, amp: s.loadUintBig(32) };
  if (type === "weighted_const_product") return { ...none, w0: s.loadUintBig(64) };
  if (type !== "weighted_stableswap") return none;
  const r = s.loadRef().beginParse();
  const amp = r.loadUintBig(128);
  const rate = r.loadUintBig(128);
  const w0 = r.loadUintBig(128);
  return { amp, rate, w0, rateSetter: r.loadMaybeAddress() };
}

export function parsePoolData(data: Cell, type: V2RouterType): V2PoolState {
  const s = data.beginParse();
  const head = {
    isLocked: s.loadBit(),
    reserve0: s.loadCoins(),
    reserve1: s.loadCoins(),
    totalSupplyLp: s.loadCoins(),
    collected0: s.loadCoins(),
    collected1: s.loadCoins(),
    protocolFeeAddress: s.loadMaybeAddress(),
    lpFee: s.loadUint(16),
    protocolFee: s.loadUint(16),
  };
  const typed = parseTypeFields(s, type);
  const st = s.loadRef().beginParse();
  const router = st.loadAddress();
  const token0 = st.loadAddress();
  const token1 = st.loadAddress();
  return { type, router, token0, token1, ...head, ...typed };
}

/** Per router type, `v2PoolInit` of (router, walletA, walletB) memoised by identity (../identity-cache.ts). */
const poolInitsByType = new Map<V2RouterType, (router: Address, a: Address, b: Address) => StateInit>();

export function v2PoolInit(
  router: Address,
  walletA: Address,
  walletB: Address,
  type: V2RouterType,
): StateInit {
  let byWallets = poolInitsByType.get(type);
  if (byWallets === undefined) {
    byWallets = byIdentity3((r: Address, a: Address, b: Address) =>
      cached(inits, `pool${type}${addressKey(r)}${addressKey(a)}${addressKey(b)}`, () => ({
        code: V2_POOL_CODE[type],
        data: poolDataCell(initialPoolState(type, r, a, b)),
      })),
    );
    poolInitsByType.set(type, byWallets);
  }
  return byWallets(router, walletA, walletB);
}

/** The pool of (walletA, walletB) in any order, as the router's `get_pool_address` derives it. */
export function v2PoolAddress(
  router: Address,
  walletA: Address,
  walletB: Address,
  type: V2RouterType,
): Address {
  return contractAddressOf(v2PoolInit(router, walletA, walletB, type));
}

export const lpAccountDataCell = (s: Pick<V2LpAccountState, "user" | "pool" | "amount0" | "amount1">): Cell =>
  lpAccountDataCellWith(beginCell, s);
export function lpAccountDataCellWith<C>(
  begin: Begin<C>,
  s: Pick<V2LpAccountState, "user" | "pool" | "amount0" | "amount1">,
): C {
  return begin()
    .storeAddress(s.user)
    .storeAddress(s.pool)
    .storeCoins(s.amount0)
    .storeCoins(s.amount1)
    .endCell();
}

export function parseLpAccountData(data: Cell): V2LpAccountState {
  const s = data.beginParse();
  const user = s.loadAddress();
  const pool = s.loadAddress();
  return { user, pool, amount0: s.loadCoins(), amount1: s.loadCoins(), destroyed: false };
}

export const v2LpAccountInit: (user: Address, pool: Address) => StateInit = byIdentity2((user, pool) =>
  cached(inits, `lpAccount${addressKey(user)}${addressKey(pool)}`, () => ({
    code: V2_LP_ACCOUNT_CODE,
    data: lpAccountDataCell({ user, pool, amount0: 0n, amount1: 0n }),
  })),
);

export const v2LpAccountAddress = (user: Address, pool: Address): Address =>
  contractAddressOf(v2LpAccountInit(user, pool));

export const lpWalletDataCell = (s: V2LpWalletState): Cell => lpWalletDataCellWith(beginCell, s);
export function lpWalletDataCellWith<C>(begin: Begin<C>, s: V2LpWalletState): C {
  return begin()
    .storeCoins(s.balance)
    .storeAddress(s.owner)
    .storeAddress(s.pool)
    .storeRef(V2_LP_WALLET_CODE)
    .endCell();
}

export function parseLpWalletData(data: Cell): V2LpWalletState {
  const s = data.beginParse();
  return { balance: s.loadCoins(), owner: s.loadAddress(), pool: s.loadAddress() };
}

export const v2LpWalletInit: (owner: Address, pool: Address) => StateInit = byIdentity2((owner, pool) =>
  cached(inits, `lpWallet${addressKey(owner)}${addressKey(pool)}`, () => ({
    code: V2_LP_WALLET_CODE,
    data: lpWalletDataCell({ balance: 0n, owner, pool }),
  })),
);

export const v2LpWalletAddress = (owner: Address, pool: Address): Address =>
  contractAddressOf(v2LpWalletInit(owner, pool));

export const vaultDataCell = (s: Pick<V2VaultState, "owner" | "token" | "router" | "deposited">): Cell =>
  vaultDataCellWith(beginCell, s);
export function vaultDataCellWith<C>(
  begin: Begin<C>,
  s: Pick<V2VaultState, "owner" | "token" | "router" | "deposited">,
): C {
  return begin()
    .storeAddress(s.owner)
    .storeAddress(s.token)
    .storeAddress(s.router)
    .storeCoins(s.deposited)
    .endCell();
}

export function parseVaultData(data: Cell): V2VaultState {
  const s = data.beginParse();
  const owner = s.loadAddress();
  const token = s.loadAddress();
  const router = s.loadAddress();
  return { owner, token, router, deposited: s.loadCoins(), destroyed: false };
}

/** Vault of (owner = referrer, token = the router's jetton wallet of the fee token) on `router` (§3.2). */
export const v2VaultInit: (router: Address, owner: Address, tokenWallet: Address) => StateInit = byIdentity3(
  (router, owner, tokenWallet) =>
    cached(inits, `vault${addressKey(router)}${addressKey(owner)}${addressKey(tokenWallet)}`, () => ({
      code: V2_VAULT_CODE,
      data: vaultDataCell({ owner, token: tokenWallet, router, deposited: 0n }),
    })),
);

export const v2VaultAddress = (router: Address, owner: Address, tokenWallet: Address): Address =>
  contractAddressOf(v2VaultInit(router, owner, tokenWallet));
