/** Asset DTOs: AssetInfo (api.md §4.1) and AssetInfoV2 (§4.2). */
import type { AssetInfoDto, AssetInfoV2Dto } from "../../schemas/api/objects.ts";
import type { AssetRecord } from "../read-model.ts";
import type { WalletBalance } from "../views.ts";
import { compact, friendly } from "./common.ts";

function walletFields(w: WalletBalance | undefined) {
  return {
    balance: w?.balance?.toString(),
    wallet_address: w?.jettonWallet ? friendly(w.jettonWallet) : undefined,
  };
}

export function assetDto(a: AssetRecord, tags: readonly string[] = a.tags, w?: WalletBalance): AssetInfoDto {
  return compact({
    contract_address: friendly(a.address),
    symbol: a.symbol,
    display_name: a.displayName,
    image_url: a.imageUrl,
    decimals: a.decimals,
    kind: a.kind,
    priority: a.priority,
    deprecated: a.deprecated,
    community: a.community,
    blacklisted: a.blacklisted,
    default_symbol: a.defaultSymbol,
    taxable: a.taxable,
    tags: [...tags],
    dex_price_usd: a.dexPriceUsd,
    // Deprecated duplicates still read by older clients (api.md §4.1).
    dex_usd_price: a.dexPriceUsd,
    third_party_price_usd: a.thirdPartyPriceUsd,
    third_party_usd_price: a.thirdPartyPriceUsd,
    popularity_index: a.popularityIndex,
    ...walletFields(w),
    custom_payload_api_uri: a.customPayloadApiUri,
    extensions: a.extensions ? [...a.extensions] : undefined,
    scale: a.scale,
  });
}

export function assetV2Dto(a: AssetRecord, tags: readonly string[], w?: WalletBalance): AssetInfoV2Dto {
  return compact({
    contract_address: friendly(a.address),
    kind: a.kind,
    meta: compact({
      decimals: a.decimals ?? undefined,
      symbol: a.symbol ?? undefined,
      display_name: a.displayName,
      image_url: a.imageUrl,
      custom_payload_api_uri: a.customPayloadApiUri,
    }),
    tags: [...tags],
    dex_price_usd: a.dexPriceUsd,
    pair_priority: a.pairPriority,
    popularity_index: a.popularityIndex,
    ...walletFields(w),
    scale: a.scale,
    extensions: a.extensions ? [...a.extensions] : undefined,
  });
}
