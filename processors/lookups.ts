/**
 * `CoreLookups` answered by a `ChainState` (devnet or mainnet get-methods). Every answer is an immutable
 * chain fact (a wallet's master, a pool's type, a token's metadata at first sight, a router's build), so
 * the core caches them; a failed read is `null` (the fact stays unknown) and is counted, never fatal.
 */
import { Address } from "@ton/core";
import { type ChainState, v1PoolState, v2PoolState } from "../dex/chain-state.ts";
import { parseTokenMetadata } from "../dex/jetton-metadata.ts";
import { type PoolData, PoolDataError, parsePoolData } from "../dex/pool-data.ts";
import { type PoolType, poolTypeOfV2Name, V2_CONTRACT_POOL_TYPES } from "../schemas/pool-types.ts";
import { rawOrNull as raw } from "../schemas/ton.ts";
import type { ChainPoolState, CoreLookups, RouterInfo } from "./core/index.ts";

export function chainStateLookups(
  state: ChainState | null,
  onError?: (what: string, error: unknown) => void,
): CoreLookups {
  async function safe<T>(what: string, f: (s: ChainState) => Promise<T | null>): Promise<T | null> {
    if (state === null) return null;
    try {
      return await f(state);
    } catch (error) {
      onError?.(what, error);
      return null;
    }
  }
  return {
    walletMaster: (wallet) =>
      safe(`wallet ${wallet}`, async (s) =>
        raw((await s.getJettonWalletData(Address.parseRaw(wallet)))?.master ?? null),
      ),
    jetton: (master) =>
      safe(`jetton ${master}`, async (s) => {
        const address = Address.parseRaw(master);
        const data = await s.getJettonData(address);
        if (data === null) return null;
        // With the off-chain JSON when the chain state fetches it (mainnet); else what the content states.
        const metadata = (await s.getTokenMetadata?.(address)) ?? parseTokenMetadata(data.content);
        return { metadata, totalSupply: data.totalSupply };
      }),
    router: (router, dex) =>
      safe(`router ${router}`, async (s): Promise<RouterInfo | null> => {
        const address = Address.parseRaw(router);
        if (dex === "v1") {
          const d = await s.getV1RouterData(address);
          if (d === null) return null;
          const base = {
            dex,
            pool_type: "v1_constant_product" as const,
            major: 1,
            minor: 0,
            development: "release",
          };
          return {
            ...base,
            pton_master: null,
            pton_wallet: null,
            is_locked: d.isLocked,
            admin: raw(d.admin),
          };
        }
        const [d, v] = [await s.getV2RouterData(address), await s.getRouterVersion(address)];
        const type = d === null ? null : poolTypeOfV2Name(d.dexType);
        if (d === null || v === null || type === null) return null;
        return {
          dex,
          pool_type: type,
          major: v.major,
          minor: v.minor,
          development: v.development,
          pton_master: null,
          pton_wallet: null,
          is_locked: d.isLocked,
          admin: raw(d.admin),
        };
      }),
    poolType: async (pool) =>
      (await safe(`pool ${pool}`, async (s) => {
        const d = await s.getV2PoolData(Address.parseRaw(pool));
        return d === null ? null : V2_CONTRACT_POOL_TYPES[d.poolType];
      })) ?? undefined,
    // only a chain state that tells an account's last transaction can pair a pool's state with an lt
    ...(state?.getLastTransaction === undefined && state?.getAccountState === undefined
      ? {}
      : {
          poolState: (pool: string, dex: "v1" | "v2") =>
            safe(`pool state ${pool}`, (s) => poolStateAsOfLastTransaction(s, pool, dex)),
        }),
  };
}

/**
 * A pool's state paired with its last transaction.
 *
 * Exact: when the chain state reads an account's data and last transaction in one answer
 * (`getAccountState`), the data cell is decoded (dex/pool-data.ts, the pool's type from `get_pool_type`,
 * fixed by its code) — it is the state that transaction left, whatever happens on the chain meanwhile.
 * A data cell of a layout this service does not know falls back to the get-methods below.
 *
 * Otherwise the lt is read before and after the get-methods, and the state is used only when both agree
 * (no transaction came in between), once more when they did not. The reads bypass every cache (a cached
 * state would pair with a newer lt). null when they still differ, when the chain state cannot tell an
 * account's last transaction, or the pool is not deployed.
 */
export async function poolStateAsOfLastTransaction(
  chain: ChainState,
  pool: string,
  dex: "v1" | "v2",
): Promise<ChainPoolState | null> {
  const s = chain.uncached?.() ?? chain;
  const address = Address.parseRaw(pool);
  if (s.getAccountState !== undefined) {
    const snapshot = await poolStateOfSnapshot(s, address, dex);
    if (snapshot !== "unknown layout") return snapshot;
  }
  if (s.getLastTransaction === undefined) return null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const before = await s.getLastTransaction(address);
    if (before === null) return null;
    const read = await poolStateNow(s, address, dex);
    if (read === null) return null;
    const after = await s.getLastTransaction(address);
    if (after === null || after.lt !== before.lt) continue;
    return { ...read, lt: before.lt, txHash: before.hash, utime: before.utime, mcSeqno: before.mcSeqno };
  }
  return null;
}

async function poolStateOfSnapshot(
  s: ChainState,
  address: Address,
  dex: "v1" | "v2",
): Promise<ChainPoolState | null | "unknown layout"> {
  const snapshot = await s.getAccountState!(address);
  const tx = snapshot?.lastTransaction ?? null;
  if (snapshot === null || tx === null || snapshot.status !== "active" || snapshot.data === null) return null;
  let type: PoolType;
  if (dex === "v1") type = "v1_constant_product";
  else {
    const name = await s.getV2PoolType(address);
    if (name === null) return null;
    type = V2_CONTRACT_POOL_TYPES[name];
  }
  let data: PoolData;
  try {
    data = parsePoolData(snapshot.data, type);
  } catch (error) {
    if (error instanceof PoolDataError) return "unknown layout";
    throw error;
  }
  const info = {
    router: raw(data.router),
    token0Wallet: raw(data.token0Wallet),
    token1Wallet: raw(data.token1Wallet),
  };
  return { state: data.state, info, lt: tx.lt, txHash: tx.hash, utime: tx.utime, mcSeqno: tx.mcSeqno };
}

async function poolStateNow(
  s: ChainState,
  address: Address,
  dex: "v1" | "v2",
): Promise<Pick<ChainPoolState, "state" | "info"> | null> {
  if (dex === "v2") {
    const d = await s.getV2PoolData(address);
    if (d === null) return null;
    const info = {
      router: raw(d.router),
      token0Wallet: raw(d.token0Wallet),
      token1Wallet: raw(d.token1Wallet),
    };
    return { state: v2PoolState(d), info };
  }
  // v1 `get_pool_data` has no LP supply (the pool's own `get_jetton_data`) and no router
  const [d, lp] = [await s.getV1PoolData(address), await s.getJettonData(address)];
  if (d === null || lp === null) return null;
  const info = { router: null, token0Wallet: raw(d.token0Wallet), token1Wallet: raw(d.token1Wallet) };
  return { state: v1PoolState(d, lp.totalSupply), info };
}
