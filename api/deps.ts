/**
 * What the API needs from the outside, injected by `createApp` (bin/ wires the real adapters; tests wire
 * the in-memory read model and a fake chain). Controllers reach it through `depsOf(ctx)`.
 */
import type { Context } from "koa";
import type { PoolState } from "../dex/amm/index.ts";
import type { ChainState } from "../dex/chain-state.ts";
import type { PricingConfig } from "../dex/pricing/index.ts";
import type { HttpPolicy } from "./http-policy.ts";
import type { DexReadModel, RawAddress } from "./read-model.ts";
import type { StatsReadModel } from "./read-model-stats.ts";

/**
 * The hot pool-state cache (memory LRU or Redis), fresher than the store between batches. A miss is null;
 * an outage throws and the API falls back to the store.
 */
export type PoolStateCache = {
  getPoolState(pool: RawAddress): Promise<PoolState | null>;
  /** `getPoolState` answered at once, where the cache is in this process (never an outage). */
  getPoolStateNow?(pool: RawAddress): PoolState | null;
};

type LogFn = (obj: object, msg?: string) => void;
export type ApiLogger = { error: LogFn; warn: LogFn; info: LogFn };

export type ApiDeps = {
  data: DexReadModel;
  /** Statistics over the store's rollups (`/v1/stats/*`); absent: those routes answer 503. */
  stats?: StatsReadModel;
  cache?: PoolStateCache;
  /** USD pricing (dex/pricing) for the TVL history; absent: its USD figures are null. */
  pricing?: PricingConfig;
  chain: ChainState;
  /** Current time in milliseconds (injected so tests control "now"). */
  clock: () => number;
  /**
   * How far back before the newest indexed block `/v1/transactions/query` may look, in seconds; 0 or
   * absent: all indexed history (api.ston.fi's own policy is 24 hours).
   */
  txQueryWindowS?: number;
  logger: ApiLogger;
  /**
   * When set, repeated requests to `memo: true` routes are answered from memory while `version()` (the
   * indexed data's version, bumped after every committed batch) is unchanged, for at most `ttlMs`
   * (api/response-memo.ts). Used by `apiListener`.
   */
  responseMemo?: { version: () => number; ttlMs: number };
  /** CORS origins and the compression threshold (api/http-policy.ts); absent: DEFAULT_HTTP_POLICY. */
  http?: HttpPolicy;
};

export function depsOf(ctx: Context): ApiDeps {
  return (ctx.state as { deps: ApiDeps }).deps;
}
