/**
 * The DexScreener adapter feed (api.md §10.2; decisions in api/README "Export feeds"), served under
 * `/export/dexscreener/v1` and `/export/aggregator_b/v1`. Numbers of amounts are decimalised strings.
 */
import { z } from "zod";
import { addressIn, addressOut, hashOut } from "./wire.ts";

const INT32_MAX = 2 ** 31 - 1;

/** A masterchain block seqno in a query: a non-negative int32. */
const blockIn = z
  .string()
  .regex(/^\d{1,10}$/, "expected a block number (masterchain seqno)")
  .transform(Number)
  .refine((n) => n <= INT32_MAX, "must be at most 2147483647");

export const eventsQuery = z.object({ fromBlock: blockIn, toBlock: blockIn });
export const feedAddressParams = z.object({ address: addressIn });

/** `raw / 10^decimals`: digits, an optional fraction of 1..50 digits, no exponent. */
export const decimalisedOut = z
  .string()
  .regex(/^\d+(\.\d{1,50})?$/, "expected a decimal number string with at most 50 fraction digits");

const block = z
  .object({ blockNumber: z.number().int().min(0).max(INT32_MAX), blockTimestamp: z.number().int().min(0) })
  .strict();

export const latestBlockResponse = z.object({ block }).strict();

export const feedAsset = z
  .object({
    id: addressOut,
    name: z.string().min(1),
    symbol: z.string().min(1),
    totalSupply: decimalisedOut.nullable(),
  })
  .strict();
export const assetResponse = z.object({ asset: feedAsset }).strict();

export const feedPair = z
  .object({ id: addressOut, dexKey: z.string().min(1), asset0Id: addressOut, asset1Id: addressOut })
  .strict();
/** Both wrapper keys (api.md §12.3): the spec and the OpenAPI read `pair`, a known client reads `pool`. */
export const pairResponse = z.object({ pair: feedPair, pool: feedPair }).strict();

const common = {
  block,
  txnId: hashOut,
  txnIndex: z.number().int().min(0),
  eventIndex: z.number().int().min(0),
  maker: addressOut,
  pairId: addressOut,
  reserves: z.object({ asset0: decimalisedOut, asset1: decimalisedOut }).strict().optional(),
};

export const swapEvent = z
  .object({
    ...common,
    eventType: z.literal("swap"),
    amount0In: decimalisedOut.optional(),
    amount1In: decimalisedOut.optional(),
    amount0Out: decimalisedOut.optional(),
    amount1Out: decimalisedOut.optional(),
    priceNative: decimalisedOut,
  })
  .strict();

export const liquidityEvent = z
  .object({
    ...common,
    eventType: z.enum(["join", "exit"]),
    amount0: decimalisedOut,
    amount1: decimalisedOut,
  })
  .strict();

export const eventsResponse = z.object({ events: z.array(z.union([swapEvent, liquidityEvent])) }).strict();
