/** Wallet routes (api.md §8). The wallet is always the `{wallet}` path segment. */
import { z } from "zod";
import { OPERATION_TYPES, operationInfo, txId } from "./objects.ts";
import { addressIn, addressOut, boolIn, decimalOut, limitIn, repeated, timestampIn } from "./wire.ts";

export const walletParams = z.object({ wallet: addressIn });
export const walletAssetParams = z.object({ wallet: addressIn, asset: addressIn });
export const walletPoolParams = z.object({ wallet: addressIn, pool: addressIn });

const OPERATION_TYPE_BY_LOWER = new Map(OPERATION_TYPES.map((t) => [t.toLowerCase(), t]));

/** An operation type in any letter case (older clients send `swap`), as its canonical name. */
const operationTypeIn = z.preprocess(
  (v) => (typeof v === "string" ? (OPERATION_TYPE_BY_LOWER.get(v.toLowerCase()) ?? v) : v),
  z.enum(OPERATION_TYPES),
);

/** `op_type` is one value in the TS client and repeatable in the Rust one, so both are accepted. */
export const walletOperationsQuery = z.object({
  since: timestampIn,
  until: timestampIn,
  op_type: repeated(operationTypeIn).optional(),
  dex_v2: boolIn.optional(),
});

export const operationsResponse = z.object({ operations: z.array(operationInfo) }).strict();

export const lastTransactionsQuery = z.object({
  limit: limitIn.optional(),
  min_tx_timestamp: timestampIn.optional(),
});
export const lastTransactionsResponse = z
  .object({ seqno: z.number().int().nonnegative().nullable(), tx_list: z.array(txId) })
  .strict();

export const feeVaultsResponse = z
  .object({
    vault_list: z.array(
      z
        .object({
          asset_address: addressOut,
          balance: decimalOut,
          router_address: addressOut,
          vault_address: addressOut,
        })
        .strict(),
    ),
  })
  .strict();
