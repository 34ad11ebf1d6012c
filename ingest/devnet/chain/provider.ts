/**
 * A @ton/core `ContractProvider` over the devnet, so the real @ston-fi/sdk contract wrappers run against it
 * unchanged: `chain.open(new DEX.v2_1.Router.CPI(addr))` resolves jetton wallets, pools and vaults through
 * the devnet contracts' get-methods exactly as it does through a liteserver. Sending goes through devnet
 * wallets (users sign nothing here), so `internal`/`external` are refused with a clear error.
 */
import {
  type Address,
  type Contract,
  type ContractProvider,
  type ContractState,
  type OpenedContract,
  openContract,
  type TupleItem,
} from "@ton/core";
import { DevnetTupleReader } from "./cell-reader.ts";
import type { Chain, GetMethodResult } from "./chain.ts";
import { rawAddress } from "./record.ts";
import { DevnetError } from "./types.ts";

/** Thrown by `get` for a non-zero exit code, like @ton/ton's clients ("Unable to execute get method"). */
export class GetMethodError extends Error {
  override readonly name = "GetMethodError";
  constructor(
    readonly address: Address,
    readonly method: string,
    readonly exitCode: number,
  ) {
    super(`get method ${method} on ${address.toRawString()} failed with exit code ${exitCode}`);
  }
}

export function chainProvider(chain: Chain, address: Address): ContractProvider {
  const provider: ContractProvider = {
    async getState(): Promise<ContractState> {
      const account = chain.account(address);
      const last =
        account && account.lastTxLt > 0n
          ? { lt: account.lastTxLt, hash: bigintHash(account.lastTxHash) }
          : null;
      const state: ContractState["state"] =
        account === undefined
          ? { type: "uninit" }
          : account.contract
            ? { type: "active", code: null, data: null }
            : { type: "uninit" };
      return { balance: account?.balance ?? 0n, extracurrency: null, last, state };
    },
    async get(name, args) {
      if (typeof name !== "string") throw new DevnetError("devnet get-methods are called by name");
      const { exitCode, stack } = runCached(chain, address, name, args);
      if (exitCode !== 0 && exitCode !== 1) throw new GetMethodError(address, name, exitCode);
      // TupleReader consumes its array: hand it a copy (the cached stack is shared).
      return { stack: new DevnetTupleReader([...stack]) };
    },
    async external() {
      throw new DevnetError("send devnet messages through a devnet wallet (Chain.sendExternal)");
    },
    async internal() {
      throw new DevnetError("send devnet messages through a devnet wallet (Chain.sendExternal)");
    },
    open<T extends Contract>(contract: T): OpenedContract<T> {
      return openOnChain(chain, contract);
    },
    async getTransactions() {
      throw new DevnetError("the devnet provider does not serve transaction history");
    },
  };
  return provider;
}

/**
 * `get_wallet_address(owner)` results, per chain: TEP-74 derives a wallet address from the minter's address,
 * its wallet code and the owner, none of which a devnet minter (jetton, pTON, STON.fi LP) ever changes, and
 * the @ston-fi/sdk wrappers ask for the same few wallets on every swap. Only successful runs are cached.
 */
const walletAddresses = new WeakMap<Chain, Map<string, Map<string, GetMethodResult>>>();

function runCached(chain: Chain, address: Address, name: string, args: TupleItem[]): GetMethodResult {
  const arg = args[0];
  if (name !== "get_wallet_address" || args.length !== 1 || arg?.type !== "slice" || arg.cell.level() !== 0) {
    return chain.runGetMethod(address, name, args);
  }
  let byMinter = walletAddresses.get(chain);
  if (byMinter === undefined) {
    byMinter = new Map();
    walletAddresses.set(chain, byMinter);
  }
  // Per minter (by its cached raw address), then per argument cell's own hash (level 0, checked above).
  const minter = rawAddress(address);
  let cache = byMinter.get(minter);
  if (cache === undefined) {
    cache = new Map();
    byMinter.set(minter, cache);
  }
  const key = arg.cell.hash(0).toString("latin1");
  let result = cache.get(key);
  if (result === undefined) {
    result = chain.runGetMethod(address, name, args);
    if (result.exitCode !== 0) return result;
    cache.set(key, result);
  }
  return result;
}

function bigintHash(hash: bigint): Buffer {
  return Buffer.from(hash.toString(16).padStart(64, "0"), "hex");
}

/** `client.open(contract)` for the devnet. */
export function openOnChain<T extends Contract>(chain: Chain, contract: T): OpenedContract<T> {
  return openContract(contract, ({ address }) => chainProvider(chain, address));
}
