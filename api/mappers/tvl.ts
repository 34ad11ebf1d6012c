/** TVL history DTOs (schemas/api/tvl.ts). */
import { plainDecimal, type TvlHistory } from "../pricing.ts";
import { friendly, timestamp } from "./common.ts";

const usd = (v: number | null): string | null => (v === null ? null : (plainDecimal(v) ?? null));
const window = (h: TvlHistory) => ({
  since: timestamp(h.since),
  until: timestamp(h.until),
  interval: h.interval,
});

export function dexTvlDto(h: TvlHistory) {
  return {
    ...window(h),
    points: h.points.map((p) => ({
      timestamp: timestamp(p.at),
      tvl_usd: usd(p.tvlUsd),
      untracked_tvl_usd: usd(p.untrackedTvlUsd),
    })),
  };
}

export function poolTvlDto(pool: string, h: TvlHistory) {
  return {
    pool_address: friendly(pool),
    ...window(h),
    points: h.points.map((p) => ({ timestamp: timestamp(p.at), tvl_usd: usd(p.tvlUsd) })),
  };
}
