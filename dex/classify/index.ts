/**
 * The trace classifier: a batch of RawTransactions (any order) → typed STON.fi operations in lt order.
 * Pure and total: it never throws; what it cannot explain becomes an `unknown`/`malformed` entry.
 *
 * Stage 1 (./decode.ts) decodes every message on its own with the codecs. Stage 2 assembles operations,
 * each anchored on the contract's own transaction (pool, vault, router) and enriched from the rest of the
 * batch: assets, payout delivery, multi-hop routes. Output schema: ./README.md.
 */
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { resolveAssets } from "./assets.ts";
import { type DecodedBatch, decodeTransactions } from "./decode.ts";
import { leftovers } from "./leftovers.ts";
import { assembleLiquidity } from "./liquidity.ts";
import { assembleRejectedSwaps } from "./rejects.ts";
import { assembleRoutes } from "./routes.ts";
import { type AssembledLeg, assembleSwapLegs } from "./swaps.ts";
import type { ClassifyOptions, Operation, UnknownOperation } from "./types.ts";
import { errorText } from "./util.ts";
import { assembleVaultOps } from "./vault.ts";

export { decodeMessageOnce } from "./decode.ts";
export {
  type BocParser,
  type BodyCell,
  bodyCell,
  type ClassifyMemo,
  createClassifyMemo,
} from "./message-cache.ts";
export type * from "./types.ts";

const RANK: Record<Operation["type"], number> = {
  swap_route: 0,
  swap: 1,
  referral_payment: 2,
  vault_deposit: 3,
  vault_withdrawal: 4,
  liquidity_provide: 5,
  liquidity_mint: 6,
  liquidity_withdraw: 7,
  unknown: 8,
  malformed: 9,
};

export function compareOperations(a: Operation, b: Operation): number {
  if (a.lt !== b.lt) return a.lt < b.lt ? -1 : 1;
  if (a.type !== b.type) return RANK[a.type] - RANK[b.type];
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function internalError(stage: string, error: unknown, batch: DecodedBatch | null): UnknownOperation {
  const first = batch?.txs[0];
  return {
    type: "malformed",
    id: `${first?.tx.hash ?? "batch"}:${stage}:error`,
    tx_hash: first?.tx.hash ?? "",
    lt: first?.lt ?? 0n,
    msg_hash: null,
    opcode: null,
    reason: `classifier stage '${stage}' failed: ${errorText(error)}`,
  };
}

/** Runs one assembly stage; a bug in it costs that stage's operations, not the batch. */
function stage<T>(name: string, batch: DecodedBatch, errors: UnknownOperation[], fallback: T, f: () => T): T {
  try {
    return f();
  } catch (error) {
    errors.push(internalError(name, error, batch));
    return fallback;
  }
}

export function classify(txs: readonly RawTransaction[], options: ClassifyOptions = {}): Operation[] {
  let batch: DecodedBatch;
  try {
    batch = decodeTransactions(txs, options.memo);
  } catch (error) {
    return [internalError("decode", error, null)];
  }
  const errors: UnknownOperation[] = [];
  const assets = stage("assets", batch, errors, null, () =>
    resolveAssets(batch, options.jettonMasters, options.memo),
  );
  if (assets === null) return errors;
  const legs: AssembledLeg[] = [
    ...stage("swaps", batch, errors, [], () => assembleSwapLegs(batch, assets)),
    ...stage("rejected_swaps", batch, errors, [], () => assembleRejectedSwaps(batch, assets)),
  ].sort((a, b) => (a.leg.lt === b.leg.lt ? 0 : a.leg.lt < b.leg.lt ? -1 : 1));
  const routes = stage("routes", batch, errors, [], () => assembleRoutes(batch, legs));
  const vault = stage("vault", batch, errors, { deposits: [], withdrawals: [], consumed: [] }, () =>
    assembleVaultOps(batch, assets),
  );
  const liquidity = stage("liquidity", batch, errors, { ops: [], consumed: [] }, () =>
    assembleLiquidity(batch, assets),
  );
  const ops: Operation[] = [
    ...routes,
    ...legs.map((l) => l.leg),
    ...legs.flatMap((l) => (l.referral ? [l.referral] : [])),
    ...vault.deposits,
    ...vault.withdrawals,
    ...liquidity.ops,
  ];
  const consumed = new Set([...legs.flatMap((l) => l.consumed), ...vault.consumed, ...liquidity.consumed]);
  const rest = stage("leftovers", batch, errors, [], () => leftovers(batch, ops, consumed));
  return [...ops, ...rest, ...errors].sort(compareOperations);
}
