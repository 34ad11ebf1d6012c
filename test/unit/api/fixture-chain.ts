/**
 * A fake ChainState for the API tests: deterministic addresses derived from labels (the same formula as
 * the fixtures' router wallets), balances and LpAccounts from tables, one v2 pool that only the chain knows,
 * and ChainStateError (account not active) for contracts it does not know.
 */
import { Address, beginCell } from "@ton/core";
import type { RawAddress } from "../../../api/read-model.ts";
import {
  ACCOUNT_NOT_ACTIVE,
  type ChainState,
  ChainStateError,
  type V2PoolData,
} from "../../../dex/chain-state.ts";
import { toRawAddress } from "../../../schemas/ton.ts";
import {
  ASSETS,
  CHAIN_ONLY_POOL,
  CHAIN_ONLY_STATE,
  P_CPI,
  POOLS,
  R_CPI,
  ROUTERS,
  raw,
  routerWallet,
  STON,
  TON,
  USDT,
  WALLET,
} from "./fixtures.ts";

const rawOf = (a: Address): RawAddress => toRawAddress(a);
const empty = beginCell().endCell();

export const WALLET_TON_BALANCE = 5_000_000_000n;
export const WALLET_USDT_BALANCE = 2_500_000n;
/** What the wallet's LpAccount of the v2 CPI pool holds: USDT (token0) waiting for its TON side. */
export const LP_ACCOUNT_AMOUNTS = { amount0: 1_000_000n, amount1: 0n };

export const jettonWalletOf = (master: RawAddress, owner: RawAddress): RawAddress =>
  raw(`wallet of ${owner} for ${master}`);
export const lpAccountOf = (pool: RawAddress, owner: RawAddress): RawAddress =>
  raw(`lp account ${pool} ${owner}`);
export const predictedPool = (router: RawAddress, a: RawAddress, b: RawAddress): RawAddress =>
  raw(`pool of ${router} for ${[a, b].sort().join(" ")}`);

const notActive = (a: Address, method: string) =>
  new ChainStateError(a, method, ACCOUNT_NOT_ACTIVE, "account is not active");

/** Jetton masters the chain knows: the catalogue's jettons and every pool (LP masters). */
const MASTERS = new Set([
  ...ASSETS.filter((a) => a.address !== TON).map((a) => a.address),
  ...POOLS.map((p) => p.address),
]);
const OWNERS = [WALLET, ...ROUTERS.map((r) => r.address)];

type WalletRow = { balance: bigint; owner: RawAddress; master: RawAddress };
function walletTable(): Map<RawAddress, WalletRow> {
  const rows = new Map<RawAddress, WalletRow>();
  for (const master of MASTERS) {
    for (const owner of OWNERS) rows.set(jettonWalletOf(master, owner), { balance: 0n, owner, master });
  }
  rows.set(jettonWalletOf(USDT, WALLET), { balance: WALLET_USDT_BALANCE, owner: WALLET, master: USDT });
  return rows;
}

function chainOnlyPool(): V2PoolData {
  const s = CHAIN_ONLY_STATE;
  return {
    poolType: "constant_product",
    isLocked: false,
    router: Address.parseRaw(R_CPI.address),
    totalSupplyLp: s.lpSupply,
    reserve0: s.reserve0,
    reserve1: s.reserve1,
    token0Wallet: Address.parseRaw(routerWallet(R_CPI, TON)),
    token1Wallet: Address.parseRaw(routerWallet(R_CPI, STON)),
    lpFee: Number(s.lpFeeBps),
    protocolFee: Number(s.protocolFeeBps),
    protocolFeeAddress: null,
    collectedToken0ProtocolFee: 0n,
    collectedToken1ProtocolFee: 0n,
  };
}

export function fakeChain(): ChainState {
  const wallets = walletTable();
  return {
    getBalance: async (a) => (rawOf(a) === WALLET ? WALLET_TON_BALANCE : 0n),
    getJettonData: async () => null,
    async getJettonWalletAddress(master, owner) {
      if (!MASTERS.has(rawOf(master))) throw notActive(master, "get_wallet_address");
      return Address.parseRaw(jettonWalletOf(rawOf(master), rawOf(owner)));
    },
    async getJettonWalletData(wallet) {
      const row = wallets.get(rawOf(wallet));
      if (row === undefined) return null;
      return {
        balance: row.balance,
        owner: Address.parseRaw(row.owner),
        master: Address.parseRaw(row.master),
        walletCode: empty,
      };
    },
    getV1RouterData: async () => null,
    getV2RouterData: async () => null,
    getRouterVersion: async () => null,
    getPoolAddress: async (router, a, b) =>
      Address.parseRaw(predictedPool(rawOf(router), rawOf(a), rawOf(b))),
    getVaultAddress: async (router, user, w) =>
      Address.parseRaw(raw(`vault ${rawOf(router)} ${rawOf(user)} ${rawOf(w)}`)),
    getV1PoolData: async () => null,
    getV2PoolData: async (pool) => (rawOf(pool) === CHAIN_ONLY_POOL ? chainOnlyPool() : null),
    getV2PoolType: async (pool) => (rawOf(pool) === CHAIN_ONLY_POOL ? chainOnlyPool().poolType : null),
    getLpAccountAddress: async (pool, owner) => Address.parseRaw(lpAccountOf(rawOf(pool), rawOf(owner))),
    async getLpAccountData(lpAccount) {
      if (rawOf(lpAccount) !== lpAccountOf(P_CPI.address, WALLET)) return null;
      return { user: Address.parseRaw(WALLET), pool: Address.parseRaw(P_CPI.address), ...LP_ACCOUNT_AMOUNTS };
    },
    getVaultData: async () => null,
  };
}
