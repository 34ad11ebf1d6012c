/**
 * Ground truth: what the devnet's contracts executed, recorded by the contracts themselves at the moment
 * they act, independently of any decoder. Event types and field names follow the classifier's operations
 * (schemas/operations.ts, dex/classify/README.md), so a test can compare the two field by field:
 * amounts are bigints, addresses `Address` (null = addr_none), exit codes numbers.
 *
 * An event is anchored on the transaction whose handler returned it, which is the transaction the
 * classifier anchors the same operation on (the pool's for a swap, the vault's for a deposit, ...).
 */
import type { Address } from "@ton/core";

export type TruthType =
  | "swap"
  | "referral_payment"
  | "vault_deposit"
  | "vault_withdrawal"
  | "liquidity_provide"
  | "liquidity_mint"
  | "liquidity_withdraw";

export type TruthValue = bigint | number | boolean | string | Address | null;

/** One operation as a contract saw it; `fields` holds only what that contract knows for certain. */
export type TruthEvent = { type: TruthType; fields: Readonly<Record<string, TruthValue>> };

/** A committed event with its anchor transaction. */
export type TruthRecord = TruthEvent & {
  mc_seqno: number;
  tx_hash: string;
  lt: bigint;
  now: number;
  /** Raw address (`0:HEX`) of the contract that executed it. */
  account: string;
};
