/**
 * Swap status, transaction query and action tree (api.md §6.4–§6.6). The documented POST aliases
 * (`/v1/transaction/query`, `/v1/transaction/action_tree`) take the same parameters in the query string or
 * in a JSON body (api.md §12.2: the encoding is unknown, so both are accepted).
 */
import { z } from "zod";
import { txId } from "./objects.ts";
import { addressIn, addressOut, decimalOut, hashIn, hashOut, queryIdIn, timestampIn } from "./wire.ts";

export const swapStatusQuery = z.object({
  router_address: addressIn,
  owner_address: addressIn,
  query_id: queryIdIn,
});

export const swapStatusResponse = z.discriminatedUnion("@type", [
  z.object({ "@type": z.literal("NotFound") }).strict(),
  z
    .object({
      "@type": z.literal("Found"),
      address: addressOut,
      query_id: decimalOut,
      exit_code: z.string(),
      coins: decimalOut,
      logical_time: decimalOut,
      tx_hash: hashOut,
      /** JSON text of `{ "<asset address>": "<signed delta>" }` for the swapping wallet. */
      balance_deltas: z.string(),
    })
    .strict(),
]);
export type SwapStatusDto = z.infer<typeof swapStatusResponse>;

/** Fields of the transaction lookup; which combination is valid is checked by the query (it names the field). */
const txQueryFields = {
  wallet_address: addressIn.optional(),
  query_id: queryIdIn.optional(),
  ext_msg_hash: hashIn.optional(),
  min_tx_timestamp: timestampIn.optional(),
};
export const txQueryQuery = z.object(txQueryFields);
export const txQueryBody = z.object(txQueryFields);
export type TxQueryInput = z.output<typeof txQueryQuery>;

export const txQueryResponse = z
  .object({ tx_id: txId.optional(), wallet_seqno: z.number().int().nonnegative().optional() })
  .strict();

export const actionTreeParams = z.object({ hash: hashIn });
/** POST alias: the hash under `hash` or `tx_hash`, in the query string or the body. */
const actionTreeFields = { hash: hashIn.optional(), tx_hash: hashIn.optional() };
export const actionTreeQuery = z.object(actionTreeFields);
export const actionTreeBody = z.object(actionTreeFields);

/** u32/u64 payload integers are JSON numbers (api.md §6.6) unless beyond 2^53, then decimal strings. */
const payloadValue = z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown())]);

export const actionStatus = z.discriminatedUnion("@type", [
  z.object({ "@type": z.literal("pending") }).strict(),
  z.object({ "@type": z.literal("aborted") }).strict(),
  z
    .object({ "@type": z.literal("completed"), tx_id: txId, success: z.boolean(), exit_code: z.string() })
    // The result fields depend on the action type and exit code (api.md §6.6).
    .passthrough(),
]);

export const action = z
  .object({
    "@type": z.string(),
    contract_major_version: z.enum(["v1", "v2", "v3"]).optional(),
    destination: addressOut.optional(),
    tx_payload: z.record(z.string(), payloadValue),
    status: actionStatus,
    prev_index: z.number().int().nonnegative().optional(),
    effects: z.array(z.object({ "@type": z.string(), status: actionStatus }).strict()).optional(),
  })
  .strict();

export const actionTreeResponse = z
  .object({ tx_chain_completed: z.boolean(), initial_tx_id: txId, actions: z.array(action) })
  .strict();
export type ActionTreeDto = z.infer<typeof actionTreeResponse>;
export type ActionDto = z.infer<typeof action>;
export type ActionStatusDto = z.infer<typeof actionStatus>;
