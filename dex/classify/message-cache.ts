/**
 * Results that depend on one message alone, kept across `classify` calls. A caller that classifies an
 * overlapping set of transactions again and again (the processor's trace window re-classifies its recent
 * blocks on every step) would otherwise re-parse the same BOCs each time, which was most of its cost.
 *
 * Entries are keyed by the RawMessage object (WeakMap), so an entry lives exactly as long as the caller
 * keeps the transaction that holds it, and a different object with the same hash is decoded afresh. The
 * cached values are never mutated by the classifier, so sharing them between calls changes no output.
 */
import { Cell } from "@ton/core";
import type { RawMessage } from "../../schemas/raw-transaction.ts";
import { type DecodedPayload, decodeForwardPayload } from "../codecs/index.ts";
import type { DecodedMessage, WalletData } from "./message.ts";

/** A message body parsed from its base64 BOC, or why it does not deserialize. */
export type BodyCell =
  | { readonly ok: true; readonly cell: Cell }
  | { readonly ok: false; readonly error: unknown };

/**
 * Parses a message body's base64 BOC: `Cell.fromBase64`, or any parser that gives the same cells and the
 * same errors (a composition root may hand in a faster one: infra/library-patches/fast-boc.ts).
 */
export type BocParser = (boc: string) => Cell;

const plainParser: BocParser = (boc) => Cell.fromBase64(boc);

export type ClassifyMemo = {
  /** The body parse of a message, with the memo's parser. */
  readonly parseBody: (raw: RawMessage) => BodyCell;
  /** Body cells, also shared with other readers of the same messages (the processor's pool tracker). */
  readonly cells: WeakMap<RawMessage, BodyCell>;
  /** The message decoded on its own (body, forward payload). */
  readonly decoded: WeakMap<RawMessage, DecodedMessage>;
  /** The jetton-wallet data candidates read from the message's StateInit. */
  readonly walletData: WeakMap<RawMessage, readonly WalletData[]>;
  /**
   * The same by content, destination → StateInit BOC → candidates (all they depend on): a jetton wallet
   * receives its StateInit with every internal_transfer, so the same pair comes back message after
   * message, and checking it hashes the wallet's whole code. Keyed by the records' own strings (no
   * copies); bounded: emptied when it holds WALLET_DATA_ENTRIES pairs.
   */
  readonly walletDataByContent: {
    pairs: number;
    readonly byWallet: Map<string, Map<string, readonly WalletData[]>>;
  };
  /** Nested `dex_payload` cells of decoded bodies (v2 swap, provide_lp), decoded on their own. */
  readonly payloads: WeakMap<Cell, DecodedPayload>;
};

/** Distinct (wallet, StateInit) pairs kept: about 1-2 kB of BOC each, so at most some 20 MB. */
export const WALLET_DATA_ENTRIES = 10_000;

export function createClassifyMemo(parseBoc: BocParser = plainParser): ClassifyMemo {
  return {
    parseBody: (raw) => parseBody(raw, parseBoc),
    cells: new WeakMap(),
    decoded: new WeakMap(),
    walletData: new WeakMap(),
    walletDataByContent: { pairs: 0, byWallet: new Map() },
    payloads: new WeakMap(),
  };
}

function parseBody(raw: RawMessage, parseBoc: BocParser): BodyCell {
  try {
    return { ok: true, cell: parseBoc(raw.body_boc) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The body cell of `raw` (cells are immutable, so one parse serves every reader). */
export function bodyCell(memo: ClassifyMemo | undefined, raw: RawMessage): BodyCell {
  if (memo === undefined) return parseBody(raw, plainParser);
  return memoised(memo.cells, raw, memo.parseBody);
}

/** `key`'s memoised value, computing and storing it on a miss; no memo: just compute. */
export function memoised<K extends object, V>(
  map: WeakMap<K, V> | undefined,
  key: K,
  compute: (key: K) => V,
): V {
  if (map === undefined) return compute(key);
  const known = map.get(key);
  if (known !== undefined) return known;
  const value = compute(key);
  map.set(key, value);
  return value;
}

/** `decodeForwardPayload(cell)` (no hint) of a cell held by a memoised body: the cell object is the key. */
export function payloadOnce(memo: ClassifyMemo | undefined, cell: Cell): DecodedPayload {
  return memoised(memo?.payloads, cell, (c) => decodeForwardPayload(c));
}
