/**
 * Candles, a tondex extension with GeckoTerminal's parameters (shared/reference/analytics.md §2.1, §7.7):
 * `GET /v1/pools/{address}/ohlcv?timeframe=day|hour|minute&aggregate=…&before_timestamp=…&limit=…
 * &currency=token|usd&token=base|quote&include_empty_intervals=…`. Trade-based: open/close are the first
 * and last executed trade of the interval by chain order; intervals are UTC epoch-aligned and labelled by
 * their start.
 */
import { z } from "zod";
import { addressIn, addressOut, boolIn, fractionOut, limitIn } from "./wire.ts";

/** Allowed `aggregate` per timeframe (GeckoTerminal's). */
export const AGGREGATES = { day: [1], hour: [1, 4, 12], minute: [1, 5, 15] } as const;

export const ohlcvParams = z.object({ address: addressIn });

export const ohlcvQuery = z.object({
  timeframe: z.enum(["day", "hour", "minute"]).default("day"),
  aggregate: z
    .string()
    .regex(/^\d{1,2}$/, "expected 1, 4, 5, 12 or 15")
    .transform(Number)
    .optional(),
  before_timestamp: z
    .string()
    .regex(/^\d{1,10}$/, "expected unix seconds")
    .transform(Number)
    .refine((s) => s <= 0xffffffff, "must be at most 4294967295")
    .optional(),
  limit: limitIn.optional(),
  currency: z.enum(["token", "usd"]).default("token"),
  token: z.enum(["base", "quote"]).default("base"),
  include_empty_intervals: boolIn.optional(),
});

const price = fractionOut.nullable();

export const ohlcvResponse = z
  .object({
    pool_address: addressOut,
    timeframe: z.enum(["day", "hour", "minute"]),
    aggregate: z.number().int().positive(),
    currency: z.enum(["token", "usd"]),
    /** The token the candles price (base unless `token=quote`) and the unit of the prices. */
    token_address: addressOut.nullable(),
    unit_address: addressOut.nullable(),
    /** [start (unix s), open, high, low, close, volume]; volume in the unit token, or USD. */
    ohlcv_list: z.array(z.tuple([z.number().int().nonnegative(), price, price, price, price, price])),
  })
  .strict();
