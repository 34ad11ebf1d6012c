/**
 * Where a pool's state comes from, freshest first: the hot cache (updated by the processors between
 * store batches), then the store's latest `pool_states` row, then — for a pool the store does not know
 * yet — the pool contract's own get-methods via ChainState. Without chain access (a replay) there is no
 * third source: a pool the store has is answered with what it knows (null state when unknown), any other
 * address is unknown (404), never "retry later" (503 is for a configured service that is down).
 */
import { Address } from "@ton/core";
import { dexVersionOf, type PoolState, type PoolType, poolState } from "../../dex/amm/index.ts";
import { ChainStateError, type V1PoolData, type V2PoolData } from "../../dex/chain-state.ts";
import { ChainUnavailableError } from "../../dex/chain-state-unavailable.ts";
import { toRawAddress } from "../../schemas/api/wire.ts";
import type { ApiDeps } from "../deps.ts";
import { UnprocessableError } from "../errors.ts";
import { friendly, TON_RAW } from "../mappers/common.ts";
import type { PoolRecord, RawAddress, RouterRecord } from "../read-model.ts";

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

const V2_TYPES: Record<V2PoolData["poolType"], PoolType> = {
  constant_product: "v2_constant_product",
  constant_sum: "v2_constant_sum",
  stableswap: "v2_stableswap",
  weighted_const_product: "v2_weighted_const_product",
  weighted_stableswap: "v2_weighted_stableswap",
};

function v2State(d: V2PoolData): PoolState {
  return poolState({
    type: V2_TYPES[d.poolType],
    reserve0: d.reserve0,
    reserve1: d.reserve1,
    lpSupply: d.totalSupplyLp,
    lpFeeBps: BigInt(d.lpFee),
    protocolFeeBps: BigInt(d.protocolFee),
    collectedProtocolFee0: d.collectedToken0ProtocolFee,
    collectedProtocolFee1: d.collectedToken1ProtocolFee,
    isLocked: d.isLocked,
    amp: d.amp ?? 0n,
    rate: d.rate ?? 0n,
    w0: d.w0 ?? 0n,
  });
}

function v1State(d: V1PoolData, lpSupply: bigint): PoolState {
  return poolState({
    type: "v1_constant_product",
    reserve0: d.reserve0,
    reserve1: d.reserve1,
    lpSupply,
    lpFeeBps: BigInt(d.lpFee),
    protocolFeeBps: BigInt(d.protocolFee),
    refFeeBps: BigInt(d.refFee),
    collectedProtocolFee0: d.collectedToken0ProtocolFee,
    collectedProtocolFee1: d.collectedToken1ProtocolFee,
  });
}

type ChainPool = { data: V1PoolData | V2PoolData; state: PoolState; router: RouterRecord | null };

async function readChainPool(deps: ApiDeps, pool: Address): Promise<ChainPool | null> {
  const v2 = await orNull(() => deps.chain.getV2PoolData(pool));
  if (v2 !== null) {
    return { data: v2, state: v2State(v2), router: await deps.data.getRouter(toRawAddress(v2.router)) };
  }
  const v1 = await orNull(() => deps.chain.getV1PoolData(pool));
  if (v1 === null) return null;
  const lp = await orNull(() => deps.chain.getJettonData(pool));
  // v1 has a single router; its pools do not name it in get_pool_data.
  const router = (await deps.data.listRouters()).find((r) => r.majorVersion === 1) ?? null;
  return lp === null ? null : { data: v1, state: v1State(v1, lp.totalSupply), router };
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
    protocolFeeAddress: data.protocolFeeAddress ? toRawAddress(data.protocolFeeAddress) : null,
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
