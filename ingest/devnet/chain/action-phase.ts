/**
 * The action phase of a devnet transaction: TON's `TransactionActionPhase`, with `actionListHash` kept as
 * the action-list cell's hash key (./fast-cell.ts `FastCell.key`) and made a bigint only when read. The
 * description cell writes the key's bytes (./tlb.ts `descriptionCell`): a bigint parsed from hex on every
 * transaction was a percent of the devnet's time, for a value nothing else reads.
 */
import type { StorageUsed, TransactionActionPhase } from "@ton/core";
import { hexOfKey } from "./fast-cell.ts";

export class ActionPhase implements TransactionActionPhase {
  readonly valid = true;
  readonly statusChange = "unchanged" as const;
  readonly specActions = 0;
  #actionListHash: bigint | undefined = undefined;

  constructor(
    readonly success: boolean,
    readonly noFunds: boolean,
    /** Forward fees of the messages sent, which are all the action fees here. */
    readonly totalFwdFees: bigint,
    readonly resultCode: number,
    readonly totalActions: number,
    readonly skippedActions: number,
    readonly messagesCreated: number,
    /** The action list's hash, as a hash key. */
    readonly actionListKey: string,
    readonly totalMessageSize: StorageUsed,
  ) {}

  get totalActionFees(): bigint {
    return this.totalFwdFees;
  }

  get actionListHash(): bigint {
    this.#actionListHash ??= BigInt(`0x${hexOfKey(this.actionListKey)}`);
    return this.#actionListHash;
  }
}
