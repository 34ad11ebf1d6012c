/**
 * STON.fi DEX v1 storage layouts, code markers and address derivation (contracts.md §2.2, §1.2).
 * Data cells follow the real layouts bit for bit, so `contractAddress(0, init)` needs exactly what the real
 * contracts need; the code cells are devnet markers (../../chain/registry.ts), also stored in the router's
 * and pool's data where the real contracts keep `pool_code`, `lp_wallet_code` and `lp_account_code`.
 */
import { Address, beginCell, type Cell, type StateInit } from "@ton/core";
import type { Begin } from "../../chain/cell-writer.ts";
import { addressKey, cached, cellKey, contractAddressOf } from "../../chain/derivations.ts";
import { markerCode } from "../../chain/registry.ts";
import { orderWallets } from "../token-order.ts";

export const V1_ROUTER_CODE = markerCode("stonfi-v1/router");
export const V1_POOL_CODE = markerCode("stonfi-v1/pool");
export const V1_LP_ACCOUNT_CODE = markerCode("stonfi-v1/lp_account");
export const V1_LP_WALLET_CODE = markerCode("stonfi-v1/lp_wallet");

/** `EQAAAA…M9c`: the `0:000…0` addr_std the router writes as a new pool's protocol_fee_address (§2.2). */
export const HOLE_ADDRESS = new Address(0, Buffer.alloc(32));

/** Fees (bps) a router writes into every new pool (§2.2). */
export const V1_DEFAULT_FEES = { lpFee: 20, protocolFee: 10, refFee: 10 } as const;

/** Router `temp_upgrade` cell: `end_code:uint64 end_admin:uint64 pending_admin:MsgAddress ^pending_code`. */
export type V1TempUpgrade = {
  endCode: bigint;
  endAdmin: bigint;
  pendingAdmin: Address | null;
  pendingCode: Cell;
};

export type V1RouterState = {
  isLocked: boolean;
  admin: Address | null;
  lpWalletCode: Cell;
  poolCode: Cell;
  lpAccountCode: Cell;
  tempUpgrade: V1TempUpgrade;
};

export type V1PoolState = {
  router: Address;
  lpFee: number;
  protocolFee: number;
  refFee: number;
  token0: Address;
  token1: Address;
  totalSupply: bigint;
  collected0: bigint;
  collected1: bigint;
  protocolFeeAddress: Address | null;
  reserve0: bigint;
  reserve1: bigint;
  lpWalletCode: Cell;
  lpAccountCode: Cell;
};

export type V1LpAccountState = { user: Address; pool: Address; amount0: bigint; amount1: bigint };

/** `owner` is null for the addr_none wallet that holds a pool's locked first mint (§2.9). */
export type V1LpWalletState = { balance: bigint; owner: Address | null; pool: Address; walletCode: Cell };

const EMPTY_UPGRADE: V1TempUpgrade = {
  endCode: 0n,
  endAdmin: 0n,
  pendingAdmin: HOLE_ADDRESS,
  pendingCode: beginCell().endCell(),
};

export function tempUpgradeCell(u: V1TempUpgrade): Cell {
  return beginCell()
    .storeUint(u.endCode, 64)
    .storeUint(u.endAdmin, 64)
    .storeAddress(u.pendingAdmin)
    .storeRef(u.pendingCode)
    .endCell();
}

/** `is_locked:uint1 admin:MsgAddress ^lp_wallet_code ^pool_code ^lp_account_code ^temp_upgrade`. */
export const routerDataCell = (s: V1RouterState): Cell => routerDataCellWith(beginCell, s);
export function routerDataCellWith<C>(begin: Begin<C>, s: V1RouterState): C {
  return begin()
    .storeBit(s.isLocked)
    .storeAddress(s.admin)
    .storeRef(s.lpWalletCode)
    .storeRef(s.poolCode)
    .storeRef(s.lpAccountCode)
    .storeRef(tempUpgradeCell(s.tempUpgrade))
    .endCell();
}

export function parseRouterData(data: Cell): V1RouterState {
  const s = data.beginParse();
  const isLocked = s.loadBit();
  const admin = s.loadMaybeAddress();
  const lpWalletCode = s.loadRef();
  const poolCode = s.loadRef();
  const lpAccountCode = s.loadRef();
  const u = s.loadRef().beginParse();
  const tempUpgrade = {
    endCode: u.loadUintBig(64),
    endAdmin: u.loadUintBig(64),
    pendingAdmin: u.loadMaybeAddress(),
    pendingCode: u.loadRef(),
  };
  return { isLocked, admin, lpWalletCode, poolCode, lpAccountCode, tempUpgrade };
}

/** A fresh router: unlocked, no pending upgrade, the devnet marker codes for its children. */
export function v1RouterInit({ admin }: { admin: Address }): StateInit {
  const state: V1RouterState = {
    isLocked: false,
    admin,
    lpWalletCode: V1_LP_WALLET_CODE,
    poolCode: V1_POOL_CODE,
    lpAccountCode: V1_LP_ACCOUNT_CODE,
    tempUpgrade: EMPTY_UPGRADE,
  };
  return { code: V1_ROUTER_CODE, data: routerDataCell(state) };
}

/** Pool storage (§2.2): the same layout is the initial data the router derives the address from. */
export const poolDataCell = (p: V1PoolState): Cell => poolDataCellWith(beginCell, p);
export function poolDataCellWith<C>(begin: Begin<C>, p: V1PoolState): C {
  const inner = begin()
    .storeCoins(p.collected0)
    .storeCoins(p.collected1)
    .storeAddress(p.protocolFeeAddress)
    .storeCoins(p.reserve0)
    .storeCoins(p.reserve1)
    .endCell();
  return begin()
    .storeAddress(p.router)
    .storeUint(p.lpFee, 8)
    .storeUint(p.protocolFee, 8)
    .storeUint(p.refFee, 8)
    .storeAddress(p.token0)
    .storeAddress(p.token1)
    .storeCoins(p.totalSupply)
    .storeRef(inner)
    .storeRef(p.lpWalletCode)
    .storeRef(p.lpAccountCode)
    .endCell();
}

export function parsePoolData(data: Cell): V1PoolState {
  const s = data.beginParse();
  const head = {
    router: s.loadAddress(),
    lpFee: s.loadUint(8),
    protocolFee: s.loadUint(8),
    refFee: s.loadUint(8),
    token0: s.loadAddress(),
    token1: s.loadAddress(),
    totalSupply: s.loadCoins(),
  };
  const r = s.loadRef().beginParse();
  return {
    ...head,
    collected0: r.loadCoins(),
    collected1: r.loadCoins(),
    protocolFeeAddress: r.loadMaybeAddress(),
    reserve0: r.loadCoins(),
    reserve1: r.loadCoins(),
    lpWalletCode: s.loadRef(),
    lpAccountCode: s.loadRef(),
  };
}

export { orderWallets };

/** StateInits are memoised by their inputs (code cells by hash): routers and pools derive them per message. */
const inits = new Map<string, StateInit>();

/** The StateInit the router sends with `provide_lp` (§2.2, §2.5): default fees, empty reserves. */
export function v1PoolInit(router: RouterCodes & { address: Address }, a: Address, b: Address): StateInit {
  const codes = cellKey(router.poolCode) + cellKey(router.lpWalletCode) + cellKey(router.lpAccountCode);
  const key = `pool${codes}${addressKey(router.address)}${addressKey(a)}${addressKey(b)}`;
  return cached(inits, key, () => buildPoolInit(router, a, b));
}

function buildPoolInit(router: RouterCodes & { address: Address }, a: Address, b: Address): StateInit {
  const [token0, token1] = orderWallets(a, b);
  const data = poolDataCell({
    router: router.address,
    ...V1_DEFAULT_FEES,
    token0,
    token1,
    totalSupply: 0n,
    collected0: 0n,
    collected1: 0n,
    protocolFeeAddress: HOLE_ADDRESS,
    reserve0: 0n,
    reserve1: 0n,
    lpWalletCode: router.lpWalletCode,
    lpAccountCode: router.lpAccountCode,
  });
  return { code: router.poolCode, data };
}

type RouterCodes = Pick<V1RouterState, "poolCode" | "lpWalletCode" | "lpAccountCode">;

const DEVNET_CODES: RouterCodes = {
  poolCode: V1_POOL_CODE,
  lpWalletCode: V1_LP_WALLET_CODE,
  lpAccountCode: V1_LP_ACCOUNT_CODE,
};

/** Pool address of a devnet v1 router for two of its jetton wallets, in either order. */
export function v1PoolAddress(router: Address, walletA: Address, walletB: Address): Address {
  return contractAddressOf(v1PoolInit({ ...DEVNET_CODES, address: router }, walletA, walletB));
}

export const lpAccountDataCell = (a: V1LpAccountState): Cell => lpAccountDataCellWith(beginCell, a);
export function lpAccountDataCellWith<C>(begin: Begin<C>, a: V1LpAccountState): C {
  return begin()
    .storeAddress(a.user)
    .storeAddress(a.pool)
    .storeCoins(a.amount0)
    .storeCoins(a.amount1)
    .endCell();
}

export function parseLpAccountData(data: Cell): V1LpAccountState {
  const s = data.beginParse();
  return { user: s.loadAddress(), pool: s.loadAddress(), amount0: s.loadCoins(), amount1: s.loadCoins() };
}

/** LpAccount of `user` in `pool`: code = the pool's `lp_account_code`, amounts 0 (§2.2). */
export function lpAccountInit(user: Address, pool: Address, code: Cell): StateInit {
  return cached(inits, `lpAccount${cellKey(code)}${addressKey(user)}${addressKey(pool)}`, () => ({
    code,
    data: lpAccountDataCell({ user, pool, amount0: 0n, amount1: 0n }),
  }));
}

export const lpWalletDataCell = (w: V1LpWalletState): Cell => lpWalletDataCellWith(beginCell, w);
export function lpWalletDataCellWith<C>(begin: Begin<C>, w: V1LpWalletState): C {
  return begin()
    .storeCoins(w.balance)
    .storeAddress(w.owner)
    .storeAddress(w.pool)
    .storeRef(w.walletCode)
    .endCell();
}

export function parseLpWalletData(data: Cell): V1LpWalletState {
  const s = data.beginParse();
  return {
    balance: s.loadCoins(),
    owner: s.loadMaybeAddress(),
    pool: s.loadAddress(),
    walletCode: s.loadRef(),
  };
}

/** LP wallet of `owner` (null = addr_none) for the LP minter `pool`: balance 0 (§2.2). */
export function lpWalletInit(owner: Address | null, pool: Address, code: Cell): StateInit {
  return cached(inits, `lpWallet${cellKey(code)}${addressKey(owner)}${addressKey(pool)}`, () => ({
    code,
    data: lpWalletDataCell({ balance: 0n, owner, pool, walletCode: code }),
  }));
}

export const addressOf = (init: StateInit): Address => contractAddressOf(init);
