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
import type { TokenMetadata } from "./jetton-metadata.ts";

/** Exit code a liteserver-style runner reports for an account that is missing or has no code. */
export const ACCOUNT_NOT_ACTIVE = -13;

export type GetMethodRun = { exitCode: number; stack: TupleItem[] };

/** The I/O edge: run one get-method, and read an account's TON balance. */
export type GetMethodRunner = {
  runGetMethod(address: Address, method: string, args: TupleItem[]): Promise<GetMethodRun>;
  getBalance(address: Address): Promise<bigint>;
  /** Reads a result stack; @ton/core's `TupleReader` when absent (the devnet's shares Address objects). */
  readStack?(stack: TupleItem[]): TupleReader;
  /** The account's last transaction as the chain has it now (never cached); null when it has none. */
  lastTransaction?(address: Address): Promise<LastTransaction | null>;
  /**
   * The account's status, data cell and last transaction from ONE answer (never cached), so the data is
   * exactly the state after that transaction; null when the source cannot tell them together now.
   */
  accountState?(address: Address): Promise<AccountSnapshot | null>;
  /** The same runner without its answer cache nor shared in-flight reads (every answer read now). */
  uncached?(): GetMethodRunner;
};

/** An account's last transaction: its lt and hash, and the block that committed it. */
export type LastTransaction = { lt: bigint; hash: string; utime: number; mcSeqno: number };

/** An account as one read saw it: its data is the state its last transaction left. */
export type AccountSnapshot = {
  status: "active" | "uninit" | "frozen" | "nonexist";
  /** The persistent data cell (null unless active). */
  data: Cell | null;
  /** null: the account has no transaction. */
  lastTransaction: LastTransaction | null;
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
  /**
   * TEP-64 metadata with the off-chain JSON read (an implementation with network access: mainnet); null when
   * the master is not deployed. Absent: only what the content cell states (`parseTokenMetadata`).
   */
  getTokenMetadata?(master: Address): Promise<TokenMetadata | null>;
  /** The account's last transaction now (absent: the runner cannot tell; null: the account has none). */
  getLastTransaction?(address: Address): Promise<LastTransaction | null>;
  /** Status, data and last transaction from one read (GetMethodRunner.accountState); absent: cannot tell. */
  getAccountState?(address: Address): Promise<AccountSnapshot | null>;
  /** A v2 pool's type (`get_pool_type`, fixed by its code); null when the pool is not deployed. */
  getV2PoolType(pool: Address): Promise<V2ContractPoolType | null>;
  /** The same reads, each answered now (no cache): for a state that must pair with `getLastTransaction`. */
  uncached?(): ChainState;
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

/**
 * Result fields of each get-method, in stack order (contracts.md §2.10, §3.10; TEP-74), so that a stack of
 * the wrong shape is reported by the field it failed on.
 */
const FIELDS = {
  jetton: ["total_supply", "mintable", "admin", "content", "wallet_code"],
  address: ["address"],
  wallet: ["balance", "owner", "master", "wallet_code"],
  v1Router: ["is_locked", "admin", "temp_upgrade", "pool_code", "lp_wallet_code", "lp_account_code"],
  v2Router: [
    "id",
    "dex_type",
    "is_locked",
    "admin",
    "temp_upgrade",
    "pool_code",
    "lp_wallet_code",
    "lp_account_code",
    "vault_code",
  ],
  version: ["major", "minor", "development"],
  v1Pool: [
    "reserve0",
    "reserve1",
    "token0_wallet",
    "token1_wallet",
    "lp_fee",
    "protocol_fee",
    "ref_fee",
    "protocol_fee_address",
    "collected_token0_protocol_fee",
    "collected_token1_protocol_fee",
  ],
  poolType: ["pool_type"],
  v2Pool: [
    "is_locked",
    "router",
    "total_supply_lp",
    "reserve0",
    "reserve1",
    "token0_wallet",
    "token1_wallet",
    "lp_fee",
    "protocol_fee",
    "protocol_fee_address",
    "collected_token0_protocol_fee",
    "collected_token1_protocol_fee",
    // then by type: stableswap amp; weighted_const_product w0; weighted_stableswap amp rate w0 rate_setter
    "amp | w0",
    "rate",
    "w0",
    "rate_setter",
  ],
  lpAccount: ["user", "pool", "amount0", "amount1"],
  vault: ["owner", "token_wallet", "router", "deposited_amount"],
} as const satisfies Record<string, readonly string[]>;

/** A reader that counts the items read, so a failure names the item it happened on. */
function counted(reader: TupleReader): { reader: TupleReader; read: () => number } {
  let n = 0;
  const proxy = new Proxy(reader, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string" || !prop.startsWith("read") || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        n++;
        return result;
      };
    },
  });
  return { reader: proxy, read: () => n };
}

export function createChainState(runner: GetMethodRunner): ChainState {
  /** Runs a method; null for a non-active account when `missing` allows it; ChainStateError otherwise. */
  async function call<T>(
    address: Address,
    method: string,
    args: TupleItem[],
    fields: readonly string[],
    parse: (r: TupleReader) => T,
    missing: "null" | "throw",
  ): Promise<T | null> {
    const { exitCode, stack } = await runner.runGetMethod(address, method, args);
    if (exitCode === ACCOUNT_NOT_ACTIVE && missing === "null") return null;
    if (exitCode !== 0 && exitCode !== 1) {
      throw new ChainStateError(address, method, exitCode, `exit code ${exitCode}`);
    }
    const r = counted(runner.readStack ? runner.readStack(stack) : new TupleReader(stack));
    try {
      return parse(r.reader);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const at = r.read();
      const field = fields[at] ?? "beyond the result";
      throw new ChainStateError(
        address,
        method,
        exitCode,
        `unexpected stack at item ${at} (${field}) of ${stack.length}: ${reason}`,
      );
    }
  }
  const required = async <T>(
    address: Address,
    method: string,
    args: TupleItem[],
    fields: readonly string[],
    parse: (r: TupleReader) => T,
  ) => (await call(address, method, args, fields, parse, "throw")) as T;
  const optional = <T>(
    address: Address,
    method: string,
    fields: readonly string[],
    parse: (r: TupleReader) => T,
  ) => call(address, method, [], fields, parse, "null");

  const { lastTransaction, accountState, uncached } = runner;
  async function v2PoolType(pool: Address): Promise<V2ContractPoolType | null> {
    const type = await optional(pool, "get_pool_type", FIELDS.poolType, readString);
    if (type === null) return null;
    if (!isV2ContractPoolType(type)) {
      throw new ChainStateError(pool, "get_pool_type", 0, `unknown pool type '${type}'`);
    }
    return type;
  }
  return {
    ...(lastTransaction === undefined
      ? {}
      : { getLastTransaction: (address: Address) => lastTransaction.call(runner, address) }),
    ...(accountState === undefined
      ? {}
      : { getAccountState: (address: Address) => accountState.call(runner, address) }),
    getV2PoolType: v2PoolType,
    ...(uncached === undefined ? {} : { uncached: () => createChainState(uncached.call(runner)) }),
    getBalance: (address) => runner.getBalance(address),
    getJettonData: (master) =>
      optional(master, "get_jetton_data", FIELDS.jetton, (r) => ({
        totalSupply: r.readBigNumber(),
        mintable: r.readBigNumber() !== 0n,
        admin: r.readAddressOpt(),
        content: r.readCell(),
        walletCode: r.readCell(),
      })),
    getJettonWalletAddress: (master, owner) =>
      required(master, "get_wallet_address", [addressArg(owner)], FIELDS.address, (r) => r.readAddress()),
    getJettonWalletData: (wallet) =>
      optional(wallet, "get_wallet_data", FIELDS.wallet, (r) => ({
        balance: r.readBigNumber(),
        owner: r.readAddress(),
        master: r.readAddress(),
        walletCode: r.readCell(),
      })),
    getV1RouterData: (router) =>
      optional(router, "get_router_data", FIELDS.v1Router, (r) => ({
        isLocked: r.readBigNumber() !== 0n,
        admin: r.readAddress(),
        tempUpgrade: r.readCell(),
        poolCode: r.readCell(),
        lpWalletCode: r.readCell(),
        lpAccountCode: r.readCell(),
      })),
    getV2RouterData: (router) =>
      optional(router, "get_router_data", FIELDS.v2Router, (r) => ({
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
      optional(router, "get_router_version", FIELDS.version, (r) => ({
        major: readSmall(r),
        minor: readSmall(r),
        development: readString(r),
      })),
    getPoolAddress: (router, a, b) =>
      required(router, "get_pool_address", [addressArg(a), addressArg(b)], FIELDS.address, (r) =>
        r.readAddress(),
      ),
    getVaultAddress: (router, user, tokenWallet) =>
      required(
        router,
        "get_vault_address",
        [addressArg(user), addressArg(tokenWallet)],
        FIELDS.address,
        (r) => r.readAddress(),
      ),
    getV1PoolData: (pool) =>
      optional(pool, "get_pool_data", FIELDS.v1Pool, (r) => ({
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
      const poolType = await v2PoolType(pool);
      if (poolType === null) return null;
      return optional(pool, "get_pool_data", FIELDS.v2Pool, (r) => {
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
      required(pool, "get_lp_account_address", [addressArg(owner)], FIELDS.address, (r) => r.readAddress()),
    getLpAccountData: (lpAccount) =>
      optional(lpAccount, "get_lp_account_data", FIELDS.lpAccount, (r) => ({
        user: r.readAddress(),
        pool: r.readAddress(),
        amount0: r.readBigNumber(),
        amount1: r.readBigNumber(),
      })),
    getVaultData: (vault) =>
      optional(vault, "get_vault_data", FIELDS.vault, (r) => ({
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
