/** Asset catalogue queries (api.md §5.3, §8 wallet assets). */
import type { CatalogQueryInput } from "../../schemas/api/assets.ts";
import type { ApiDeps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { AssetRecord, RawAddress } from "../read-model.ts";
import { type WalletBalance, walletBalance, walletBalances } from "./balances.ts";
import { type Candidate, checkSortFields, compileCondition, select } from "./catalog.ts";
import { mentions } from "./condition.ts";

export type AssetView = { asset: AssetRecord; tags: string[]; wallet?: WalletBalance };

export const ASSET_SORT_FIELDS = [
  "popularity_index",
  "priority",
  "pair_priority",
  "symbol",
  "decimals",
] as const;
export const HAS_BALANCE = "asset:wallet_has_balance";
export const HAS_LIQUIDITY = "asset:wallet_has_liquidity_in_pool";

/** Stored tags plus the flag tags the booleans imply (a store may keep only one of the two). */
export function assetTags(a: AssetRecord): Set<string> {
  const tags = new Set(a.tags);
  if (a.deprecated) tags.add("asset:deprecated");
  if (a.blacklisted) tags.add("asset:blacklisted");
  if (a.defaultSymbol) tags.add("asset:default_symbol");
  if (a.taxable) tags.add("asset:taxable");
  return tags;
}

export async function getAsset(deps: ApiDeps, address: RawAddress): Promise<AssetRecord> {
  const [asset] = await deps.data.getAssets([address]);
  if (asset === undefined) throw new NotFoundError("asset", [{ field: "address", message: "unknown asset" }]);
  return asset;
}

/** Assets of the pools where `wallet` holds LP tokens. */
async function liquidityAssets(deps: ApiDeps, wallet: RawAddress): Promise<Set<RawAddress>> {
  const positions = await deps.data.getWalletLpPositions(wallet);
  const pools = await Promise.all(
    positions.filter((p) => p.lpBalance > 0n).map((p) => deps.data.getPool(p.pool)),
  );
  return new Set(pools.flatMap((p) => (p ? [p.token0, p.token1] : [])).filter((a) => a !== null));
}

function candidate(a: AssetRecord, tags: Set<string>, unconditional: boolean): Candidate<AssetRecord> {
  return {
    item: a,
    addresses: [a.address],
    names: [a.symbol ?? "", a.displayName ?? ""],
    tags,
    sortValues: {
      popularity_index: a.popularityIndex,
      priority: a.priority,
      pair_priority: a.pairPriority,
      symbol: a.symbol ?? undefined,
      decimals: a.decimals ?? undefined,
    },
    unconditional,
  };
}

export async function queryAssets(deps: ApiDeps, q: CatalogQueryInput): Promise<AssetView[]> {
  checkSortFields(q.sortBy, ASSET_SORT_FIELDS);
  const condition = compileCondition(q.condition);
  const all = await deps.data.listAssets();
  const wallet = q.wallet;
  const needBalances = wallet !== undefined && condition !== undefined && mentions(condition, HAS_BALANCE);
  const balances = needBalances ? await walletBalances(deps.chain, all, wallet) : undefined;
  const withLiquidity =
    wallet !== undefined && condition !== undefined && mentions(condition, HAS_LIQUIDITY)
      ? await liquidityAssets(deps, wallet)
      : new Set<RawAddress>();
  const unconditional = new Set(q.unconditional);
  const tagsOf = new Map<RawAddress, Set<string>>();
  const candidates = all.map((a) => {
    const tags = assetTags(a);
    if ((balances?.get(a.address)?.balance ?? 0n) > 0n) tags.add(HAS_BALANCE);
    if (withLiquidity.has(a.address)) tags.add(HAS_LIQUIDITY);
    tagsOf.set(a.address, tags);
    return candidate(a, tags, unconditional.has(a.address));
  });
  const chosen = select(candidates, q, condition);
  const chosenBalances =
    wallet === undefined ? undefined : (balances ?? (await walletBalances(deps.chain, chosen, wallet)));
  return chosen.map((a) => ({
    asset: a,
    tags: [...(tagsOf.get(a.address) ?? [])],
    wallet: chosenBalances?.get(a.address),
  }));
}

/** The whole catalogue with this wallet's balance and jetton-wallet address (api.md §8). */
export async function walletAssets(deps: ApiDeps, wallet: RawAddress): Promise<AssetView[]> {
  const all = await deps.data.listAssets();
  const balances = await walletBalances(deps.chain, all, wallet);
  return all.map((a) => ({ asset: a, tags: [...assetTags(a)], wallet: balances.get(a.address) }));
}

export async function walletAsset(
  deps: ApiDeps,
  wallet: RawAddress,
  address: RawAddress,
): Promise<AssetView> {
  const asset = await getAsset(deps, address);
  return { asset, tags: [...assetTags(asset)], wallet: await walletBalance(deps.chain, asset, wallet) };
}
