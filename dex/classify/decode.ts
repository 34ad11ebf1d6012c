/**
 * Stage 1 of the classifier (STYLE practice 13): decode every message of every transaction on its own,
 * with the message codecs, before any assembly. Nothing here looks at more than one message, except to
 * pick the forward payload that belongs to the body. Never throws: an unreadable BOC becomes a
 * `boc_error` record.
 */
import type { Cell } from "@ton/core";
import type { RawMessage } from "../../schemas/raw-transaction.ts";
import { type Decoded, decodeBody, decodeForwardPayload } from "../codecs/index.ts";
import { buildGraph, type TxGraph, type TxNode } from "./graph.ts";
import type { DecodedMessage } from "./message.ts";
import { bodyCell, type ClassifyMemo, memoised } from "./message-cache.ts";
import { errorText } from "./util.ts";

export type { BocError, DecodedMessage } from "./message.ts";

export type DecodedTx = TxNode & {
  in: DecodedMessage | null;
  outs: DecodedMessage[];
};

export type DecodedBatch = TxGraph & {
  txs: DecodedTx[];
  byTx: Map<string, DecodedTx>;
  /** account → its transactions, in batch (lt) order. */
  byAccount: Map<string, DecodedTx[]>;
  /** message hash → decoded message (in_msg and out_msgs copies are identical). */
  messages: Map<string, DecodedMessage>;
  /** What earlier calls decoded, for the stages' nested decodes (./message-cache.ts). */
  memo: ClassifyMemo | undefined;
};

/** The forward payload a STON.fi contract would read: v1 and v2 routers take the first ref, else inline bits. */
function forwardPayloadOf(body: Decoded): Cell | null {
  switch (body.kind) {
    case "jetton.transfer":
    case "jetton.transfer_notification":
    case "jetton.internal_transfer":
    case "pton.v2.ton_transfer":
      return body.forwardPayload?.payload ?? null;
    default:
      return null;
  }
}

export function decodeMessage(raw: RawMessage, memo?: ClassifyMemo): DecodedMessage {
  const parsed = bodyCell(memo, raw);
  if (!parsed.ok) {
    return {
      raw,
      body: { kind: "boc_error", op: raw.opcode, reason: `bad body BOC: ${errorText(parsed.error)}` },
      payload: null,
    };
  }
  const body = decodeBody(parsed.cell);
  // Decoded once per message object: the whole body cell need not stay cached beside the result.
  memo?.cells.delete(raw);
  const payloadCell = forwardPayloadOf(body);
  const payload =
    payloadCell !== null && payloadCell.bits.length >= 32 ? decodeForwardPayload(payloadCell) : null;
  return { raw, body, payload };
}

/** `decodeMessage`, answered from `memo` when an earlier call decoded the same message object. */
export function decodeMessageOnce(raw: RawMessage, memo?: ClassifyMemo): DecodedMessage {
  return memoised(memo?.decoded, raw, (r) => decodeMessage(r, memo));
}

/** `memo` (./message-cache.ts) reuses messages decoded by earlier calls; the result is the same without it. */
export function decodeBatch(graph: TxGraph, memo?: ClassifyMemo): DecodedBatch {
  const messages = new Map<string, DecodedMessage>();
  const decodeOnce = (raw: RawMessage): DecodedMessage => {
    const known = messages.get(raw.hash);
    if (known) return known;
    const decoded = decodeMessageOnce(raw, memo);
    messages.set(raw.hash, decoded);
    return decoded;
  };
  // Plain loops and one object literal per node: this runs for every transaction of every window step.
  const txs = new Array<DecodedTx>(graph.nodes.length);
  for (let i = 0; i < graph.nodes.length; i++) {
    const { tx, lt, ok } = graph.nodes[i] as TxNode;
    const outs = new Array<DecodedMessage>(tx.out_msgs.length);
    for (let j = 0; j < outs.length; j++) outs[j] = decodeOnce(tx.out_msgs[j] as RawMessage);
    txs[i] = { tx, lt, ok, in: tx.in_msg ? decodeOnce(tx.in_msg) : null, outs };
  }
  const byTx = new Map(txs.map((t) => [t.tx.hash, t]));
  const byAccount = new Map<string, DecodedTx[]>();
  for (const t of txs) {
    const list = byAccount.get(t.tx.account);
    if (list === undefined) byAccount.set(t.tx.account, [t]);
    else list.push(t);
  }
  return { ...graph, txs, byTx, byAccount, messages, memo };
}

export function decodeTransactions(txs: Parameters<typeof buildGraph>[0], memo?: ClassifyMemo): DecodedBatch {
  return decodeBatch(buildGraph(txs), memo);
}

/** The decoded transaction that sent `t`'s inbound message, if it is in the batch. */
export function parentTx(batch: DecodedBatch, t: DecodedTx): DecodedTx | undefined {
  const inMsg = t.tx.in_msg;
  const node = inMsg ? batch.producer.get(inMsg.hash) : undefined;
  return node ? batch.byTx.get(node.tx.hash) : undefined;
}

/** The decoded transaction that consumed message `m`, if it is in the batch. */
export function childTx(batch: DecodedBatch, m: DecodedMessage): DecodedTx | undefined {
  const node = batch.consumer.get(m.raw.hash);
  return node ? batch.byTx.get(node.tx.hash) : undefined;
}
