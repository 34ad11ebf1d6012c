/**
 * Executed transaction → RawTransaction record, built from the devnet's own Message objects and cached
 * cells instead of parsing the transaction cell back (schemas/from-ton-core.ts does that for real
 * blocks; a test checks both give the same record for every devnet transaction).
 */
import { beginCell, type Cell, type Message, storeStateInit } from "@ton/core";
import { rawAddressOf } from "../../../schemas/from-ton-core.ts";
import { RAW_TX_VERSION, type RawMessage, type RawTransaction } from "../../../schemas/raw-transaction.ts";
import type { Executed } from "./execute.ts";
import { messageCell } from "./messages.ts";

export type BlockIds = { mc_seqno: number; shard: string; block_seqno: number };

/** One record per Message object: the same message is the sender's out_msg and the receiver's in_msg. */
const records = new WeakMap<Message, RawMessage>();

const boc = (cell: Cell): string => cell.toBoc().toString("base64");

export function rawMessage(message: Message): RawMessage {
  const cached = records.get(message);
  if (cached !== undefined) return cached;
  const { info, body } = message;
  const common = {
    hash: messageCell(message).hash().toString("hex"),
    opcode: body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null,
    body_boc: boc(body),
    ...(message.init ? { init_boc: boc(beginCell().store(storeStateInit(message.init)).endCell()) } : {}),
  };
  let record: RawMessage;
  if (info.type === "internal") {
    record = {
      ...common,
      source: rawAddressOf(info.src),
      destination: rawAddressOf(info.dest),
      value: info.value.coins.toString(),
      fwd_fee: info.forwardFee.toString(),
      bounce: info.bounce,
      bounced: info.bounced,
      created_lt: info.createdLt.toString(),
      created_at: info.createdAt,
    };
  } else if (info.type === "external-in") {
    record = {
      ...common,
      source: null,
      destination: rawAddressOf(info.dest),
      value: null,
      fwd_fee: null,
      bounce: null,
      bounced: null,
      created_lt: null,
      created_at: null,
    };
  } else {
    throw new TypeError("the devnet sends no external-out messages");
  }
  records.set(message, record);
  return record;
}

export function rawTransaction(tx: Executed, block: BlockIds): RawTransaction {
  const { computePhase, actionPhase, aborted } = tx.description;
  return {
    version: RAW_TX_VERSION,
    mc_seqno: block.mc_seqno,
    shard: block.shard,
    block_seqno: block.block_seqno,
    hash: tx.hash.toString("hex"),
    lt: tx.lt.toString(),
    now: tx.now,
    account: rawAddressOf(tx.address),
    aborted,
    compute:
      computePhase.type === "skipped"
        ? { success: false, exit_code: null }
        : { success: computePhase.success, exit_code: computePhase.exitCode },
    action: actionPhase ? { success: actionPhase.success, result_code: actionPhase.resultCode } : null,
    in_msg: rawMessage(tx.inMessage),
    out_msgs: tx.outMessages.map(rawMessage),
    boc: boc(tx.cell),
  };
}
