/**
 * Simulation routes (api.md §6.1–§6.3). All parameters travel in the query string of a POST with no body
 * (the official client's encoding); numbers are decimal strings, fractions decimal strings in [0, 1].
 */
import { z } from "zod";
import { gasParams, PROVISION_TYPES, routerInfo } from "./objects.ts";
import {
  addressIn,
  addressOut,
  boolIn,
  decimalOut,
  fractionIn,
  fractionOut,
  repeated,
  unitsIn,
  unitsOrZeroIn,
} from "./wire.ts";

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
    .regex(/^\d+$/, "expected an integer number of basis points")
    .refine((s) => s.length <= 4, "must be within 0..100 bps")
    .transform((s) => BigInt(s))
    .refine((v) => v <= 100n, "must be within 0..100 bps")
    .optional(),
  dex_v2: boolIn.optional(),
  dex_version: repeated(z.enum(["1", "2"]).transform(Number)).optional(),
  pool_address: addressIn.optional(),
});
export type SwapSimulateQuery = z.output<typeof swapSimulateQuery>;

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
