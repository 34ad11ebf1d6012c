/** What the processor core asks of the chain, as an interface (processors/lookups.ts answers it with ChainState). */
import type { PoolState, PoolType } from "../../dex/amm/index.ts";
import type { TokenMetadata } from "../../dex/jetton-metadata.ts";
import type { RouterRow } from "../../schemas/facts.ts";
import type { PoolInfo } from "./pool-state.ts";

export type RouterInfo = Omit<RouterRow, "address" | "version">;

/** Immutable chain facts the transactions do not carry (answered by ChainState in production). */
export type CoreLookups = {
  /** The jetton master of a jetton (or pTON) wallet; null when unknown. */
  walletMaster(wallet: string): Promise<string | null>;
  jetton(master: string): Promise<{ metadata: TokenMetadata; totalSupply: bigint } | null>;
  router(router: string, dex: "v1" | "v2"): Promise<RouterInfo | null>;
  /** A v2 pool's type (`get_pool_type`); its data cannot tell constant_product from constant_sum. */
  poolType(pool: string): Promise<PoolType | undefined>;
  /**
   * A pool's state now, paired with the pool's last transaction when it was read (the state is exactly the
   * one after that transaction); null when the chain cannot say. Absent: pools are never re-read.
   */
  poolState?(pool: string, dex: "v1" | "v2"): Promise<ChainPoolState | null>;
};

/** A pool's state read from the chain, as of its last transaction (`lt`, `txHash`, in block `mcSeqno`). */
export type ChainPoolState = {
  state: PoolState;
  lt: bigint;
  txHash: string;
  utime: number;
  mcSeqno: number;
  info: PoolInfo;
};
