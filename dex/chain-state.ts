/**
 * `ChainState`: typed get-method reads with the real contracts' return shapes (contracts.md §2.10, §3.10,
 * §3.11; TEP-74 for jettons). The stack parsing here is pure; the I/O is injected as a `GetMethodRunner`,
 * which the devnet implements over its emulated accounts and the mainnet source over `runGetMethod` of a
 * TON HTTP API. The API uses it for balances, jetton wallet addresses and fresh pool state.
 */

import { type Address, beginCell, type Cell, type TupleItem, TupleReader } from "@ton/core";
import {
  isV2ContractPoolType,
  V2_CONTRACT_POOL_TYPES,
  type V2ContractPoolType,
} from "../schemas/pool-types.ts";
import { type PoolState, poolState } from "./amm/types.ts";

/** Exit code a liteserver-style runner reports for an account that is missing or has no code. */
export const ACCOUNT_NOT_ACTIVE = -13;

export type GetMethodRun = { exitCode: number; stack: TupleItem[] };

/** The I/O edge: run one get-method, and read an account's TON balance. */
export type GetMethodRunner = {
  runGetMethod(address: Address, method: string, args: TupleItem[]): Promise<GetMethodRun>;
  getBalance(address: Address): Promise<bigint>;
  /** Reads a result stack; @ton/core's `TupleReader` when absent (the devnet's shares Address objects). */
  readStack?(stack: TupleItem[]): TupleReader;
};

/** A get-method failed (non-zero exit code) or returned a stack of the wrong shape. */
export class ChainStateError extends Error {
  override readonly name = "ChainStateError";
  constructor(
    readonly address: Address,
    readonly method: string,
    readonly exitCode: number | null,
    message: string,
  ) {
    super(`${method} on ${address.toRawString()}: ${message}`);
  }
}

export type JettonData = {
  totalSupply: bigint;
  mintable: boolean;
  admin: Address | null;
  content: Cell;
  walletCode: Cell;
};
export type JettonWalletData = { balance: bigint; owner: Address; master: Address; walletCode: Cell };

export type V1RouterData = {
  isLocked: boolean;
  admin: Address;
  tempUpgrade: Cell;
  poolCode: Cell;
  lpWalletCode: Cell;
  lpAccountCode: Cell;
};
export type V2RouterData = V1RouterData & { id: bigint; dexType: string; vaultCode: Cell };
export type RouterVersion = { major: number; minor: number; development: string };

export type V1PoolData = {
  reserve0: bigint;
  reserve1: bigint;
  token0Wallet: Address;
  token1Wallet: Address;
  lpFee: number;
  protocolFee: number;
  refFee: number;
  protocolFeeAddress: Address | null;
  collectedToken0ProtocolFee: bigint;
  collectedToken1ProtocolFee: bigint;
};

/** A v2 pool type as the contracts name it (`get_pool_type`). */
export type V2PoolType = V2ContractPoolType;

export type V2PoolData = {
  poolType: V2PoolType;
  isLocked: boolean;
  router: Address;
  totalSupplyLp: bigint;
  reserve0: bigint;
  reserve1: bigint;
  token0Wallet: Address;
  token1Wallet: Address;
  lpFee: number;
  protocolFee: number;
  protocolFeeAddress: Address | null;
  collectedToken0ProtocolFee: bigint;
  collectedToken1ProtocolFee: bigint;
  /** stableswap and weighted_stableswap. */
  amp?: bigint;
  /** weighted_stableswap. */
  rate?: bigint;
  /** weighted_const_product and weighted_stableswap (1e18 = 100%). */
  w0?: bigint;
  rateSetter?: Address | null;
};

export type LpAccountData = { user: Address; pool: Address; amount0: bigint; amount1: bigint };
export type VaultData = { owner: Address; tokenWallet: Address; router: Address; depositedAmount: bigint };

export type ChainState = {
  getBalance(address: Address): Promise<bigint>;
  getJettonData(master: Address): Promise<JettonData | null>;
  getJettonWalletAddress(master: Address, owner: Address): Promise<Address>;
  /** null when the wallet is not deployed (a zero balance, as wallets show it). */
  getJettonWalletData(wallet: Address): Promise<JettonWalletData | null>;
  getV1RouterData(router: Address): Promise<V1RouterData | null>;
  getV2RouterData(router: Address): Promise<V2RouterData | null>;
  getRouterVersion(router: Address): Promise<RouterVersion | null>;
  /** Router jetton wallets in any order (v1 and v2). */
  getPoolAddress(router: Address, walletA: Address, walletB: Address): Promise<Address>;
  getVaultAddress(router: Address, user: Address, tokenWallet: Address): Promise<Address>;
  getV1PoolData(pool: Address): Promise<V1PoolData | null>;
  getV2PoolData(pool: Address): Promise<V2PoolData | null>;
  getLpAccountAddress(pool: Address, owner: Address): Promise<Address>;
  getLpAccountData(lpAccount: Address): Promise<LpAccountData | null>;
  getVaultData(vault: Address): Promise<VaultData | null>;
};

export function addressArg(address: Address): TupleItem {
  return { type: "slice", cell: beginCell().storeAddress(address).endCell() };
}

function readSmall(r: TupleReader): number {
  return Number(r.readBigNumber());
}

/** A `slice` holding a string tail (dex_type, pool type, development tag). */
function readString(r: TupleReader): string {
  return r.readCell().beginParse().loadStringTail();
}

export function createChainState(runner: GetMethodRunner): ChainState {
  /** Runs a method; null for a non-active account when `missing` allows it; ChainStateError otherwise. */
  async function call<T>(
    address: Address,
    method: string,
    args: TupleItem[],
    parse: (r: TupleReader) => T,
    missing: "null" | "throw",
  ): Promise<T | null> {
    const { exitCode, stack } = await runner.runGetMethod(address, method, args);
    if (exitCode === ACCOUNT_NOT_ACTIVE && missing === "null") return null;
    if (exitCode !== 0 && exitCode !== 1) {
      throw new ChainStateError(address, method, exitCode, `exit code ${exitCode}`);
    }
    try {
      return parse(runner.readStack ? runner.readStack(stack) : new TupleReader(stack));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ChainStateError(address, method, exitCode, `unexpected stack: ${reason}`);
    }
  }
  const required = async <T>(
    address: Address,
    method: string,
    args: TupleItem[],
    parse: (r: TupleReader) => T,
  ) => (await call(address, method, args, parse, "throw")) as T;
  const optional = <T>(address: Address, method: string, parse: (r: TupleReader) => T) =>
    call(address, method, [], parse, "null");

  return {
    getBalance: (address) => runner.getBalance(address),
    getJettonData: (master) =>
      optional(master, "get_jetton_data", (r) => ({
        totalSupply: r.readBigNumber(),
        mintable: r.readBigNumber() !== 0n,
        admin: r.readAddressOpt(),
        content: r.readCell(),
        walletCode: r.readCell(),
      })),
    getJettonWalletAddress: (master, owner) =>
      required(master, "get_wallet_address", [addressArg(owner)], (r) => r.readAddress()),
    getJettonWalletData: (wallet) =>
      optional(wallet, "get_wallet_data", (r) => ({
        balance: r.readBigNumber(),
        owner: r.readAddress(),
        master: r.readAddress(),
        walletCode: r.readCell(),
      })),
    getV1RouterData: (router) =>
      optional(router, "get_router_data", (r) => ({
        isLocked: r.readBigNumber() !== 0n,
        admin: r.readAddress(),
        tempUpgrade: r.readCell(),
        poolCode: r.readCell(),
        lpWalletCode: r.readCell(),
        lpAccountCode: r.readCell(),
      })),
    getV2RouterData: (router) =>
      optional(router, "get_router_data", (r) => ({
        id: r.readBigNumber(),
        dexType: readString(r),
        isLocked: r.readBigNumber() !== 0n,
        admin: r.readAddress(),
        tempUpgrade: r.readCell(),
        poolCode: r.readCell(),
        lpWalletCode: r.readCell(),
        lpAccountCode: r.readCell(),
        vaultCode: r.readCell(),
      })),
    getRouterVersion: (router) =>
      optional(router, "get_router_version", (r) => ({
        major: readSmall(r),
        minor: readSmall(r),
        development: readString(r),
      })),
    getPoolAddress: (router, a, b) =>
      required(router, "get_pool_address", [addressArg(a), addressArg(b)], (r) => r.readAddress()),
    getVaultAddress: (router, user, tokenWallet) =>
      required(router, "get_vault_address", [addressArg(user), addressArg(tokenWallet)], (r) =>
        r.readAddress(),
      ),
    getV1PoolData: (pool) =>
      optional(pool, "get_pool_data", (r) => ({
        reserve0: r.readBigNumber(),
        reserve1: r.readBigNumber(),
        token0Wallet: r.readAddress(),
        token1Wallet: r.readAddress(),
        lpFee: readSmall(r),
        protocolFee: readSmall(r),
        refFee: readSmall(r),
        protocolFeeAddress: r.readAddressOpt(),
        collectedToken0ProtocolFee: r.readBigNumber(),
        collectedToken1ProtocolFee: r.readBigNumber(),
      })),
    async getV2PoolData(pool) {
      const type = await optional(pool, "get_pool_type", readString);
      if (type === null) return null;
      if (!isV2ContractPoolType(type)) {
        throw new ChainStateError(pool, "get_pool_type", 0, `unknown pool type '${type}'`);
      }
      const poolType = type;
      return optional(pool, "get_pool_data", (r) => {
        const common: V2PoolData = {
          poolType,
          isLocked: r.readBigNumber() !== 0n,
          router: r.readAddress(),
          totalSupplyLp: r.readBigNumber(),
          reserve0: r.readBigNumber(),
          reserve1: r.readBigNumber(),
          token0Wallet: r.readAddress(),
          token1Wallet: r.readAddress(),
          lpFee: readSmall(r),
          protocolFee: readSmall(r),
          protocolFeeAddress: r.readAddressOpt(),
          collectedToken0ProtocolFee: r.readBigNumber(),
          collectedToken1ProtocolFee: r.readBigNumber(),
        };
        if (poolType === "stableswap") return { ...common, amp: r.readBigNumber() };
        if (poolType === "weighted_const_product") return { ...common, w0: r.readBigNumber() };
        if (poolType === "weighted_stableswap") {
          return {
            ...common,
            amp: r.readBigNumber(),
            rate: r.readBigNumber(),
            w0: r.readBigNumber(),
            rateSetter: r.readAddressOpt(),
          };
        }
        return common;
      });
    },
    getLpAccountAddress: (pool, owner) =>
      required(pool, "get_lp_account_address", [addressArg(owner)], (r) => r.readAddress()),
    getLpAccountData: (lpAccount) =>
      optional(lpAccount, "get_lp_account_data", (r) => ({
        user: r.readAddress(),
        pool: r.readAddress(),
        amount0: r.readBigNumber(),
        amount1: r.readBigNumber(),
      })),
    getVaultData: (vault) =>
      optional(vault, "get_vault_data", (r) => ({
        owner: r.readAddress(),
        tokenWallet: r.readAddress(),
        router: r.readAddress(),
        depositedAmount: r.readBigNumber(),
      })),
  };
}

/** v1 `get_pool_data` has no LP supply: it comes from the pool's `get_jetton_data`. */
export function v1PoolState(data: V1PoolData, lpSupply: bigint): PoolState {
  return poolState({
    type: "v1_constant_product",
    reserve0: data.reserve0,
    reserve1: data.reserve1,
    lpSupply,
    lpFeeBps: BigInt(data.lpFee),
    protocolFeeBps: BigInt(data.protocolFee),
    refFeeBps: BigInt(data.refFee),
    collectedProtocolFee0: data.collectedToken0ProtocolFee,
    collectedProtocolFee1: data.collectedToken1ProtocolFee,
  });
}

export function v2PoolState(data: V2PoolData): PoolState {
  return poolState({
    type: V2_CONTRACT_POOL_TYPES[data.poolType],
    reserve0: data.reserve0,
    reserve1: data.reserve1,
    lpSupply: data.totalSupplyLp,
    lpFeeBps: BigInt(data.lpFee),
    protocolFeeBps: BigInt(data.protocolFee),
    refFeeBps: 0n,
    collectedProtocolFee0: data.collectedToken0ProtocolFee,
    collectedProtocolFee1: data.collectedToken1ProtocolFee,
    isLocked: data.isLocked,
    amp: data.amp ?? 0n,
    rate: data.rate ?? 0n,
    w0: data.w0 ?? 0n,
  });
}
