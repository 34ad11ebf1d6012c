/**
 * Pool queries (api.md §5.4, §8 wallet pools). Pool lists show the store's state; a single pool, like a
 * simulation, shows the freshest state (hot cache first, see ./pool-state.ts).
 */
import { Address } from "@ton/core";
import { ChainStateError } from "../../dex/chain-state.ts";
import type { CatalogQueryInput } from "../../schemas/api/assets.ts";
import { toRawAddress } from "../../schemas/api/wire.ts";
import type { ApiDeps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { LpPositionRecord, PoolRecord, RawAddress } from "../read-model.ts";
import type { PoolView } from "../views.ts";
import { assetTags, HAS_BALANCE, HAS_LIQUIDITY } from "./assets.ts";
import { walletBalances } from "./balances.ts";
import { type Candidate, checkSortFields, compileCondition, select } from "./catalog.ts";
import { mentions } from "./condition.ts";
import { currentState, findPool } from "./pool-state.ts";
import { poolAllowed } from "./reference.ts";

/** The pool's token addresses that are known (a token is null until its master is). */
const tokensOf = (p: PoolRecord): RawAddress[] => [p.token0, p.token1].filter((a) => a !== null);

/** A pool plus, on wallet endpoints, the wallet's position in it. */
export const POOL_SORT_FIELDS = [
  "popularity_index",
  "lp_total_supply_usd",
  "volume_24h_usd",
  "apy_1d",
] as const;

export async function listPools(deps: ApiDeps, dexV2?: boolean): Promise<PoolRecord[]> {
  return (await deps.data.listPools()).filter((p) => poolAllowed(p, dexV2));
}

/** A pool the store (or the chain, when configured) knows, with its freshest state; null fields: unknown. */
export async function getPool(deps: ApiDeps, address: RawAddress): Promise<PoolRecord> {
  const pool = await findPool(deps, address);
  if (pool === null) throw new NotFoundError("pool", [{ field: "address", message: "unknown pool" }]);
  return { ...pool, state: await currentState(deps, pool) };
}

export async function poolsByMarket(deps: ApiDeps, a: RawAddress, b: RawAddress): Promise<PoolRecord[]> {
  return deps.data.getPoolsByAssets(a, b);
}

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

/**
 * Pools whose assets satisfy the condition: a tag holds for a pool when either of its assets has it; the
 * bare tag `deprecated` holds for a deprecated pool. Names are the assets' symbols and display names.
 * With `wallet_address` (as on the asset catalogue, api.md §5.3): the wallet tags are available — an
 * asset has `asset:wallet_has_balance` when the wallet holds some of it (read from the chain, only when
 * the condition names the tag) and `asset:wallet_has_liquidity_in_pool` when the wallet holds LP tokens of
 * a pool trading it — and each pool where the wallet has a position carries it, as on the wallet's pools.
 */
export async function queryPools(deps: ApiDeps, q: CatalogQueryInput): Promise<PoolView[]> {
  checkSortFields(q.sortBy, POOL_SORT_FIELDS);
  const condition = compileCondition(q.condition);
  const wallet = q.wallet;
  const [pools, assets, positions] = await Promise.all([
    listPools(deps, q.dexV2),
    deps.data.listAssets(),
    wallet === undefined ? [] : deps.data.getWalletLpPositions(wallet),
  ]);
  const byAddress = new Map(assets.map((a) => [a.address, a]));
  const positionOf = new Map(positions.map((p) => [p.pool, p]));
  const walletTags = new Map<RawAddress, Set<string>>();
  const tag = (asset: RawAddress, name: string) => {
    const tags = walletTags.get(asset) ?? new Set<string>();
    tags.add(name);
    walletTags.set(asset, tags);
  };
  if (wallet !== undefined && condition !== undefined) {
    if (mentions(condition, HAS_LIQUIDITY)) {
      const allPools = new Map((await deps.data.listPools()).map((p) => [p.address, p]));
      for (const position of positions) {
        const pool = allPools.get(position.pool);
        if (pool === undefined || position.lpBalance <= 0n) continue;
        for (const a of tokensOf(pool)) tag(a, HAS_LIQUIDITY);
      }
    }
    if (mentions(condition, HAS_BALANCE)) {
      const traded = [...new Set(pools.flatMap(tokensOf))].flatMap((a) => {
        const asset = byAddress.get(a);
        return asset === undefined ? [] : [asset];
      });
      for (const [asset, b] of await walletBalances(deps.chain, traded, wallet)) {
        if ((b.balance ?? 0n) > 0n) tag(asset, HAS_BALANCE);
      }
    }
  }
  const unconditional = new Set(q.unconditional);
  const candidates = pools.map((p): Candidate<PoolRecord> => {
    const tokens = tokensOf(p);
    const pair = tokens.map((a) => byAddress.get(a));
    const tags = new Set(pair.flatMap((a) => (a ? [...assetTags(a)] : [])));
    for (const a of tokens) for (const t of walletTags.get(a) ?? []) tags.add(t);
    if (p.deprecated) tags.add("deprecated");
    return {
      item: p,
      addresses: [p.address, ...tokens],
      names: pair.flatMap((a) => (a ? [a.symbol ?? "", a.displayName ?? ""] : [])),
      tags,
      sortValues: {
        popularity_index: p.stats?.popularityIndex,
        lp_total_supply_usd: num(p.stats?.lpTotalSupplyUsd),
        volume_24h_usd: num(p.stats?.volume24hUsd),
        apy_1d: num(p.stats?.apy1d),
      },
      unconditional: tokens.some((a) => unconditional.has(a)),
    };
  });
  return Promise.all(
    select(candidates, q, condition).map(async (pool): Promise<PoolView> => {
      const position = positionOf.get(pool.address);
      return wallet === undefined || position === undefined
        ? { pool }
        : { pool, position: await withChainAddresses(deps, position, wallet) };
    }),
  );
}

export async function walletPools(deps: ApiDeps, wallet: RawAddress, dexV2?: boolean): Promise<PoolView[]> {
  const positions = await deps.data.getWalletLpPositions(wallet);
  const views = await Promise.all(
    positions.map(async (position) => {
      const pool = await deps.data.getPool(position.pool);
      return pool && poolAllowed(pool, dexV2)
        ? [{ pool, position: await withChainAddresses(deps, position, wallet) }]
        : [];
    }),
  );
  return views.flat();
}

/**
 * The position's LP wallet and LpAccount addresses, from the chain where the store has none (the LP
 * wallet address is a get-method fact the facts never hold).
 */
async function withChainAddresses(
  deps: ApiDeps,
  position: LpPositionRecord,
  wallet: RawAddress,
): Promise<LpPositionRecord> {
  if (position.lpWallet !== null && position.lpAccount !== null) return position;
  const [p, w] = [Address.parseRaw(position.pool), Address.parseRaw(wallet)];
  const safe = async (f: () => Promise<Address>) => {
    try {
      return toRawAddress(await f());
    } catch (e) {
      if (e instanceof ChainStateError) return null;
      throw e;
    }
  };
  return {
    ...position,
    lpWallet: position.lpWallet ?? (await safe(() => deps.chain.getJettonWalletAddress(p, w))),
    lpAccount: position.lpAccount ?? (await safe(() => deps.chain.getLpAccountAddress(p, w))),
  };
}

/** An empty position (for a pool the store has no position for), with its chain-derived addresses. */
function derivedPosition(deps: ApiDeps, pool: RawAddress, wallet: RawAddress): Promise<LpPositionRecord> {
  const empty = {
    pool,
    lpWallet: null,
    lpBalance: 0n,
    lpAccount: null,
    lpAccountAmount0: 0n,
    lpAccountAmount1: 0n,
  };
  return withChainAddresses(deps, empty, wallet);
}

export async function walletPool(deps: ApiDeps, wallet: RawAddress, address: RawAddress): Promise<PoolView> {
  const pool = await getPool(deps, address);
  const positions = await deps.data.getWalletLpPositions(wallet);
  const stored = positions.find((p) => p.pool === address);
  const position = stored
    ? await withChainAddresses(deps, stored, wallet)
    : await derivedPosition(deps, address, wallet);
  return { pool, position };
}
