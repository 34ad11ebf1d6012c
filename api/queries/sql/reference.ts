/**
 * Routers and assets over the `routers` and `assets` tables (FINAL: ReplacingMergeTree(version) keeps the
 * highest version per address). The store keeps on-chain facts only; the catalogue's curated fields
 * (priority, community, tags, USD prices, ...) have no column and get neutral values, stated below.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { AssetRecord, RawAddress, RouterRecord, RouterType } from "../../read-model.ts";
import { big, nstr, POOLS_WITH_ROUTER, str, TON_RAW, tokenAssetSql } from "./common.ts";

const ROUTER_TYPES: Readonly<Record<string, RouterType>> = {
  v1_constant_product: "ConstantProduct",
  v2_constant_product: "ConstantProduct",
  v2_stableswap: "StableSwap",
  v2_weighted_const_product: "WeightedConstProduct",
  v2_weighted_stableswap: "WeightedStableSwap",
  // v2_constant_sum has no router type in the SDK (and no mainnet router): such routers are left out.
};

const routerRow = z.object({
  address: str,
  dex: z.enum(["v1", "v2"]),
  pool_type: nstr,
  major: z.number().int(),
  minor: z.number().int().nullable(),
  pton_master: nstr,
  pton_wallet: nstr,
  is_locked: z.boolean().nullable(),
});

const ROUTERS_SQL = `SELECT address, dex, pool_type, major, minor, pton_master, pton_wallet, is_locked
FROM routers FINAL
WHERE (empty({addresses:Array(String)}) OR address IN {addresses:Array(String)})
ORDER BY address`;

/**
 * A router as the store knows it. `poolCreationEnabled` is the router's lock flag inverted; the pTON
 * version follows the DEX generation (v1 routers use pTON v1, v2 routers pTON v2.1), as the SDK pairs
 * them, once the router's pTON is known. The pTON master and wallet are learned from the router's TON
 * swaps and provisions: a router without a TON operation (e.g. a stableswap router of stablecoins) has
 * them null. What its get-methods say (minor version, type, lock) is null until they were read.
 */
function toRouter(r: z.infer<typeof routerRow>): RouterRecord | null {
  const routerType = r.pool_type === null ? null : ROUTER_TYPES[r.pool_type];
  if (routerType === undefined) return null;
  return {
    address: r.address,
    majorVersion: r.major,
    minorVersion: r.minor,
    routerType,
    poolCreationEnabled: r.is_locked === null ? null : !r.is_locked,
    ptonMaster: r.pton_master,
    ptonVersion: r.pton_master === null ? null : r.dex === "v1" ? "v1" : "v2_1",
    ptonWallet: r.pton_wallet,
  };
}

/** Every describable router, by address; `addresses` empty: all of them (callers never pass an empty filter). */
export async function selectRouters(store: Store, addresses: readonly RawAddress[] = []) {
  const rows = await store.query(ROUTERS_SQL, routerRow, { addresses });
  return rows.flatMap((r) => toRouter(r) ?? []);
}

const assetRow = z.object({
  address: str,
  kind: z.enum(["jetton", "ton"]),
  symbol: nstr,
  name: nstr,
  decimals: z.number().int().nullable(),
  image: nstr,
  total_supply: big.nullable(),
  in_pool: z.union([z.boolean(), z.number().transform((n) => n !== 0)]),
});

/**
 * Tradable assets: jettons and native TON (pTON masters and LP tokens have rows of their own kinds and are
 * not catalogue entries; a pool's pTON side is shown as TON). `in_pool`: some known pool trades the asset.
 * Native TON has no master whose metadata the processors could store: unless a `ton` row exists, it is
 * the chain's constant entry (symbol TON, name Toncoin, 9 decimals).
 */
const ASSET_ROWS = `(
  SELECT address, CAST(kind AS String) AS kind, symbol, name, decimals, image, total_supply
  FROM assets FINAL
  WHERE kind IN ('jetton', 'ton')
  UNION ALL
  SELECT '${TON_RAW}' AS address, 'ton' AS kind, CAST('TON' AS Nullable(String)) AS symbol,
    CAST('Toncoin' AS Nullable(String)) AS name, CAST(9 AS Nullable(UInt8)) AS decimals, CAST(NULL AS Nullable(String)) AS image,
    CAST(NULL AS Nullable(UInt256)) AS total_supply
  FROM system.one
  WHERE '${TON_RAW}' NOT IN (SELECT address FROM assets FINAL WHERE kind = 'ton')
)`;

const ASSETS_SQL = `SELECT address, kind, symbol, name, decimals, image, total_supply,
  address IN (
    SELECT arrayJoin([${tokenAssetSql(0)}, ${tokenAssetSql(1)}]) AS token FROM ${POOLS_WITH_ROUTER}
  ) AS in_pool
FROM ${ASSET_ROWS}
WHERE empty({addresses:Array(String)}) OR address IN {addresses:Array(String)}
ORDER BY address
SETTINGS join_use_nulls = 1`;

/**
 * Curated catalogue fields have no source in the facts: priority 0, not deprecated, community,
 * blacklisted, default-symbol or taxable, no prices. The one tag the store can vouch for is
 * `asset:liquidity:no` for an asset no known pool trades.
 */
function toAsset(a: z.infer<typeof assetRow>): AssetRecord {
  return {
    address: a.address,
    kind: a.kind === "ton" || a.address === TON_RAW ? "Ton" : "Jetton",
    symbol: a.symbol,
    ...(a.name === null ? {} : { displayName: a.name }),
    ...(a.image === null ? {} : { imageUrl: a.image }),
    decimals: a.decimals,
    ...(a.total_supply === null ? {} : { totalSupply: a.total_supply }),
    priority: 0,
    deprecated: false,
    community: false,
    blacklisted: false,
    defaultSymbol: false,
    taxable: false,
    tags: a.in_pool ? [] : ["asset:liquidity:no"],
  };
}

export async function selectAssets(store: Store, addresses: readonly RawAddress[] = []) {
  return (await store.query(ASSETS_SQL, assetRow, { addresses })).map(toAsset);
}

const metadataRow = assetRow.omit({ in_pool: true });

const METADATA_SQL = `SELECT address, kind, symbol, name, decimals, image, total_supply FROM ${ASSET_ROWS}
WHERE address IN {addresses:Array(String)}
ORDER BY address`;

/**
 * The metadata of `addresses` (name, symbol, decimals, image, supply) as `selectAssets` reads it, without
 * its catalogue tags: the export feeds read it with every request and need no pool scan for a tag.
 */
export async function selectAssetMetadata(
  store: Store,
  addresses: readonly RawAddress[],
): Promise<Omit<AssetRecord, "tags">[]> {
  if (addresses.length === 0) return [];
  return (await store.query(METADATA_SQL, metadataRow, { addresses })).map((a) => {
    const { tags: _, ...rest } = toAsset({ ...a, in_pool: false });
    return rest;
  });
}
