/**
 * `ChainState` on mainnet through toncenter's index API v3: the contracts' get-methods (dex/chain-state.ts
 * parses their stacks: every v1 and v2 pool type, routers, LpAccounts, vaults, jettons) over
 * `runGetMethod` (./get-methods.ts), plus TEP-64 token metadata with the off-chain part fetched
 * (../offchain-metadata.ts).
 *
 * When the off-chain JSON cannot be fetched (host down, too large, refused), the indexer's own copy is asked
 * for: `GET /api/v3/jetton/masters?address=…` answers `JettonMastersResponse { jetton_masters, address_book,
 * metadata }`, where `metadata[address].token_info[]` holds what toncenter's ton-metadata-fetcher read from
 * the same JSON: `name`, `symbol`, `description`, `image` as strings and every other key (`decimals`) under
 * `extra` (toncenter/ton-indexer `ton-index-go/index/models/{response,types}.go`,
 * `ton-metadata-fetcher/main.go` `getMetadataFromJson`).
 */
import type { Address } from "@ton/core";
import { z } from "zod";
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
  /** Ask the indexer's copy of the off-chain JSON when fetching it fails (default true). */
  readonly indexerMetadata?: boolean;
};

export const JETTON_MASTERS_PATH = "/api/v3/jetton/masters";

const tokenInfo = z
  .object({
    type: z.string().optional(),
    name: z.string().optional(),
    symbol: z.string().optional(),
    description: z.string().optional(),
    image: z.string().optional(),
    extra: z.record(z.unknown()).optional(),
  })
  .passthrough();
const jettonMastersResponse = z
  .object({
    metadata: z.record(z.object({ token_info: z.array(tokenInfo).nullish() }).passthrough()).nullish(),
  })
  .passthrough();

/** The indexer's token_info for a master, as the JSON object it was read from (null: none). */
export function indexerMetadataJson(
  answer: z.infer<typeof jettonMastersResponse>,
): Record<string, unknown> | null {
  for (const entry of Object.values(answer.metadata ?? {})) {
    const info = (entry.token_info ?? []).find((i) => i.type === undefined || i.type === "jetton_masters");
    if (info === undefined) continue;
    const { name, symbol, description, image } = info;
    return { ...info.extra, name, symbol, description, image };
  }
  return null;
}

export function toncenterChainState(options: ToncenterChainStateOptions): ToncenterChainState {
  const state = createChainState(toncenterGetMethodRunner(options));
  const fetchJson =
    typeof options.offchain === "function"
      ? options.offchain
      : offchainMetadataFetcher({ cache: options.cache, ...options.offchain });
  const indexer = options.indexerMetadata ?? true;
  const fromIndexer = async (master: Address): Promise<Record<string, unknown> | null> => {
    try {
      const query = { address: master.toRawString().toUpperCase(), limit: "1" };
      return indexerMetadataJson(await options.http.get(JETTON_MASTERS_PATH, query, jettonMastersResponse));
    } catch {
      return null; // a self-hosted indexer without the metadata fetcher, or an outage: unknown stays unknown
    }
  };
  return {
    ...state,
    async getTokenMetadata(master) {
      const data = await state.getJettonData(master);
      if (data === null) return null;
      const metadata = parseTokenMetadata(data.content);
      if (metadata.uri === null) return metadata;
      const json = (await fetchJson(metadata.uri)) ?? (indexer ? await fromIndexer(master) : null);
      return mergeOffchainMetadata(data.content, json);
    },
  };
}
