/**
 * toncenter v3 `Transaction` (wire.ts) → RawTransaction: a pure mapper. Hashes arrive base64 and leave as
 * lowercase hex; strings that v3 writes for 64-bit and 32-bit numbers (`created_at`) become what the
 * RawTransaction schema wants; the result is validated with that schema, so a field v3 answers in an
 * unexpected form is an error naming it (`/out_msgs/1/body_boc: …`) instead of a wrong record downstream.
 */
import { NonRetryableError } from "../../infra/errors.ts";
import {
  formatZodError,
  RAW_TX_VERSION,
  type RawTransaction,
  rawTransactionSchema,
} from "../../schemas/raw-transaction.ts";
import { base64ToHex } from "../../schemas/trace-file.ts";
import type { V3Message, V3Transaction } from "./wire.ts";

export type MappedTransaction = { tx: RawTransaction; traceId: string | null };

/** v3 writes a shard as `%X` of the uint64 (no leading zeros); RawTransaction wants 16 hex digits. */
export function shardOf(workchain: number, shard: string): string {
  return `${workchain}:${shard.toUpperCase().padStart(16, "0")}`;
}

function messageOf(m: V3Message, where: string) {
  const body = m.message_content?.body;
  // Every message has a body cell (possibly empty); v3 gives its BOC in message_content.body.
  if (body === undefined || body === null || body === "") {
    throw new NonRetryableError(
      `toncenter transaction ${where}: message ${m.hash} has no message_content.body`,
    );
  }
  const init = m.init_state?.body;
  return {
    hash: base64ToHex(m.hash),
    source: m.source,
    destination: m.destination,
    value: m.value,
    fwd_fee: m.fwd_fee,
    bounce: m.bounce,
    bounced: m.bounced,
    created_lt: m.created_lt,
    created_at: m.created_at === null ? null : Number(m.created_at),
    opcode: m.opcode === null ? null : Number.parseInt(m.opcode.slice(2), 16),
    body_boc: body,
    ...(init ? { init_boc: init } : {}),
  };
}

const byCreatedLt = (a: V3Message, b: V3Message): number => {
  const x = BigInt(a.created_lt ?? "0");
  const y = BigInt(b.created_lt ?? "0");
  return x < y ? -1 : x > y ? 1 : 0;
};

export function rawTransactionFromV3(t: V3Transaction): MappedTransaction {
  const where = `${t.account} lt ${t.lt}`;
  const d = t.description;
  const compute =
    d.compute_ph === undefined || d.compute_ph.skipped === true
      ? { success: false, exit_code: null }
      : { success: d.compute_ph.success ?? false, exit_code: d.compute_ph.exit_code ?? null };
  const action =
    d.action === undefined
      ? null
      : { success: d.action.success ?? false, result_code: d.action.result_code ?? 0 };
  const candidate = {
    version: RAW_TX_VERSION,
    mc_seqno: t.mc_block_seqno,
    shard: shardOf(t.block_ref.workchain, t.block_ref.shard),
    block_seqno: t.block_ref.seqno,
    hash: base64ToHex(t.hash),
    lt: t.lt,
    now: t.now,
    account: t.account,
    aborted: d.aborted ?? false,
    compute,
    action,
    in_msg: t.in_msg === null ? null : messageOf(t.in_msg, where),
    // Out-messages in creation order (the order the transaction's action list sent them).
    out_msgs: [...t.out_msgs].sort(byCreatedLt).map((m) => messageOf(m, where)),
    orig_status: t.orig_status,
    end_status: t.end_status,
    prev_trans_hash: base64ToHex(t.prev_trans_hash),
    prev_trans_lt: t.prev_trans_lt,
  };
  const parsed = rawTransactionSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new NonRetryableError(
      `toncenter transaction ${where} does not map to a RawTransaction: ${formatZodError(parsed.error).join("; ")}`,
    );
  }
  return { tx: parsed.data, traceId: t.trace_id ?? null };
}
