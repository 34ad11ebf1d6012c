/**
 * Message cells: every message is a real @ton/core `Message` (CommonMsgInfo with created_lt/created_at,
 * ihr_fee 0, fwd_fee), serialised with `storeMessage`, so its hash is the cell hash TON would show.
 */
import {
  type Address,
  beginCell,
  type Cell,
  external,
  type Message,
  type OutAction,
  type StateInit,
  storeMessage,
  storeOutList,
} from "@ton/core";
import { BOUNCE_BODY_BITS } from "./fees.ts";

export function messageCell(message: Message): Cell {
  return beginCell().store(storeMessage(message)).endCell();
}

export function messageHash(message: Message): bigint {
  return BigInt(`0x${messageCell(message).hash().toString("hex")}`);
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

export function internalMessage(f: InternalFields): Message {
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
  };
}

export function externalMessage(to: Address, body: Cell, init?: StateInit): Message {
  return external({ to, body, init: init ?? null });
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

/** Distinct cells and bits of a cell tree, as TON counts message sizes (`StorageUsed`). */
export function cellSize(root: Cell): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let bits = 0;
  const walk = (c: Cell): void => {
    const key = c.hash().toString("hex");
    if (seen.has(key)) return;
    seen.add(key);
    bits += c.bits.length;
    for (const r of c.refs) walk(r);
  };
  walk(root);
  return { cells: BigInt(seen.size), bits: BigInt(bits) };
}

/** Hash of the c5 action list that would have produced these messages (for the action phase record). */
export function actionListHash(sent: { message: Message; mode: number }[]): bigint {
  const actions: OutAction[] = sent.map(({ message, mode }) => {
    if (message.info.type !== "internal") throw new TypeError("only internal messages are sent by actions");
    return { type: "sendMsg", mode, outMsg: { info: message.info, init: message.init, body: message.body } };
  });
  const cell = beginCell().store(storeOutList(actions)).endCell();
  return BigInt(`0x${cell.hash().toString("hex")}`);
}
