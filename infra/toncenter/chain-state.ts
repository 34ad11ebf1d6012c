/**
 * `ChainState` on mainnet through toncenter's index API v3: the contracts' get-methods (dex/chain-state.ts
 * parses their stacks: every v1 and v2 pool type, routers, LpAccounts, vaults, jettons) over
 * `runGetMethod` (./get-methods.ts), plus TEP-64 token metadata with the off-chain part fetched
 * (../offchain-metadata.ts).
 */
import type { Address } from "@ton/core";
import { type ChainState, createChainState } from "../../dex/chain-state.ts";
import { mergeOffchainMetadata, parseTokenMetadata, type TokenMetadata } from "../../dex/jetton-metadata.ts";
import {
  type OffchainMetadataFetcher,
  type OffchainMetadataOptions,
  offchainMetadataFetcher,
} from "../offchain-metadata.ts";
import { type ToncenterRunnerOptions, toncenterGetMethodRunner } from "./get-methods.ts";

export type TokenMetadataReader = {
  /**
   * A jetton's TEP-64 metadata with the off-chain JSON read when the content points to one; null when the
   * master is not deployed. What the JSON would have stated stays null when it cannot be fetched.
   */
  getTokenMetadata(master: Address): Promise<TokenMetadata | null>;
};

export type ToncenterChainState = ChainState & TokenMetadataReader;

export type ToncenterChainStateOptions = ToncenterRunnerOptions & {
  readonly offchain: OffchainMetadataOptions | OffchainMetadataFetcher;
};

export function toncenterChainState(options: ToncenterChainStateOptions): ToncenterChainState {
  const state = createChainState(toncenterGetMethodRunner(options));
  const fetchJson =
    typeof options.offchain === "function"
      ? options.offchain
      : offchainMetadataFetcher({ cache: options.cache, ...options.offchain });
  return {
    ...state,
    async getTokenMetadata(master) {
      const data = await state.getJettonData(master);
      if (data === null) return null;
      const metadata = parseTokenMetadata(data.content);
      if (metadata.uri === null) return metadata;
      return mergeOffchainMetadata(data.content, await fetchJson(metadata.uri));
    },
  };
}
