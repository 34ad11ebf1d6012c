/**
 * Where a pool's state comes from, freshest first: the hot cache (updated by the processors between
 * store batches), then the store's latest `pool_states` row, then — for a pool the store does not know
 * yet — the pool contract's own get-methods via ChainState. Without chain access (a replay) there is no
 * third source: a pool the store has is answered with what it knows (null state when unknown), any other
 * address is unknown (404), never "retry later" (503 is for a configured service that is down).
 */
import { Address } from "@ton/core";
import { dexVersionOf, type PoolState } from "../../dex/amm/index.ts";
import {
  ChainStateError,
  type V1PoolData,
  type V2PoolData,
  v1PoolState,
  v2PoolState,
} from "../../dex/chain-state.ts";
import { ChainUnavailableError } from "../../dex/chain-state-unavailable.ts";
import { toRawAddress } from "../../schemas/api/wire.ts";
import type { ApiDeps } from "../deps.ts";
import { UnprocessableError } from "../errors.ts";
import { friendly, TON_RAW } from "../mappers/common.ts";
import type { KnownPoolRecord, PoolRecord, RawAddress, ReferenceNow, RouterRecord } from "../read-model.ts";

/** The state to compute on: the cache's when it has one (a cache outage only costs freshness); null: unknown. */
export async function currentState(deps: ApiDeps, pool: PoolRecord): Promise<PoolState | null> {
  if (deps.cache === undefined) return pool.state;
  try {
    return (await deps.cache.getPoolState(pool.address)) ?? pool.state;
  } catch (err) {
    deps.logger.warn({ err, pool: pool.address }, "pool-state cache unavailable; using the store");
    return pool.state;
  }
}

/**
 * The reference lookups when everything a simulation reads is in this process's memory: the read model's
 * lookups (`referenceNow`) and the hot cache answered at once (`getPoolStateNow`, or no cache). undefined:
 * something has to be awaited.
 */
export function lookupsNow(deps: ApiDeps): ReferenceNow | undefined {
  const ref = deps.data.referenceNow?.();
  const { cache } = deps;
  return cache !== undefined && cache.getPoolStateNow === undefined ? undefined : ref;
}

/** `currentState` at once, where `lookupsNow` answered: the cache's state when it has one, else the store's. */
export function currentStateNow(deps: ApiDeps, pool: KnownPoolRecord): PoolState {
  return deps.cache?.getPoolStateNow?.(pool.address) ?? pool.state;
}

/** A pool from the store, or read from the chain when the store has not seen it yet. */
export async function findPool(deps: ApiDeps, address: RawAddress): Promise<PoolRecord | null> {
  return (await deps.data.getPool(address)) ?? (await poolFromChain(deps, address));
}

/** A chain read, or null when the chain says there is nothing there or no chain access is configured. */
async function orNull<T>(f: () => Promise<T | null>): Promise<T | null> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ChainStateError || e instanceof ChainUnavailableError) return null;
    throw e;
  }
}

/** The asset behind a router-owned wallet: TON for the router's pTON wallet, else the wallet's master. */
async function assetOfWallet(
  deps: ApiDeps,
  router: RouterRecord,
  wallet: Address,
): Promise<RawAddress | null> {
  if (toRawAddress(wallet) === router.ptonWallet) return TON_RAW;
  const data = await orNull(() => deps.chain.getJettonWalletData(wallet));
  return data ? toRawAddress(data.master) : null;
}

type ChainPool = { data: V1PoolData | V2PoolData; state: PoolState; router: RouterRecord | null };

async function readChainPool(deps: ApiDeps, pool: Address): Promise<ChainPool | null> {
  const v2 = await orNull(() => deps.chain.getV2PoolData(pool));
  if (v2 !== null) {
    return { data: v2, state: v2PoolState(v2), router: await deps.data.getRouter(toRawAddress(v2.router)) };
  }
  const v1 = await orNull(() => deps.chain.getV1PoolData(pool));
  if (v1 === null) return null;
  const lp = await orNull(() => deps.chain.getJettonData(pool));
  // v1 has a single router; its pools do not name it in get_pool_data.
  const router = (await deps.data.listRouters()).find((r) => r.majorVersion === 1) ?? null;
  return lp === null ? null : { data: v1, state: v1PoolState(v1, lp.totalSupply), router };
}

export async function poolFromChain(deps: ApiDeps, address: RawAddress): Promise<PoolRecord | null> {
  const pool = Address.parseRaw(address);
  const found = await readChainPool(deps, pool);
  if (found === null || found.router === null) return null;
  const { data, state, router } = found;
  const token0 = await assetOfWallet(deps, router, data.token0Wallet);
  const token1 = await assetOfWallet(deps, router, data.token1Wallet);
  if (token0 === null || token1 === null) return null;
  return {
    address,
    router: router.address,
    dex: dexVersionOf(state.type),
    token0,
    token1,
    token0Wallet: toRawAddress(data.token0Wallet),
    token1Wallet: toRawAddress(data.token1Wallet),
    state,
    stateLt: 0n,
    // addr_none in the pool data is stated, not unknown: the zero address (HOLE on the wire).
    protocolFeeAddress: data.protocolFeeAddress ? toRawAddress(data.protocolFeeAddress) : TON_RAW,
    deprecated: false,
  };
}

/** A pool the store names but whose reserves (or router, tokens) it does not know: nothing to compute on. */
export function poolStateUnknown(pool: PoolRecord): UnprocessableError {
  return new UnprocessableError(
    "pool_state_unknown",
    "the pool's state is not known: it cannot be simulated",
    [{ field: "pool_address", message: `${friendly(pool.address)}: reserves not known (no chain access)` }],
  );
}
