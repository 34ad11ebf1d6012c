/**
 * Builds synthetic RawTransaction chains from message bodies made with the codecs' encoders, for flows no
 * recorded trace covers (v2 cross_swap, router rejections, liquidity). Hashes are derived from content, so
 * a parent's out-message and the child's in-message share the same hash exactly as on chain.
 */
import { createHash } from "node:crypto";
import type { Cell } from "@ton/core";
import { Address } from "@ton/core";
import { RAW_TX_VERSION, type RawMessage, type RawTransaction } from "../../../../schemas/raw-transaction.ts";

export function addr(n: number): Address {
  return new Address(0, Buffer.alloc(32, n));
}

export function rawAddr(n: number): string {
  return `0:${Buffer.alloc(32, n).toString("hex").toUpperCase()}`;
}

let counter = 0n;

export type MsgSpec = { from: number; to: number; body: Cell; value?: bigint; bounced?: boolean };

export function msg(spec: MsgSpec): RawMessage {
  counter += 1n;
  const body = spec.body.toBoc().toString("base64");
  return {
    hash: createHash("sha256").update(`${counter}:${spec.from}:${spec.to}:${body}`).digest("hex"),
    source: rawAddr(spec.from),
    destination: rawAddr(spec.to),
    value: (spec.value ?? 100_000_000n).toString(),
    fwd_fee: "1000000",
    bounce: true,
    bounced: spec.bounced ?? false,
    created_lt: (1000n + counter).toString(),
    created_at: 1_700_000_000,
    opcode: spec.body.bits.length >= 32 ? spec.body.beginParse().preloadUint(32) : null,
    body_boc: body,
  };
}

export type TxSpec = {
  account: number;
  lt: bigint;
  in: RawMessage;
  outs?: RawMessage[];
  exit?: number | null;
};

export function tx(spec: TxSpec): RawTransaction {
  const exit = spec.exit === undefined ? 0 : spec.exit;
  return {
    version: RAW_TX_VERSION,
    mc_seqno: 1,
    shard: null,
    block_seqno: 1,
    hash: createHash("sha256").update(`tx:${spec.in.hash}`).digest("hex"),
    lt: spec.lt.toString(),
    now: 1_700_000_000,
    account: rawAddr(spec.account),
    aborted: exit !== 0,
    compute: { success: exit === 0, exit_code: exit },
    action: exit === 0 ? { success: true, result_code: 0 } : null,
    in_msg: spec.in,
    out_msgs: spec.outs ?? [],
  };
}
