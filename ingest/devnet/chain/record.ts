/**
 * Executed transaction → RawTransaction record, built from the devnet's own Message objects and cached
 * cells instead of parsing the transaction cell back (schemas/from-ton-core.ts does that for real
 * blocks; a test checks both give the same record for every devnet transaction).
 */
import type { Address, Message } from "@ton/core";
import { ACCOUNT_STATUS_NAME } from "../../../schemas/from-ton-core.ts";
import { RAW_TX_VERSION, type RawMessage, type RawTransaction } from "../../../schemas/raw-transaction.ts";
import { toRawAddress } from "../../../schemas/ton.ts";
import { toBocBase64 } from "./boc.ts";
import type { Executed } from "./execute.ts";
import { type AnyCell, bitsOf, dataOf, FastCell, fastOf, hexOfKey } from "./fast-cell.ts";
import { isDevnetMessage, messageCell } from "./messages.ts";
import { stateInitCell } from "./tlb.ts";

export type BlockIds = { mc_seqno: number; shard: string; block_seqno: number };

/**
 * One record per Message object: the same message is the sender's out_msg and the receiver's in_msg. The
 * devnet's own messages keep it in their `raw` field (./messages.ts `DevnetMessage`); others here.
 */
const records = new WeakMap<Message, RawMessage>();

/**
 * Base64 BOC per (immutable) cell, kept on the FastCell that is or stands for it (./fast-cell.ts `fastOf`):
 * a body forwarded unchanged (echoes, bounces of bodies) is written once. Exotic cells have no FastCell.
 */
const exoticBocs = new WeakMap<AnyCell, string>();

function boc(cell: AnyCell): string {
  const fast = cell instanceof FastCell ? cell : fastOf(cell);
  if (fast !== null) {
    fast.boc64 ??= toBocBase64(fast);
    return fast.boc64;
  }
  let b64 = exoticBocs.get(cell);
  if (b64 === undefined) {
    b64 = toBocBase64(cell);
    exoticBocs.set(cell, b64);
  }
  return b64;
}

/**
 * `toRawAddress` (`0:HEX`, upper case) per Address object: the same few hundred addresses appear in every
 * block. The chain keys its accounts by it too, so each Address object has one cache entry.
 */
const rawAddresses = new WeakMap<Address, string>();

export function rawAddress(address: Address): string {
  let raw = rawAddresses.get(address);
  if (raw === undefined) {
    raw = toRawAddress(address);
    rawAddresses.set(address, raw);
  }
  return raw;
}

/** The first 32 bits of a body, read from its padded bytes (what `preloadUint(32)` returns). */
function opcodeOf(body: AnyCell): number | null {
  if (bitsOf(body) < 32) return null;
  const d = dataOf(body);
  return ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0;
}

export function rawMessage(message: Message): RawMessage {
  const own = isDevnetMessage(message) ? message : null;
  const cached = own !== null ? own.raw : records.get(message);
  if (cached !== undefined) return cached;
  const { info, body } = message;
  // Built field by field, in the wire order (hash, opcode, body_boc, [init_boc], source, ...), without the
  // intermediate objects of spreads: this runs for every message.
  const r: Record<string, unknown> = {
    hash: hexOfKey(messageCell(message).key),
    opcode: opcodeOf(body),
    body_boc: boc(body),
  };
  if (message.init) r.init_boc = boc(stateInitCell(message.init));
  if (info.type === "internal") {
    r.source = rawAddress(info.src);
    r.destination = rawAddress(info.dest);
    r.value = info.value.coins.toString();
    r.fwd_fee = info.forwardFee.toString();
    r.bounce = info.bounce;
    r.bounced = info.bounced;
    r.created_lt = info.createdLt.toString();
    r.created_at = info.createdAt;
  } else if (info.type === "external-in") {
    r.source = null;
    r.destination = rawAddress(info.dest);
    r.value = null;
    r.fwd_fee = null;
    r.bounce = null;
    r.bounced = null;
    r.created_lt = null;
    r.created_at = null;
  } else {
    throw new TypeError("the devnet sends no external-out messages");
  }
  const record = r as RawMessage;
  if (own !== null) own.raw = record;
  else records.set(message, record);
  return record;
}

/** `prev_trans_hash` of an account's first transaction: no previous one. */
const NO_PREV_TX = "0".repeat(64);

export function rawTransaction(tx: Executed, block: BlockIds): RawTransaction {
  const { computePhase, actionPhase, aborted } = tx.description;
  const { prev } = tx;
  return {
    version: RAW_TX_VERSION,
    mc_seqno: block.mc_seqno,
    shard: block.shard,
    block_seqno: block.block_seqno,
    hash: tx.hashHex,
    lt: tx.lt.toString(),
    now: tx.now,
    account: rawAddress(tx.address),
    aborted,
    compute:
      computePhase.type === "skipped"
        ? { success: false, exit_code: null }
        : { success: computePhase.success, exit_code: computePhase.exitCode },
    action: actionPhase ? { success: actionPhase.success, result_code: actionPhase.resultCode } : null,
    in_msg: rawMessage(tx.inMessage),
    out_msgs: tx.outMessages.map(rawMessage),
    // A transaction cell is never serialised twice: no cache entry for it.
    boc: toBocBase64(tx.cell),
    // What the transaction cell says (./execute.ts transactionCell), as schemas/from-ton-core.ts reads it.
    orig_status: ACCOUNT_STATUS_NAME[prev.status],
    end_status: ACCOUNT_STATUS_NAME[tx.account?.status ?? "non-existing"],
    prev_trans_hash: prev.txKey === null ? NO_PREV_TX : hexOfKey(prev.txKey),
    prev_trans_lt: prev.txLt.toString(),
  };
}
