/**
 * The simulator's view of the pools: addresses and token order from the routers' get-methods, and the
 * current state through `ChainState` mapped to the AMM engine's `PoolState`. Addresses and token order never
 * change; a pool's state is remembered only until its account runs another transaction (`PoolReader`).
 */
import type { Address } from "@ton/core";
import type { PoolState } from "../../../dex/amm/index.ts";
import type { ChainState } from "../../../dex/chain-state.ts";
import { v1PoolState, v2PoolState } from "../../../dex/chain-state.ts";
import type { Chain } from "../chain/chain.ts";
import { orderWallets } from "../contracts/token-order.ts";
import type { UserActions } from "./actions.ts";
import { POOLS, type PoolSpec } from "./catalog.ts";
import type { RouterKey } from "./types.ts";

export type PoolHandle = {
  readonly spec: PoolSpec;
  readonly router: RouterKey;
  readonly address: Address;
  /** Symbols in the pool's stored order (token0, token1), per the router wallets (contracts.md §1.2). */
  readonly token0: string;
  readonly token1: string;
  readonly wallet0: Address;
  readonly wallet1: Address;
};

export async function resolvePools(actions: UserActions, state: ChainState): Promise<PoolHandle[]> {
  const pools: PoolHandle[] = [];
  for (const spec of POOLS) {
    const router = actions.handle(spec.router);
    const wa = actions.routerWallet(spec.router, spec.a);
    const wb = actions.routerWallet(spec.router, spec.b);
    const address = await state.getPoolAddress(router.address, wa, wb);
    const aFirst = orderWallets(wa, wb)[0] === wa;
    pools.push({
      spec,
      router: spec.router,
      address,
      token0: aFirst ? spec.a : spec.b,
      token1: aFirst ? spec.b : spec.a,
      wallet0: aFirst ? wa : wb,
      wallet1: aFirst ? wb : wa,
    });
  }
  return pools;
}

/** The pool's current engine state, or null while it is not deployed. */
export async function readPool(state: ChainState, pool: PoolHandle): Promise<PoolState | null> {
  if (pool.router === "v1") {
    const data = await state.getV1PoolData(pool.address);
    if (data === null) return null;
    const jetton = await state.getJettonData(pool.address);
    return v1PoolState(data, jetton?.totalSupply ?? 0n);
  }
  const data = await state.getV2PoolData(pool.address);
  return data === null ? null : v2PoolState(data);
}

/**
 * `readPool` remembering each pool's state until the pool's account runs another transaction: a pool's
 * get-methods read only its storage, which only a transaction changes (and moves `last_trans_lt`), while the
 * market reads a pool many times between two trades on it (each read is two get-method runs and their parse).
 * A pool's state object is shared between reads: the AMM engine never mutates one.
 */
export class PoolReader {
  readonly #seen = new Map<PoolHandle, { lt: bigint; state: PoolState | null }>();

  constructor(
    private readonly chain: Chain,
    private readonly state: ChainState,
  ) {}

  async read(pool: PoolHandle): Promise<PoolState | null> {
    const lt = this.chain.account(pool.address)?.lastTxLt;
    if (lt === undefined) return readPool(this.state, pool); // not deployed yet: nothing to remember
    const seen = this.#seen.get(pool);
    if (seen?.lt === lt) return seen.state;
    const state = await readPool(this.state, pool);
    this.#seen.set(pool, { lt, state });
    return state;
  }
}
