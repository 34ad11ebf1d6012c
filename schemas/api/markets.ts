/**
 * The aggregator feeds beyond DexScreener (api.md §10.1, analytics.md §4; decisions in api/README "Export
 * feeds"): CoinMarketCap's DEX feed under `/export/cmc/v1` and `/export/aggregator_a/v1`, and a
 * CoinGecko-style DEX feed under `/export/coingecko/v1`. Amounts, prices and liquidity are decimalised
 * strings (`raw / 10^decimals`, no exponent); a value the service does not know is null, never "0".
 */
import { z } from "zod";
import { decimalisedOut } from "./dexscreener.ts";
import { addressIn, addressOut, limitIn } from "./wire.ts";

const name = z.string().min(1);

export const cmcPair = z
  .object({
    base_id: addressOut,
    base_name: name,
    base_symbol: name,
    /** 24 h volume in the base asset. */
    base_volume: decimalisedOut,
    /** The base asset's reserve in the pool; null: the pool's state is not known. */
    base_liquidity: decimalisedOut.nullable(),
    quote_id: addressOut,
    quote_name: name,
    quote_symbol: name,
    quote_volume: decimalisedOut,
    quote_liquidity: decimalisedOut.nullable(),
    /** Price of the base in the quote at the last trade of the 24 h; null: no trade in the window. */
    last_price: decimalisedOut.nullable(),
    url: z.string().url(),
    pool_address: addressOut,
    router_address: addressOut.nullable(),
  })
  .strict();
/** One object keyed by pool address (api.md §12.5: a single object, not an array of maps). */
export const cmcResponse = z.record(addressOut, cmcPair);

export const geckoPair = z
  .object({ ticker_id: addressOut, base: addressOut, target: addressOut, pool_id: addressOut })
  .strict();
export const geckoPairsResponse = z.array(geckoPair);

export const geckoTicker = z
  .object({
    ticker_id: addressOut,
    base_currency: addressOut,
    target_currency: addressOut,
    pool_id: addressOut,
    /** Price of the base in the target at the last trade of the 24 h; null without one. */
    last_price: decimalisedOut.nullable(),
    base_volume: decimalisedOut,
    target_volume: decimalisedOut,
    /** The pool's TVL in USD (approximate); null when it cannot be priced. */
    liquidity_in_usd: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .nullable(),
    /** An AMM has no order book: the spot price less / plus the pool's swap fee (null: state not known). */
    bid: decimalisedOut.nullable(),
    ask: decimalisedOut.nullable(),
    /** Highest and lowest trade price of the 24 h; null without a trade. */
    high: decimalisedOut.nullable(),
    low: decimalisedOut.nullable(),
  })
  .strict();
export const geckoTickersResponse = z.array(geckoTicker);

const msIn = z
  .string()
  .regex(/^\d{1,16}$/, "expected unix milliseconds")
  .transform(Number);

export const geckoTradesQuery = z.object({
  ticker_id: addressIn,
  type: z.enum(["buy", "sell"]).optional(),
  limit: limitIn.optional(),
  start_time: msIn.optional(),
  end_time: msIn.optional(),
});

export const geckoTrade = z
  .object({
    trade_id: z.string().min(1),
    /** Price of the base in the target. */
    price: decimalisedOut,
    base_volume: decimalisedOut,
    target_volume: decimalisedOut,
    /** The pool transaction's time, unix milliseconds. */
    trade_timestamp: z.number().int().min(0),
    /** buy: the base was bought (the target sold to the pool); sell: the base was sold. */
    type: z.enum(["buy", "sell"]),
  })
  .strict();
export const geckoTradesResponse = z.object({ buy: z.array(geckoTrade), sell: z.array(geckoTrade) }).strict();
