/**
 * Wiring of chain-state reads on mainnet: `ChainState` over toncenter v3 `runGetMethod`, through the same
 * toncenter client as the mainnet source (one rate limit for both), cached in the hot cache.
 */
import type { HotCache } from "../infra/cache/types.ts";
import type { Logger } from "../infra/log.ts";
import { type ToncenterChainState, toncenterChainState } from "../infra/toncenter/chain-state.ts";
import type { ToncenterHttp } from "../infra/toncenter/get-methods.ts";
import type { Config } from "./config.ts";

const HOUR_MS = 3_600_000;

export const MAINNET_CHAIN_STATE = {
  /**
   * Reserves, balances and deposits change with every transaction, and a user reading a wallet balance or
   * simulating on a pool the store has not seen expects them current; 10 s still answers a burst of identical
   * reads (a page listing many assets, repeated simulations) with one request.
   */
  stateTtlMs: 10_000,
  /** Addresses and pool types follow from code and fixed data: they do not change while a contract lives. */
  fixedTtlMs: 24 * HOUR_MS,
  offchain: {
    /** A metadata host that has not answered in 5 s is treated as down (the lookup is retried later). */
    timeoutMs: 5_000,
    /** Token metadata JSON is a few hundred bytes; 256 KiB leaves room for inline `image_data`. */
    maxBytes: 256 * 1024,
    /** Metadata rarely changes; a day's staleness is the price of not fetching it per lookup. */
    ttlMs: 24 * HOUR_MS,
    /** A failed host is asked again after 10 minutes. */
    failureTtlMs: 10 * 60_000,
  },
} as const;

export function mainnetChainStateOf(
  config: Config,
  http: ToncenterHttp,
  cache?: HotCache,
  logger?: Logger,
): ToncenterChainState {
  return toncenterChainState({
    http,
    ...(cache ? { cache } : { cacheMaxEntries: config.cacheMaxEntries }),
    ttlMs: MAINNET_CHAIN_STATE.stateTtlMs,
    fixedTtlMs: MAINNET_CHAIN_STATE.fixedTtlMs,
    offchain: {
      ...MAINNET_CHAIN_STATE.offchain,
      ...(logger
        ? { onFailure: (uri, reason) => logger.debug({ uri, reason }, "off-chain metadata not read") }
        : {}),
    },
  });
}
