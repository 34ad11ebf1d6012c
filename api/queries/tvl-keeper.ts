/**
 * Keeps the DEX TVL at every hour of the indexed history ahead of the requests (./tvl.ts `keepDexTvlHours`),
 * so that `/v1/stats/tvl` reads kept points instead of computing them at the first request of an hour: at
 * start from the day of the first pool state to the indexed head, then every `everyMs` from a day before the
 * last head it reached (the states of the last hours may still change) to the new head. Hours already kept
 * and still holding are only read. A point made stale later (a late state, a token learnt, another pricing)
 * is computed again by the request that meets it, or by a later step when it lies in the last day.
 */
import type { ApiDeps } from "../deps.ts";
import { keepDexTvlHours, pricingFingerprint } from "./tvl.ts";

const HOUR = 3_600;
const DAY = 86_400;

export type TvlKeeper = {
  /** Resolves when the step in flight (if any) has ended. */
  settled(): Promise<void>;
  /** No further step; resolves after the step in flight. */
  stop(): Promise<void>;
};

export function keepDexTvlInBackground(deps: ApiDeps, o: { everyMs: number }): TvlKeeper {
  let from: number | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const step = async () => {
    const read = deps.stats?.keptDexTvl?.bind(deps.stats);
    if (deps.pricing === undefined || read === undefined) return;
    const head = await deps.data.getIndexedHead();
    if (head === null) return;
    if (from === null) {
      // The pools' first state days come with any read of the kept points (an empty range here).
      const { firstDays } = await read({
        pricing: pricingFingerprint(deps.pricing),
        first: 0,
        last: 0,
        step: HOUR,
      });
      let first = Number.POSITIVE_INFINITY;
      for (const day of firstDays.values()) first = Math.min(first, day);
      if (first === Number.POSITIVE_INFINITY) return;
      from = first - DAY;
    }
    await keepDexTvlHours(deps, { from, to: head.utime });
    from = Math.max(from, Math.floor(head.utime / HOUR) * HOUR - DAY);
  };
  const run = () => {
    current = step()
      .catch((err: unknown) =>
        deps.logger?.warn({ err }, "DEX TVL points not kept ahead; requests compute them"),
      )
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(run, o.everyMs);
        timer.unref();
      });
  };
  run();
  return {
    settled: () => current,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
