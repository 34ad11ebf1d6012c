/**
 * JSON form of the trace classifier's operations (`decode-output.v1`), as printed by `tondex decode` and
 * documented in dex/classify/README.md. Amounts, lt and query_id are decimal strings; addresses raw
 * `0:HEX` (uppercase hex); transaction and message hashes lowercase hex. Tests parse the command's output
 * with these schemas so the documented contract is enforced.
 */
import { z } from "zod";

export const DECODE_OUTPUT_VERSION = "decode-output.v1" as const;

const dec = z.string().regex(/^\d+$/, "expected a decimal string");
const addr = z.string().regex(/^-?\d{1,3}:[0-9A-F]{64}$/, "expected a raw address wc:HEX (uppercase)");
const hash = z.string().regex(/^[0-9a-f]{64}$/, "expected a lowercase hex hash");
const dex = z.enum(["v1", "v2"]);

export const assetJson = z
  .object({ kind: z.enum(["jetton", "ton"]), master: addr.nullable(), router_wallet: addr.nullable() })
  .strict();

export const payoutJson = z
  .object({
    to: addr.nullable(),
    amount: dec,
    router_wallet: addr.nullable(),
    receiver_wallet: addr.nullable(),
    delivered: z.boolean().nullable(),
    tx_hash: hash.nullable(),
  })
  .strict();

const anchor = {
  id: z.string().min(1),
  tx_hash: hash,
  lt: dec,
  now: z.number().int(),
  tx_hashes: z.array(hash),
};

const swap = z
  .object({
    ...anchor,
    type: z.literal("swap"),
    dex,
    router: addr.nullable(),
    pool: addr.nullable(),
    query_id: dec,
    sender: addr.nullable(),
    sender_wallet: addr.nullable(),
    receiver: addr.nullable(),
    offer: assetJson,
    ask: assetJson,
    amount_in: dec,
    amount_out: dec.nullable(),
    min_out: dec.nullable(),
    protocol_fee: dec.nullable(),
    referral_fee: dec.nullable(),
    referrer: addr.nullable(),
    exit_code: z.number().int().nullable(),
    exit_name: z.string(),
    success: z.boolean().nullable(),
    payout: payoutJson.nullable(),
    continues_as_cross_swap: z.boolean(),
    route: z
      .object({ id: z.string().min(1), sender: addr.nullable(), receiver: addr.nullable() })
      .strict()
      .nullable(),
  })
  .strict();

const swapRoute = z
  .object({
    ...anchor,
    type: z.literal("swap_route"),
    dex,
    legs: z.array(z.string()).min(2),
    sender: addr.nullable(),
    receiver: addr.nullable(),
    offer: assetJson,
    ask: assetJson,
    amount_in: dec,
    amount_out: dec.nullable(),
    status: z.enum(["success", "partial", "failed", "unknown"]),
    success: z.boolean().nullable(),
  })
  .strict();

const referralPayment = z
  .object({
    ...anchor,
    type: z.literal("referral_payment"),
    dex: z.literal("v1"),
    router: addr.nullable(),
    pool: addr,
    referrer: addr.nullable(),
    asset: assetJson,
    amount: dec,
    query_id: dec,
    success: z.boolean().nullable(),
    payout: payoutJson.nullable(),
  })
  .strict();

const vaultDeposit = z
  .object({
    ...anchor,
    type: z.literal("vault_deposit"),
    dex: z.literal("v2"),
    router: addr.nullable(),
    pool: addr.nullable(),
    vault: addr.nullable(),
    referrer: addr.nullable(),
    asset: assetJson,
    amount: dec,
    query_id: dec,
    msg_hash: hash.nullable(),
    success: z.boolean().nullable(),
  })
  .strict();

const vaultWithdrawal = z
  .object({
    ...anchor,
    type: z.literal("vault_withdrawal"),
    dex: z.literal("v2"),
    router: addr.nullable(),
    vault: addr,
    owner: addr.nullable(),
    asset: assetJson,
    amount: dec,
    query_id: dec,
    success: z.boolean().nullable(),
    payout: payoutJson.nullable(),
  })
  .strict();

const liquidityProvide = z
  .object({
    ...anchor,
    type: z.literal("liquidity_provide"),
    dex,
    router: addr.nullable(),
    pool: addr,
    sender: addr.nullable(),
    lp_account: addr.nullable(),
    amount0: dec,
    amount1: dec,
    asset0: assetJson,
    asset1: assetJson,
    min_lp_out: dec.nullable(),
    query_id: dec,
    exit_code: z.number().int().nullable(),
    exit_name: z.string(),
    success: z.boolean().nullable(),
    outcome: z.enum(["minted", "mint_failed", "refunded", "stored"]).nullable(),
  })
  .strict();

const liquidityMint = z
  .object({
    ...anchor,
    type: z.literal("liquidity_mint"),
    dex,
    pool: addr,
    user: addr.nullable(),
    receiver: addr.nullable(),
    amount0: dec,
    amount1: dec,
    lp_amount: dec.nullable(),
    query_id: dec,
    success: z.boolean().nullable(),
  })
  .strict();

const liquidityWithdraw = z
  .object({
    ...anchor,
    type: z.literal("liquidity_withdraw"),
    dex,
    kind: z.enum(["burn", "lp_refund"]),
    pool: addr,
    owner: addr.nullable(),
    response: addr.nullable(),
    lp_amount: dec.nullable(),
    amount0: dec,
    amount1: dec,
    asset0: assetJson,
    asset1: assetJson,
    query_id: dec,
    success: z.boolean().nullable(),
  })
  .strict();

const unknownOp = z
  .object({
    type: z.enum(["unknown", "malformed"]),
    id: z.string().min(1),
    tx_hash: z.string(),
    lt: dec,
    msg_hash: hash.nullable(),
    opcode: z.number().int().nullable(),
    reason: z.string().min(1),
  })
  .strict();

export const operationJson = z.union([
  swap,
  swapRoute,
  referralPayment,
  vaultDeposit,
  vaultWithdrawal,
  liquidityProvide,
  liquidityMint,
  liquidityWithdraw,
  unknownOp,
]);

/** One line of `tondex decode` output: a file that decoded (schema version: DECODE_OUTPUT_VERSION). */
export const decodeFileResult = z.object({ file: z.string(), operations: z.array(operationJson) }).strict();

export type OperationJsonDto = z.infer<typeof operationJson>;
export type DecodeFileResult = z.infer<typeof decodeFileResult>;
