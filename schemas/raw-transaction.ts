/**
 * RawTransaction: the record every chain source emits and the bus carries (Kafka topic
 * `tondex.raw-transactions.v1`, key = account). It is the wire layer: decimal strings for amounts and lt,
 * raw `0:HEX` addresses (uppercase hex), base64 BOCs. Processors turn it into domain types with explicit
 * mappers; nothing downstream reads a BOC that has not passed through this schema.
 *
 * Nullability follows what TON itself can omit:
 * - an external-in message has no source, value, fwd_fee, bounce flags or created_lt/at;
 * - an external-out message (a log) has no destination, value or bounce flags;
 * - `compute.exit_code` is null when the compute phase was skipped;
 * - `action` is null when no action phase ran or the source does not record it (recorded traces);
 * - `shard` / `block_seqno` are null when the source does not know them (recorded traces);
 * - `orig_status` / `end_status` / `prev_trans_hash` / `prev_trans_lt` are absent when the source does not
 *   record them (older records and dumps; recorded traces carry the statuses but not the previous
 *   transaction). A source that has the transaction cell always gives all four.
 */
import { z } from "zod";

export const RAW_TX_VERSION = "raw-tx.v1" as const;

const digits = z.string().regex(/^\d+$/, "expected a decimal string of digits");
const hex32 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, "expected 64 hex digits")
  .transform((s) => s.toLowerCase());
/** Raw address `wc:HEX`; normalised to uppercase hex, the form the vectors and the store use. */
export const rawAddress = z
  .string()
  .regex(/^-?\d{1,3}:[0-9a-fA-F]{64}$/, "expected a raw address wc:HEX (64 hex digits)")
  .transform((s) => s.toUpperCase());
const base64Boc = z
  .string()
  .min(1, "expected a base64 BOC")
  .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, "expected a base64 BOC");
const uint32 = z.number().int().min(0).max(0xffffffff);

/**
 * An account's status (block.tlb `AccountStatus`), named as toncenter's indexer names it: `uninit`
 * (a balance but no code), `frozen`, `active`, `nonexist` (no account at all).
 */
export const ACCOUNT_STATUSES = ["uninit", "frozen", "active", "nonexist"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
const accountStatus = z.enum(ACCOUNT_STATUSES);
const int32 = z.number().int().min(-0x80000000).max(0xffffffff);

export const rawMessageSchema = z
  .object({
    /** Cell hash of the whole message, lowercase hex. */
    hash: hex32,
    source: rawAddress.nullable(),
    destination: rawAddress.nullable(),
    /** nanoton; null for external messages. */
    value: digits.nullable(),
    fwd_fee: digits.nullable(),
    bounce: z.boolean().nullable(),
    bounced: z.boolean().nullable(),
    created_lt: digits.nullable(),
    created_at: z.number().int().nonnegative().nullable(),
    /** First 32 bits of the body as an unsigned integer; null when the body is shorter. */
    opcode: uint32.nullable(),
    body_boc: base64Boc,
    /** StateInit carried by the message, when there is one. */
    init_boc: base64Boc.optional(),
  })
  .strict();

export const rawTransactionSchema = z
  .object({
    version: z.literal(RAW_TX_VERSION),
    mc_seqno: z.number().int().nonnegative(),
    /** `wc:SHARD` with the 64-bit shard prefix as 16 hex digits, e.g. `0:8000000000000000`. */
    shard: z
      .string()
      .regex(/^-?\d{1,3}:[0-9a-fA-F]{16}$/, "expected wc:SHARD (16 hex digits)")
      .transform((s) => s.toUpperCase())
      .nullable(),
    block_seqno: z.number().int().nonnegative().nullable(),
    /** Transaction hash, lowercase hex. */
    hash: hex32,
    lt: digits,
    now: z.number().int().nonnegative(),
    account: rawAddress,
    aborted: z.boolean(),
    compute: z.object({ success: z.boolean(), exit_code: int32.nullable() }).strict(),
    action: z.object({ success: z.boolean(), result_code: int32 }).strict().nullable(),
    in_msg: rawMessageSchema.nullable(),
    out_msgs: z.array(rawMessageSchema),
    /** The whole transaction as a base64 BOC, when the source has it. */
    boc: base64Boc.optional(),
    /** The account's status before / after the transaction, when the source records it. */
    orig_status: accountStatus.optional(),
    end_status: accountStatus.optional(),
    /** The account's previous transaction (lowercase hex; all zeros and lt "0" for its first one), when known. */
    prev_trans_hash: hex32.optional(),
    prev_trans_lt: digits.optional(),
  })
  .strict();

export type RawMessage = z.infer<typeof rawMessageSchema>;
export type RawTransaction = z.infer<typeof rawTransactionSchema>;
/** What a producer may hand to the schema (before address/hash normalisation). */
export type RawTransactionInput = z.input<typeof rawTransactionSchema>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** `["in_msg", "body_boc"]` → `/in_msg/body_boc` (JSON-pointer style, as squid's ValidationFailure). */
export function formatIssuePath(path: readonly (string | number)[]): string {
  return `/${path.join("/")}`;
}

export function formatZodError(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
}

/**
 * Validates one RawTransaction. Accepts a parsed JSON value or a JSON string; never throws.
 * Errors name the offending path, e.g. `/in_msg/body_boc: expected a base64 BOC`.
 */
export function parseRawTransaction(json: unknown): ParseResult<RawTransaction> {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (error) {
      return { ok: false, errors: [`/: invalid JSON (${error instanceof Error ? error.message : "?"})`] };
    }
  }
  const parsed = rawTransactionSchema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: formatZodError(parsed.error) };
}

export const REJECTED_VERSION = "rejected-record.v1" as const;

/**
 * A record that should have been a RawTransaction but is not (bad JSON, a failed validation): it travels
 * on the bus in place of the transaction so the processors store it as `malformed` with its reason and
 * go on (nothing is dropped silently). `raw` is the offending text, cut to `REJECTED_RAW_MAX` characters.
 */
export type RejectedRecord = {
  version: typeof REJECTED_VERSION;
  reason: string;
  raw: string;
  /** Where it came from, e.g. `replay:/data/x.jsonl:12`. */
  origin: string | null;
  /** The block it was found in, when known (replay files name it). */
  mc_seqno: number | null;
};

export const REJECTED_RAW_MAX = 4096;

export const rejectedRecordSchema = z
  .object({
    version: z.literal(REJECTED_VERSION),
    reason: z.string(),
    raw: z.string(),
    origin: z.string().nullable(),
    mc_seqno: z.number().int().nullable(),
  })
  .strict();

export function rejectedRecord(
  reason: string,
  raw: string,
  origin: string | null,
  mcSeqno: number | null,
): RejectedRecord {
  return {
    version: REJECTED_VERSION,
    reason,
    raw: raw.slice(0, REJECTED_RAW_MAX),
    origin,
    mc_seqno: mcSeqno,
  };
}

export const isRejected = (x: RawTransaction | RejectedRecord): x is RejectedRecord =>
  x.version === REJECTED_VERSION;
