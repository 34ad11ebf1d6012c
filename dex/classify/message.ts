/**
 * The per-message records of the classifier, in a module of their own (types only) so the stages and the
 * message cache (./message-cache.ts) can all import them without importing each other.
 */

import type { RawMessage } from "../../schemas/raw-transaction.ts";
import type { Decoded, DecodedPayload } from "../codecs/index.ts";

export type BocError = { kind: "boc_error"; op: number | null; reason: string };

export type DecodedMessage = {
  raw: RawMessage;
  body: Decoded | BocError;
  /** The DEX command or exit code carried in a transfer / notification / ton_transfer forward payload. */
  payload: DecodedPayload | null;
};

/** What a jetton wallet's StateInit data says: its owner and master (raw addresses; null: not there). */
export type WalletData = { owner: string | null; master: string | null };
