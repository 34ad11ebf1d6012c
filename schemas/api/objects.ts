/**
 * Shared response objects of api.md §4, defined once and reused by every route that returns them.
 * Optional fields are omitted rather than sent as null (api.md §1.3). Objects are strict so a test that
 * parses a response notices any field the server emits without declaring it.
 */
import { z } from "zod";
import { addressOut, decimalOut, fractionOut, hashOut, signedDecimalOut, timestampOut } from "./wire.ts";

export const ASSET_KINDS = ["Ton", "Wton", "Jetton", "NotAnAsset"] as const;
export const OPERATION_TYPES = [
  "Swap",
  "SendLiquidity",
  "RefundLiquidity",
  "AddLiquidity",
  "WithdrawLiquidity",
  "SetFees",
  "CollectFees",
  "ResetGas",
] as const;
export const PROVISION_TYPES = ["Initial", "Balanced", "Arbitrary"] as const;

/**
 * §4.4. The DEX generation (major version) is always known; the rest is null while the service does not know
 * it (the router's get-methods not read: no chain access; its pTON not seen in a TON operation).
 */
export const routerInfo = z
  .object({
    address: addressOut,
    major_version: z.number().int(),
    minor_version: z.number().int().nullable(),
    router_type: z.string().nullable(),
    pool_creation_enabled: z.boolean().nullable(),
    pton_master_address: addressOut.nullable(),
    pton_version: z.string().nullable(),
    pton_wallet_address: addressOut.nullable(),
  })
  .strict();

/** §4.1 */
export const assetInfo = z
  .object({
    contract_address: addressOut,
    /** null: not known (no chain access, unreadable metadata), never invented. */
    symbol: z.string().nullable(),
    display_name: z.string().optional(),
    image_url: z.string().optional(),
    /** null: not known (e.g. off-chain metadata not fetched), never a guessed 9. */
    decimals: z.number().int().nonnegative().nullable(),
    kind: z.enum(ASSET_KINDS),
    priority: z.number().int(),
    deprecated: z.boolean(),
    community: z.boolean(),
    blacklisted: z.boolean(),
    default_symbol: z.boolean(),
    taxable: z.boolean(),
    tags: z.array(z.string()),
    dex_price_usd: fractionOut.optional(),
    dex_usd_price: fractionOut.optional(),
    third_party_price_usd: fractionOut.optional(),
    third_party_usd_price: fractionOut.optional(),
    popularity_index: z.number().optional(),
    balance: decimalOut.optional(),
    wallet_address: addressOut.optional(),
    custom_payload_api_uri: z.string().optional(),
    extensions: z.array(z.string()).optional(),
    scale: z.string().optional(),
  })
  .strict();

/** §4.2 */
export const assetInfoV2 = z
  .object({
    contract_address: addressOut,
    kind: z.enum(ASSET_KINDS),
    meta: z
      .object({
        decimals: z.number().int().nonnegative().optional(),
        symbol: z.string().optional(),
        display_name: z.string().optional(),
        image_url: z.string().optional(),
        custom_payload_api_uri: z.string().optional(),
      })
      .strict()
      .optional(),
    tags: z.array(z.string()),
    dex_price_usd: fractionOut.optional(),
    pair_priority: z.number().int().optional(),
    popularity_index: z.number().optional(),
    balance: decimalOut.optional(),
    wallet_address: addressOut.optional(),
    scale: z.string().optional(),
    extensions: z.array(z.string()).optional(),
  })
  .strict();

/**
 * §4.3 — fees are integer basis points as strings; amp/rate/w0 only for the pool types that have them.
 * Unknown is null, never "0" (api.md marks these required; a pool whose state the service does not know,
 * e.g. active before the first transaction indexed and no chain access, has null reserves, fees and LP
 * supply; router and tokens are null until an operation reveals them).
 */
export const poolInfo = z
  .object({
    address: addressOut,
    router_address: addressOut.nullable(),
    token0_address: addressOut.nullable(),
    token1_address: addressOut.nullable(),
    reserve0: decimalOut.nullable(),
    reserve1: decimalOut.nullable(),
    lp_total_supply: decimalOut.nullable(),
    lp_total_supply_usd: fractionOut.optional(),
    lp_price_usd: fractionOut.optional(),
    lp_fee: decimalOut.nullable(),
    protocol_fee: decimalOut.nullable(),
    ref_fee: decimalOut.nullable(),
    protocol_fee_address: addressOut.nullable(),
    collected_token0_protocol_fee: decimalOut.nullable(),
    collected_token1_protocol_fee: decimalOut.nullable(),
    deprecated: z.boolean(),
    apy_1d: fractionOut.optional(),
    apy_7d: fractionOut.optional(),
    apy_30d: fractionOut.optional(),
    volume_24h_usd: fractionOut.optional(),
    amp: decimalOut.optional(),
    rate: decimalOut.optional(),
    w0: decimalOut.optional(),
    lp_wallet_address: addressOut.optional(),
    lp_balance: decimalOut.optional(),
    lp_account_address: addressOut.optional(),
    token0_balance: decimalOut.optional(),
    token1_balance: decimalOut.optional(),
  })
  .strict();

/**
 * §4.6 OperationDetails. `pool_tx_lt` is a JSON number, `wallet_tx_lt` a string (as the real API). Values the
 * service does not know are null, never "0": reserves, deltas, LP supply, LP and protocol fees, the wallet tx.
 */
export const operationDetails = z
  .object({
    pool_tx_hash: hashOut,
    pool_address: addressOut,
    router_address: addressOut,
    pool_tx_lt: z.number().int().nonnegative(),
    pool_tx_timestamp: timestampOut,
    destination_wallet_address: addressOut,
    operation_type: z.enum(OPERATION_TYPES),
    success: z.boolean(),
    exit_code: z.string(),
    asset0_address: addressOut,
    asset0_amount: decimalOut,
    asset0_delta: signedDecimalOut.nullable(),
    asset0_reserve: decimalOut.nullable(),
    asset1_address: addressOut,
    asset1_amount: decimalOut,
    asset1_delta: signedDecimalOut.nullable(),
    asset1_reserve: decimalOut.nullable(),
    lp_token_delta: signedDecimalOut.nullable(),
    lp_token_supply: decimalOut.nullable(),
    fee_asset_address: addressOut.optional(),
    lp_fee_amount: decimalOut.nullable(),
    protocol_fee_amount: decimalOut.nullable(),
    referral_fee_amount: decimalOut,
    referral_address: addressOut.optional(),
    wallet_address: addressOut,
    wallet_tx_lt: decimalOut.nullable(),
    wallet_tx_hash: hashOut.nullable(),
    wallet_tx_timestamp: timestampOut.nullable(),
  })
  .strict();

export const operationInfo = z
  .object({ operation: operationDetails, asset0_info: assetInfo, asset1_info: assetInfo })
  .strict();

/** §4.7 — `lt` is a JSON number on the wire. */
export const txId = z
  .object({ lt: z.number().int().nonnegative(), hash: hashOut, contract_address: addressOut.optional() })
  .strict();

/** §4.8 — nanoTON amounts. */
export const gasParams = z
  .object({
    gas_budget: decimalOut.optional(),
    forward_gas: decimalOut,
    estimated_gas_consumption: decimalOut,
  })
  .strict();

/** The error body of every non-2xx response (DESIGN.md "API"). */
export const errorBody = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }).strict(),
  })
  .strict();

export type RouterInfoDto = z.infer<typeof routerInfo>;
export type AssetInfoDto = z.infer<typeof assetInfo>;
export type AssetInfoV2Dto = z.infer<typeof assetInfoV2>;
export type PoolInfoDto = z.infer<typeof poolInfo>;
export type OperationInfoDto = z.infer<typeof operationInfo>;
export type TxIdDto = z.infer<typeof txId>;
export type GasParamsDto = z.infer<typeof gasParams>;
export type ErrorBodyDto = z.infer<typeof errorBody>;
