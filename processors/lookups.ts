/**
 * `CoreLookups` answered by a `ChainState` (devnet or mainnet get-methods). Every answer is an immutable
 * chain fact (a wallet's master, a pool's type, a token's metadata at first sight, a router's build), so
 * the core caches them; a failed read is `null` (the fact stays unknown) and is counted, never fatal.
 */
import { Address } from "@ton/core";
import type { ChainState } from "../dex/chain-state.ts";
import { parseTokenMetadata } from "../dex/jetton-metadata.ts";
import { poolTypeOfV2Name, V2_CONTRACT_POOL_TYPES } from "../schemas/pool-types.ts";
import { rawOrNull as raw } from "../schemas/ton.ts";
import type { CoreLookups, RouterInfo } from "./core/index.ts";

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
  };
}
