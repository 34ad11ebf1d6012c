/**
 * TVL history (a tondex extension; api/README.md "Pricing"): DEX-wide and per pool, one point per
 * interval boundary in the window, each the TVL at that instant (the pools' states after their last
 * transaction at or before it, priced with the prices of that instant).
 */
import { z } from "zod";
import { addressOut, fractionOut, timestampIn, timestampOut } from "./wire.ts";

export const TVL_INTERVALS = ["hour", "day"] as const;

export const tvlQuery = z.object({
  since: timestampIn.optional(),
  until: timestampIn.optional(),
  interval: z.enum(TVL_INTERVALS).default("day"),
});

const window = { since: timestampOut, until: timestampOut, interval: z.enum(TVL_INTERVALS) };

export const dexTvlResponse = z
  .object({
    ...window,
    points: z.array(
      z
        .object({
          timestamp: timestampOut,
          tvl_usd: fractionOut.nullable(),
          untracked_tvl_usd: fractionOut.nullable(),
        })
        .strict(),
    ),
  })
  .strict();

export const poolTvlResponse = z
  .object({
    pool_address: addressOut,
    ...window,
    points: z.array(z.object({ timestamp: timestampOut, tvl_usd: fractionOut.nullable() }).strict()),
  })
  .strict();
