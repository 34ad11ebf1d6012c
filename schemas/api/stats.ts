/**
 * Statistics routes (api.md §9). Windows are `since`/`until` in `YYYY-MM-DDTHH:MM:SS` (UTC), both
 * inclusive; figures are defined in README "Statistics". Fields marked tondex are extensions (exact raw
 * amounts and counts beside STON.fi's display fields); USD figures are null while no price is known.
 */
import { z } from "zod";
import { operationDetails } from "./objects.ts";
import {
  addressIn,
  addressOut,
  boolIn,
  decimalOut,
  fractionOut,
  hashOut,
  timestampIn,
  timestampOut,
} from "./wire.ts";

export const dexStatsQuery = z.object({ since: timestampIn.optional(), until: timestampIn.optional() });
export const statsWindowQuery = z.object({ since: timestampIn, until: timestampIn });
export const poolStatsQuery = statsWindowQuery.extend({ pool_address: addressIn.optional() });
/** tondex: `unique_wallets=true` counts each listed pool's distinct wallets too (always for one pool). */
export const poolStatsListQuery = poolStatsQuery.extend({ unique_wallets: boolIn.optional() });
export const referrerStatsQuery = statsWindowQuery.extend({ referrer_address: addressIn });

const count = z.number().int().nonnegative();

export const dexStatsResponse = z
  .object({
    since: timestampOut,
    until: timestampOut,
    stats: z
      .object({
        tvl: fractionOut.nullable(),
        volume_usd: fractionOut.nullable(),
        trades: count,
        unique_wallets: count,
      })
      .strict(),
  })
  .strict();

export const poolStats = z
  .object({
    pool_address: addressOut,
    router_address: addressOut.nullable(),
    url: z.string(),
    base_id: addressOut.nullable(),
    base_name: z.string().nullable(),
    base_symbol: z.string().nullable(),
    quote_id: addressOut.nullable(),
    quote_name: z.string().nullable(),
    quote_symbol: z.string().nullable(),
    last_price: fractionOut.nullable(),
    base_volume: fractionOut.nullable(),
    quote_volume: fractionOut.nullable(),
    base_liquidity: fractionOut.nullable(),
    quote_liquidity: fractionOut.nullable(),
    lp_price: fractionOut.nullable(),
    lp_price_usd: fractionOut.nullable(),
    apy: fractionOut.nullable().optional(),
    // tondex: exact figures of the window.
    trades: count,
    // Present for one pool, or when asked for (`unique_wallets=true`).
    unique_wallets: count.optional(),
    volume_usd: fractionOut.nullable(),
    base_volume_units: decimalOut,
    quote_volume_units: decimalOut,
    protocol_fee_base_units: decimalOut.nullable(),
    protocol_fee_quote_units: decimalOut.nullable(),
    referral_fee_base_units: decimalOut,
    referral_fee_quote_units: decimalOut,
  })
  .strict();

export const poolStatsResponse = z
  .object({
    since: timestampOut,
    until: timestampOut,
    unique_wallets_count: count,
    stats: z.array(poolStats),
  })
  .strict();

export const feeStatsResponse = z
  .object({
    assets_fee_stats: z.array(
      z
        .object({
          asset_address: addressOut,
          accrued: decimalOut,
          accrued_usd: fractionOut.nullable(),
          withdrawn: decimalOut,
          withdrawn_usd: fractionOut.nullable(),
        })
        .strict(),
    ),
    since: timestampOut,
    until: timestampOut,
    total_accrued_usd: fractionOut.nullable(),
    total_withdrawn_usd: fractionOut.nullable(),
  })
  .strict();

/** Flat operation details of the swap that paid the fee, with the referrer and the DEX version. */
export const feeAccrual = operationDetails.extend({
  referral_address: addressOut,
  dex_version: z.number().int(),
});
export const feeAccrualsResponse = z.object({ operations: z.array(feeAccrual) }).strict();

export const feeWithdrawal = z
  .object({
    amount: decimalOut,
    asset_address: addressOut.nullable(),
    exit_code: z.string(),
    operation_wallet_address: addressOut.nullable(),
    router_address: addressOut.nullable(),
    success: z.boolean(),
    vault_address: addressOut,
    vault_tx_hash: hashOut,
    vault_tx_lt: z.number().int().nonnegative(),
    vault_tx_timestamp: timestampOut,
  })
  .strict();
export const feeWithdrawalsResponse = z.object({ withdrawals: z.array(feeWithdrawal) }).strict();
