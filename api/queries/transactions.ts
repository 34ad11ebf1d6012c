/**
 * Swap status, transaction lookup and the action tree (api.md §6.4–§6.6). "Not found" is an answer here,
 * not an error: swap status says `NotFound`, the transaction query returns an empty object (HTTP 200).
 */

import { classify } from "../../dex/classify/index.ts";
import type { TxQueryInput } from "../../schemas/api/transactions.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import type { SwapKey, SwapStatusRecord, TxLookup, TxLookupResult } from "../read-model.ts";
import type { ActionTree } from "../views.ts";

export function findSwapStatus(deps: ApiDeps, key: SwapKey): Promise<SwapStatusRecord | null> {
  return deps.data.findSwap(key);
}

/**
 * The lookup window (api.md §6.5, adapted for a self-hosted index): measured back from the newest indexed
 * block, never from the wall clock (replayed and backfilled history stays findable). With a window
 * configured, `min_tx_timestamp` may not reach further back than it; without `min_tx_timestamp` the lookup
 * searches the whole window (all indexed history by default).
 */
function lookupOf(q: TxQueryInput, headS: number, windowS: number): TxLookup {
  const floor = windowS > 0 ? headS - windowS : 0;
  const since = q.min_tx_timestamp ?? floor;
  if (since < floor) {
    throw new BadRequestError(
      "min_tx_timestamp",
      `may not be earlier than ${windowS} seconds before the newest indexed block (${new Date(floor * 1000).toISOString().slice(0, 19)})`,
    );
  }
  if (q.ext_msg_hash !== undefined) {
    if (q.wallet_address !== undefined || q.query_id !== undefined) {
      throw new BadRequestError("ext_msg_hash", "give either ext_msg_hash or wallet_address + query_id");
    }
    return { extMsgHash: q.ext_msg_hash, since };
  }
  if (q.wallet_address === undefined) throw new BadRequestError("wallet_address", "required with query_id");
  if (q.query_id === undefined) throw new BadRequestError("query_id", "required with wallet_address");
  return { wallet: q.wallet_address, queryId: q.query_id, since };
}

export async function queryTransaction(deps: ApiDeps, q: TxQueryInput): Promise<TxLookupResult | null> {
  const head = await deps.data.getIndexedHead();
  const lookup = lookupOf(q, head?.utime ?? 0, deps.txQueryWindowS ?? 0);
  return head === null ? null : deps.data.findTransaction(lookup);
}

/** Limits of the walk: STON.fi traces are a dozen transactions; anything far larger is not one action. */
const MAX_TXS = 512;
const MAX_DEPTH = 64;

const internalOuts = (tx: RawTransaction) => tx.out_msgs.filter((m) => m.destination !== null);

/** Follows message-hash edges from the root, hop by hop, then classifies the collected transactions. */
export async function actionTree(deps: ApiDeps, hash: string): Promise<ActionTree> {
  const root = await deps.data.getTransaction(hash);
  if (root === null)
    throw new NotFoundError("transaction", [{ field: "hash", message: "unknown transaction" }]);
  const txs = [root];
  const seen = new Set([root.hash]);
  let frontier = internalOuts(root).map((m) => m.hash);
  let pending = frontier.length;
  for (let depth = 0; frontier.length > 0 && depth < MAX_DEPTH && txs.length < MAX_TXS; depth++) {
    const next = (await deps.data.getTransactionsByInMsg(frontier)).filter((t) => !seen.has(t.hash));
    pending -= next.length;
    for (const t of next) seen.add(t.hash);
    txs.push(...next);
    frontier = next.flatMap((t) => internalOuts(t).map((m) => m.hash));
    pending += frontier.length;
  }
  return { root, txs, operations: classify(txs), completed: pending === 0 };
}
