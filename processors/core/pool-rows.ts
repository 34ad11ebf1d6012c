/**
 * Tracker state ↔ fact rows: a `pool_states` row per state change, a `pools` row at first sight, and the
 * way back (restart from the latest `pool_states` row of every pool plus its `pools` row).
 */
import { dexVersionOf, type PoolState } from "../../dex/amm/index.ts";
import { poolStateColumns, poolStateOfColumns } from "../../dex/pool-state-row.ts";
import type { PoolRow, PoolStateRow } from "../../schemas/facts.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import type { PoolIdentity } from "./pool-init.ts";
import type { TrackedPool } from "./pool-types.ts";

const STATE_KEYS: readonly (keyof PoolState)[] = [
  "type",
  "reserve0",
  "reserve1",
  "lpSupply",
  "lpFeeBps",
  "protocolFeeBps",
  "refFeeBps",
  "collectedProtocolFee0",
  "collectedProtocolFee1",
  "isLocked",
  "amp",
  "rate",
  "w0",
];

export function samePoolState(a: PoolState, b: PoolState): boolean {
  return STATE_KEYS.every((k) => a[k] === b[k]);
}

export function stateRow(p: TrackedPool, tx: RawTransaction): PoolStateRow {
  return {
    pool: p.pool,
    lt: BigInt(tx.lt),
    tx_hash: tx.hash,
    mc_seqno: tx.mc_seqno,
    utime: tx.now,
    ...poolStateColumns(p.state),
  };
}

/** First sight at the deployment; the jetton masters are resolved elsewhere (null until known). */
export function poolRow(p: TrackedPool, tx: RawTransaction): PoolRow {
  const lt = BigInt(tx.lt);
  return {
    pool: p.pool,
    router: p.router,
    dex: dexVersionOf(p.state.type),
    pool_type: p.state.type,
    token0_wallet: p.token0Wallet,
    token1_wallet: p.token1Wallet,
    token0_master: null,
    token1_master: null,
    created_lt: lt,
    created_utime: tx.now,
    // a later writer that knows the masters uses a higher version and wins
    version: lt,
  };
}

/**
 * A pool whose state is unknown (active before the first transaction seen): what it revealed of itself,
 * null for the rest; `created_*` stay null (this transaction did not create it).
 */
export function unknownStatePoolRow(
  pool: string,
  dex: "v1" | "v2",
  id: PoolIdentity,
  tx: RawTransaction,
): PoolRow {
  return {
    pool,
    router: id.router,
    dex,
    pool_type: id.type,
    token0_wallet: id.token0Wallet,
    token1_wallet: id.token1Wallet,
    token0_master: null,
    token1_master: null,
    created_lt: null,
    created_utime: null,
    version: BigInt(tx.lt),
  };
}

/** The latest row per pool, joined with its `pools` row (router and token wallets), as tracked pools. */
export function trackedFromRows(states: readonly PoolStateRow[], pools: readonly PoolRow[]): TrackedPool[] {
  const latest = new Map<string, PoolStateRow>();
  for (const r of states) {
    const seen = latest.get(r.pool);
    if (seen === undefined || r.lt > seen.lt) latest.set(r.pool, r);
  }
  const info = new Map(pools.map((p) => [p.pool, p]));
  return [...latest.values()].map((r) => {
    const p = info.get(r.pool);
    return {
      pool: r.pool,
      router: p?.router || null,
      token0Wallet: p?.token0_wallet || null,
      token1Wallet: p?.token1_wallet || null,
      state: poolStateOfColumns(r),
      lt: r.lt,
      status: "live",
    };
  });
}
