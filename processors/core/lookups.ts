/** What the processor core asks of the chain, as an interface (processors/lookups.ts answers it with ChainState). */
import type { PoolType } from "../../dex/amm/index.ts";
import type { TokenMetadata } from "../../dex/jetton-metadata.ts";
import type { RouterRow } from "../../schemas/facts.ts";

export type RouterInfo = Omit<RouterRow, "address" | "version">;

/** Immutable chain facts the transactions do not carry (answered by ChainState in production). */
export type CoreLookups = {
  /** The jetton master of a jetton (or pTON) wallet; null when unknown. */
  walletMaster(wallet: string): Promise<string | null>;
  jetton(master: string): Promise<{ metadata: TokenMetadata; totalSupply: bigint } | null>;
  router(router: string, dex: "v1" | "v2"): Promise<RouterInfo | null>;
  /** A v2 pool's type (`get_pool_type`); its data cannot tell constant_product from constant_sum. */
  poolType(pool: string): Promise<PoolType | undefined>;
};
