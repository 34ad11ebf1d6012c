/**
 * The recorded-trace file format of test/vectors/mainnet-traces (see its FORMAT.md): one trace with its
 * transactions as toncenter's indexer stored them, plus the expected actions. This module validates such a
 * file and maps its transactions to RawTransaction records (used by tests, `tondex decode` and `replay`).
 */
import { z } from "zod";
import {
  ACCOUNT_STATUSES,
  formatZodError,
  type ParseResult,
  RAW_TX_VERSION,
  type RawMessage,
  type RawTransaction,
  rawAddress,
} from "./raw-transaction.ts";

const digits = z.string().regex(/^\d+$/, "expected a decimal string of digits");
const opcodeHex = z.string().regex(/^0x[0-9a-fA-F]{1,8}$/, "expected 0x-prefixed hex");

const traceMessageSchema = z
  .object({
    hash: z.string().min(1),
    hash_hex: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional(),
    source: rawAddress.nullable(),
    destination: rawAddress.nullable(),
    value: digits.nullable(),
    fwd_fee: digits.nullable(),
    opcode: opcodeHex.nullable(),
    bounce: z.boolean().nullable(),
    bounced: z.boolean().nullable(),
    created_lt: digits.nullable(),
    created_at: z.number().int().nullable(),
    body_boc: z.string().min(1),
    init_state_boc: z.string().min(1).optional(),
  })
  .passthrough();

const traceTransactionSchema = z
  .object({
    hash: z.string().min(1),
    hash_hex: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional(),
    lt: digits,
    now: z.number().int(),
    account: rawAddress,
    mc_block_seqno: z.number().int(),
    block_seqno: z.number().int().optional(),
    aborted: z.boolean(),
    compute_exit_code: z.number().int().nullable(),
    /** The account's status before / after (FORMAT.md "EXTRA"): the indexer's names, as RawTransaction's. */
    orig_status: z.enum(ACCOUNT_STATUSES).optional(),
    end_status: z.enum(ACCOUNT_STATUSES).optional(),
    in_msg: traceMessageSchema.nullable(),
    out_msgs: z.array(traceMessageSchema),
  })
  .passthrough();

const jettonWalletInterface = z
  .object({
    JettonWallet: z.object({ address: rawAddress, owner: rawAddress, jetton: rawAddress }).passthrough(),
  })
  .passthrough();

export const traceFileSchema = z
  .object({
    trace_id: z.string().optional(),
    description: z.string().optional(),
    transactions: z.array(traceTransactionSchema),
    interfaces: z.record(z.string(), z.unknown()).optional(),
    expected: z.array(z.unknown()).optional(),
  })
  .passthrough();

export type TraceFile = z.infer<typeof traceFileSchema>;
type TraceMessage = z.infer<typeof traceMessageSchema>;
type TraceTransaction = z.infer<typeof traceTransactionSchema>;

export function parseTraceFile(json: unknown): ParseResult<TraceFile> {
  const parsed = traceFileSchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: formatZodError(parsed.error) };
}

/** Toncenter writes hashes as standard base64; the bus uses lowercase hex. */
export function base64ToHex(hash: string): string {
  return Buffer.from(hash, "base64").toString("hex");
}

export function hexToBase64(hash: string): string {
  return Buffer.from(hash, "hex").toString("base64");
}

function messageFromTrace(m: TraceMessage): RawMessage {
  return {
    hash: m.hash_hex ?? base64ToHex(m.hash),
    source: m.source,
    destination: m.destination,
    value: m.value,
    fwd_fee: m.fwd_fee,
    bounce: m.bounce,
    bounced: m.bounced,
    created_lt: m.created_lt,
    created_at: m.created_at,
    opcode: m.opcode === null ? null : Number.parseInt(m.opcode.slice(2), 16),
    body_boc: m.body_boc,
    ...(m.init_state_boc === undefined ? {} : { init_boc: m.init_state_boc }),
  };
}

/**
 * The recorded format has no compute_success (exit codes 0 and 1 are TVM's success codes), no action
 * phase and no shard: those become what the schema allows for "unknown". It records the account's status
 * before and after, but not its previous transaction (`prev_trans_*` stay absent).
 */
export function rawTransactionFromTrace(tx: TraceTransaction): RawTransaction {
  const exit = tx.compute_exit_code;
  return {
    version: RAW_TX_VERSION,
    mc_seqno: tx.mc_block_seqno,
    shard: null,
    block_seqno: tx.block_seqno ?? null,
    hash: (tx.hash_hex ?? base64ToHex(tx.hash)).toLowerCase(),
    lt: tx.lt,
    now: tx.now,
    account: tx.account,
    aborted: tx.aborted,
    compute: { success: exit === 0 || exit === 1, exit_code: exit },
    action: null,
    in_msg: tx.in_msg === null ? null : messageFromTrace(tx.in_msg),
    out_msgs: tx.out_msgs.map(messageFromTrace),
    ...(tx.orig_status === undefined ? {} : { orig_status: tx.orig_status }),
    ...(tx.end_status === undefined ? {} : { end_status: tx.end_status }),
  };
}

export function rawTransactionsFromTrace(file: TraceFile): RawTransaction[] {
  return file.transactions.map(rawTransactionFromTrace);
}

/**
 * Jetton wallet → jetton master, as the recording indexer knew it (`interfaces.*.JettonWallet`). The
 * classifier derives masters from the trace itself and uses this only to fill gaps.
 */
export function jettonMastersFromTrace(file: TraceFile): Map<string, string> {
  const masters = new Map<string, string>();
  for (const value of Object.values(file.interfaces ?? {})) {
    const parsed = jettonWalletInterface.safeParse(value);
    if (parsed.success) masters.set(parsed.data.JettonWallet.address, parsed.data.JettonWallet.jetton);
  }
  return masters;
}
