/**
 * A devnet run seen by the pool-state tests: its transactions, each pool's type, and the checks that
 * compare a PoolTracker with what ChainState reads from the devnet.
 */
import type { Address } from "@ton/core";
import type { ExecutionContext } from "ava";
import type { PoolState, PoolType } from "../../dex/amm/index.ts";
import { v1PoolState, v2PoolState } from "../../dex/chain-state.ts";
import type { Devnet } from "../../ingest/devnet/devnet.ts";
import type { PoolHandle } from "../../ingest/devnet/sim/pools.ts";
import { V2_ROUTERS } from "../../ingest/devnet/sim/types.ts";
import type { PoolTracker } from "../../processors/core/pool-state.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";

export const rawOf = (a: Address): string => a.toRawString().toUpperCase();

export type Run = { devnet: Devnet; txs: RawTransaction[]; types: Map<string, PoolType> };

export function typeOf(p: PoolHandle): PoolType {
  return p.router === "v1" ? "v1_constant_product" : `v2_${V2_ROUTERS[p.router].type}`;
}

/** The run over `txs`, with every devnet pool's type. */
export function runOf(devnet: Devnet, txs: RawTransaction[]): Run {
  return { devnet, txs, types: new Map(devnet.pools.map((p) => [rawOf(p.address), typeOf(p)])) };
}

/** Each pool's own transactions, in lt order. */
export function poolTxs(run: Run): RawTransaction[][] {
  const by = new Map<string, RawTransaction[]>([...run.types.keys()].map((a) => [a, []]));
  for (const tx of run.txs) by.get(tx.account)?.push(tx);
  for (const list of by.values()) list.sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1));
  return [...by.values()];
}

/** The pool's state as its get-methods report it. */
export async function chainState(run: Run, p: PoolHandle): Promise<PoolState> {
  const s = run.devnet.state;
  if (p.router !== "v1") return v2PoolState((await s.getV2PoolData(p.address))!);
  const jetton = await s.getJettonData(p.address);
  return v1PoolState((await s.getV1PoolData(p.address))!, jetton!.totalSupply);
}

/** Every devnet pool as the tracker holds it equals ChainState, field by field. */
export async function assertMatchesChain(t: ExecutionContext, run: Run, tracker: PoolTracker): Promise<void> {
  for (const p of run.devnet.pools) {
    t.deepEqual(
      tracker.get(rawOf(p.address))?.state,
      await chainState(run, p),
      `${p.router} ${rawOf(p.address)}`,
    );
  }
}
