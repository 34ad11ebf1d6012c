/**
 * What the query functions (api/queries/) return beyond the read model's records, and the mappers
 * (api/mappers/) turn into DTOs. Declared here so the mappers import no query module (queries use the
 * mappers' formatting; the other direction would be a cycle).
 */
import type { Operation } from "../dex/classify/index.ts";
import type { RawTransaction } from "../schemas/raw-transaction.ts";
import type { AssetRecord, LpPositionRecord, OperationRecord, PoolRecord, RawAddress } from "./read-model.ts";

/** A wallet's balance of one asset: absent fields are unknown (no chain access, or the chain did not say). */
export type WalletBalance = { balance?: bigint; jettonWallet?: RawAddress };

export type OperationView = { op: OperationRecord; asset0: AssetRecord; asset1: AssetRecord };

export type ActionTree = {
  root: RawTransaction;
  txs: RawTransaction[];
  operations: Operation[];
  /** Every internal message sent inside the tree reached its destination transaction. */
  completed: boolean;
};

export type PoolView = { pool: PoolRecord; position?: LpPositionRecord };
