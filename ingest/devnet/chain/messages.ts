/**
 * Message cells: every message is a real @ton/core `Message` (CommonMsgInfo with created_lt/created_at,
 * ihr_fee 0, fwd_fee), serialised as `storeMessage` would (./tlb.ts), so its hash is the cell hash TON would
 * show.
 */
import { type Address, beginCell, type Cell, type Message, type StateInit } from "@ton/core";
import type { RawMessage } from "../../../schemas/raw-transaction.ts";
import { distinctCells } from "./boc.ts";
import { CellWriter } from "./cell-writer.ts";
import type { FastCell } from "./fast-cell.ts";
import { BOUNCE_BODY_BITS } from "./fees.ts";
import { writeMessage } from "./tlb.ts";

/**
 * A Message the devnet made (`internalMessage`, `externalMessage`), with room for its cell and its
 * RawTransaction record (./record.ts), each made once: the same message appears in the sender's
 * transaction, the action list, the receiver's transaction and both records. Fields rather than WeakMap
 * entries, because weak-map entries are what the young-generation GC pays most for.
 */
export type DevnetMessage = Message & { cell: FastCell | undefined; raw: RawMessage | undefined };

export const isDevnetMessage = (message: Message): message is DevnetMessage => "raw" in message;

/** The cells of Message objects made elsewhere (tests, callers of `writeMessage`'s layout). */
const cells = new WeakMap<Message, FastCell>();

export function messageCell(message: Message): FastCell {
  if (isDevnetMessage(message)) {
    message.cell ??= writeMessage(message);
    return message.cell;
  }
  let cell = cells.get(message);
  if (cell === undefined) {
    cell = writeMessage(message);
    cells.set(message, cell);
  }
  return cell;
}

export type InternalFields = {
  src: Address;
  dest: Address;
  value: bigint;
  bounce: boolean;
  bounced: boolean;
  body: Cell;
  init?: StateInit | undefined;
  forwardFee: bigint;
  createdLt: bigint;
  createdAt: number;
};

export function internalMessage(f: InternalFields): DevnetMessage {
  return {
    info: {
      type: "internal",
      ihrDisabled: true,
      bounce: f.bounce,
      bounced: f.bounced,
      src: f.src,
      dest: f.dest,
      value: { coins: f.value },
      ihrFee: 0n,
      forwardFee: f.forwardFee,
      createdLt: f.createdLt,
      createdAt: f.createdAt,
    },
    init: f.init ?? null,
    body: f.body,
    cell: undefined,
    raw: undefined,
  };
}

/** An external-in message, as @ton/core's `external()` makes it (no source, no import fee). */
export function externalMessage(to: Address, body: Cell, init?: StateInit): DevnetMessage {
  return {
    info: { type: "external-in", dest: to, importFee: 0n },
    init: init ?? undefined,
    body,
    cell: undefined,
    raw: undefined,
  };
}

/**
 * Body of a bounced message: 32 bits 0xffffffff, then the first 256 bits of the original body, no refs
 * (https://docs.ton.org/develop/smart-contracts/guidelines/non-bouncable-messages).
 */
export function bounceBody(original: Cell): Cell {
  const s = original.beginParse();
  const bits = Math.min(BOUNCE_BODY_BITS, s.remainingBits);
  return beginCell().storeUint(0xffffffff, 32).storeBits(s.loadBits(bits)).endCell();
}

/** Distinct cells and bits of a message, as TON counts message sizes (`StorageUsed`); `treeSize`'s count. */
export function messageSize(message: Message): { cells: bigint; bits: bigint } {
  return messagesSize([message]);
}

/** The sum of the messages' `messageSize`s, counted as numbers (two bigints in all). */
export function messagesSize(messages: readonly Message[]): { cells: bigint; bits: bigint } {
  let cells = 0;
  let bits = 0;
  for (const message of messages) {
    const size = distinctCells(messageCell(message));
    cells += size.cells;
    bits += size.bits;
  }
  return { cells: BigInt(cells), bits: BigInt(bits) };
}

/**
 * Stand-in for the c5 action-list hash of messages sent with `modes` (no TVM runs here), as a hash key
 * (./fast-cell.ts `FastCell.key`): `out_list` shaped cells chaining `action_send_msg#0ec3c86d mode:uint8
 * ^message` over the messages' own cells, so it commits to the same content without serialising every
 * message a second time.
 */
export function actionListKey(messages: readonly Message[], modes: readonly number[]): string {
  let list = EMPTY_LIST;
  for (let i = 0; i < messages.length; i++) {
    const message = messageCell(messages[i]!);
    list = new CellWriter().ref(list).uint(0x0ec3c86d, 32).uint(modes[i]!, 8).ref(message).end();
  }
  return list.key;
}

const EMPTY_LIST = new CellWriter().end();
