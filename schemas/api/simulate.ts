/**
 * Simulation routes (api.md §6.1–§6.3). All parameters travel in the query string of a POST with no body
 * (the official client's encoding); numbers are decimal strings, fractions decimal strings in [0, 1].
 */
import { z } from "zod";
import { gasParams, PROVISION_TYPES, routerInfo } from "./objects.ts";
import {
  addressIn,
  addressOut,
  addressParam,
  BOOL_TEXTS,
  boolIn,
  boolOf,
  coinsOf,
  DECIMAL_INTEGER,
  decimalOut,
  FRACTION_PATTERN,
  fractionIn,
  fractionOf,
  fractionOut,
  REPEATED_MAX,
  repeated,
  unitsIn,
  unitsOrZeroIn,
} from "./wire.ts";

const MAX_REFERRAL_FEE_BPS = 100n;
const DEX_VERSIONS = ["1", "2"] as const;

/** A decimal integer text (DECIMAL_INTEGER) as referral basis points, or null outside 0..100. */
function referralBpsOf(s: string): bigint | null {
  if (s.length > 4) return null;
  const v = BigInt(s);
  return v <= MAX_REFERRAL_FEE_BPS ? v : null;
}

/** §6.1 and §6.2: `units` is the offer amount (swap) or the wanted ask amount (reverse swap). */
export const swapSimulateQuery = z.object({
  offer_address: addressIn,
  ask_address: addressIn,
  units: unitsIn,
  slippage_tolerance: fractionIn,
  referral_address: addressIn.optional(),
  /** 0..100 bps; DEX v2 only (v1 pools charge their own stored referral fee). */
  referral_fee_bps: z
    .string()
    .regex(DECIMAL_INTEGER, "expected an integer number of basis points")
    .transform((s, ctx): bigint => {
      const v = referralBpsOf(s);
      if (v === null) {
        ctx.addIssue({ code: "custom", message: "must be within 0..100 bps" });
        return z.NEVER;
      }
      return v;
    })
    .optional(),
  dex_v2: boolIn.optional(),
  dex_version: repeated(z.enum(DEX_VERSIONS).transform(Number)).optional(),
  pool_address: addressIn.optional(),
});
export type SwapSimulateQuery = z.output<typeof swapSimulateQuery>;

/** Marks a value `quoteQuery` does not take: the schema decides (and names what is wrong). */
const REFUSED = Symbol("refused");

const addressOr = (v: unknown) => (typeof v === "string" ? (addressParam(v) ?? REFUSED) : REFUSED);

function dexVersionsOf(v: unknown): number[] | typeof REFUSED {
  const texts = Array.isArray(v) ? v : [v];
  if (texts.length > REPEATED_MAX) return REFUSED;
  const out: number[] = [];
  for (const t of texts) {
    if (t !== "1" && t !== "2") return REFUSED;
    out.push(Number(t));
  }
  return out;
}

/**
 * `swapSimulateQuery.parse` of a query string's values (node:querystring `parse`) without zod's per-field
 * machinery, which costs more than a quote: the same checks from the same primitives (./wire.ts), and the
 * same output, key for key. undefined where the schema would refuse the query (or might: a value of
 * another type than a query string gives): the caller then parses with the schema, which names the field.
 * Keys the schema does not know are ignored, as the schema strips them.
 */
export function quoteQuery(q: Readonly<Record<string, unknown>>): SwapSimulateQuery | undefined {
  const offer = addressOr(q.offer_address);
  const ask = addressOr(q.ask_address);
  const unitsText = q.units;
  const slippageText = q.slippage_tolerance;
  if (offer === REFUSED || ask === REFUSED) return undefined;
  if (typeof unitsText !== "string" || !DECIMAL_INTEGER.test(unitsText)) return undefined;
  if (typeof slippageText !== "string" || !FRACTION_PATTERN.test(slippageText)) return undefined;
  const units = coinsOf(unitsText, true);
  const slippage = fractionOf(slippageText);
  if (typeof units === "string" || slippage === null) return undefined;
  const out: SwapSimulateQuery = {
    offer_address: offer,
    ask_address: ask,
    units,
    slippage_tolerance: slippage,
  };
  // Optional keys: set when present (the schema sets a key its input has), in the schema's order.
  if (q.referral_address !== undefined) {
    const referral = addressOr(q.referral_address);
    if (referral === REFUSED) return undefined;
    out.referral_address = referral;
  }
  const bps = q.referral_fee_bps;
  if (bps !== undefined) {
    const v = typeof bps === "string" && DECIMAL_INTEGER.test(bps) ? referralBpsOf(bps) : null;
    if (v === null) return undefined;
    out.referral_fee_bps = v;
  }
  const v2 = q.dex_v2;
  if (v2 !== undefined) {
    const texts: readonly unknown[] = BOOL_TEXTS;
    if (!texts.includes(v2)) return undefined;
    out.dex_v2 = boolOf(v2 as (typeof BOOL_TEXTS)[number]);
  }
  if (q.dex_version !== undefined) {
    const versions = dexVersionsOf(q.dex_version);
    if (versions === REFUSED) return undefined;
    out.dex_version = versions;
  }
  if (q.pool_address !== undefined) {
    const pool = addressOr(q.pool_address);
    if (pool === REFUSED) return undefined;
    out.pool_address = pool;
  }
  return out;
}

export const swapSimulateResponse = z
  .object({
    offer_address: addressOut,
    ask_address: addressOut,
    offer_jetton_wallet: addressOut,
    ask_jetton_wallet: addressOut,
    router_address: addressOut,
    router: routerInfo,
    pool_address: addressOut,
    offer_units: decimalOut,
    ask_units: decimalOut,
    slippage_tolerance: fractionOut,
    min_ask_units: decimalOut,
    recommended_slippage_tolerance: fractionOut,
    recommended_min_ask_units: decimalOut,
    swap_rate: fractionOut,
    price_impact: fractionOut,
    fee_address: addressOut,
    fee_units: decimalOut,
    fee_percent: fractionOut,
    gas_params: gasParams,
  })
  .strict();
export type SwapSimulationDto = z.infer<typeof swapSimulateResponse>;

/** §6.3 — which amounts each provision type needs is checked by the query (it names the field). */
export const liquiditySimulateQuery = z.object({
  provision_type: z.enum(PROVISION_TYPES),
  token_a: addressIn,
  token_b: addressIn,
  token_a_units: unitsOrZeroIn.optional(),
  token_b_units: unitsOrZeroIn.optional(),
  pool_address: addressIn.optional(),
  slippage_tolerance: fractionIn,
  wallet_address: addressIn.optional(),
});
export type LiquiditySimulateQuery = z.output<typeof liquiditySimulateQuery>;

/**
 * `liquiditySimulateQuery.parse` of a query string's values without zod, as `quoteQuery` is for quotes:
 * the same checks from the same primitives, the same output key for key, undefined where the schema would
 * (or might) refuse the query. Besides its cost, zod's parse of this schema made the collector promote
 * ~13 KB per parse to the old generation (a full collection every ~2 s under load); this makes none.
 */
export function liquidityQuery(q: Readonly<Record<string, unknown>>): LiquiditySimulateQuery | undefined {
  const type = q.provision_type;
  const types: readonly unknown[] = PROVISION_TYPES;
  if (!types.includes(type)) return undefined;
  const tokenA = addressOr(q.token_a);
  const tokenB = addressOr(q.token_b);
  if (tokenA === REFUSED || tokenB === REFUSED) return undefined;
  const slippageText = q.slippage_tolerance;
  if (typeof slippageText !== "string" || !FRACTION_PATTERN.test(slippageText)) return undefined;
  const slippage = fractionOf(slippageText);
  if (slippage === null) return undefined;
  const a = optionalUnits(q.token_a_units);
  const b = optionalUnits(q.token_b_units);
  const pool = q.pool_address === undefined ? undefined : addressOr(q.pool_address);
  const wallet = q.wallet_address === undefined ? undefined : addressOr(q.wallet_address);
  if (a === REFUSED || b === REFUSED || pool === REFUSED || wallet === REFUSED) return undefined;
  // Keys set in the schema's order (its output's), an optional one only when present, as `quoteQuery`.
  const out = {
    provision_type: type as LiquiditySimulateQuery["provision_type"],
    token_a: tokenA,
    token_b: tokenB,
  } as LiquiditySimulateQuery;
  if (a !== undefined) out.token_a_units = a;
  if (b !== undefined) out.token_b_units = b;
  if (pool !== undefined) out.pool_address = pool;
  out.slippage_tolerance = slippage;
  if (wallet !== undefined) out.wallet_address = wallet;
  return out;
}

/** An optional amount (zero allowed, `unitsOrZeroIn`): absent, its value, or REFUSED. */
function optionalUnits(v: unknown): bigint | undefined | typeof REFUSED {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !DECIMAL_INTEGER.test(v)) return REFUSED;
  const units = coinsOf(v, false);
  return typeof units === "string" ? REFUSED : units;
}

export const liquiditySimulateResponse = z
  .object({
    provision_type: z.enum(PROVISION_TYPES),
    router_address: addressOut,
    router: routerInfo,
    pool_address: addressOut,
    token_a: addressOut,
    token_b: addressOut,
    token_a_units: decimalOut,
    token_b_units: decimalOut,
    lp_account_address: addressOut.optional(),
    lp_account_token_a_balance: decimalOut,
    lp_account_token_b_balance: decimalOut,
    estimated_lp_units: decimalOut,
    min_lp_units: decimalOut,
    min_token_a_units: decimalOut,
    min_token_b_units: decimalOut,
    estimated_token_a_rate: fractionOut,
    estimated_token_b_rate: fractionOut,
    estimated_token_a_units: decimalOut,
    estimated_token_b_units: decimalOut,
    lp_total_supply: decimalOut,
    price_impact: fractionOut,
  })
  .strict();
export type LiquiditySimulationDto = z.infer<typeof liquiditySimulateResponse>;
