/**
 * Topics and their codecs. A codec encodes with the bigint-aware JSON writer and decodes through the
 * topic's zod schema, so every consumer validates what it reads (STYLE practice 4).
 */
import type { z } from "zod";
import {
  type BlockEnd,
  blockEndSchema,
  type EndOfInput,
  endOfInputSchema,
} from "../../schemas/bus-control.ts";
import {
  formatZodError,
  RAW_TX_VERSION,
  type RawTransaction,
  type RejectedRecord,
  rawTransactionSchema,
  rejectedRecord,
  rejectedRecordSchema,
} from "../../schemas/raw-transaction.ts";
import { NonRetryableError } from "../errors.ts";
import { stringifyJson } from "../json.ts";
import type { Codec, Topic } from "./types.ts";

/** JSON codec validated by `schema`; an invalid record is a NonRetryableError naming the field path. */
export function jsonCodec<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, what: string): Codec<T> {
  return {
    encode: (value) => stringifyJson(value),
    decode(text) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new NonRetryableError(`${what}: invalid JSON`, { cause: error });
      }
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
      throw new NonRetryableError(`${what}: ${formatZodError(parsed.error).join("; ")}`);
    },
  };
}

/**
 * Raw transactions from the chain sources; key = account (DESIGN.md); plus the control records
 * (schemas/bus-control.ts): a block-end marker after each block, the end of input after the last block of a
 * finite source. Decoding never throws: a record
 * that is not a valid RawTransaction is delivered as a `RejectedRecord` naming the problem, so one bad
 * record is stored as malformed instead of stopping the consumer (a producer may also send rejected
 * records itself, e.g. the replay source for unreadable lines).
 */
export const rawTransactionsTopic: Topic<RawTransaction | RejectedRecord | BlockEnd | EndOfInput> = {
  name: "tondex.raw-transactions.v1",
  codec: {
    encode: (value) => stringifyJson(value),
    decode(text) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        return rejectedRecord(`invalid JSON: ${(error as Error).message}`, text, "bus", null);
      }
      const blockDone = blockEndSchema.safeParse(json);
      if (blockDone.success) return blockDone.data;
      const end = endOfInputSchema.safeParse(json);
      if (end.success) return end.data;
      const rejected = rejectedRecordSchema.safeParse(json);
      if (rejected.success) return rejected.data;
      const parsed = rawTransactionSchema.safeParse(json);
      if (parsed.success) return parsed.data;
      const mc = (json as { mc_seqno?: unknown } | null)?.mc_seqno;
      const reason = `${RAW_TX_VERSION}: ${formatZodError(parsed.error).join("; ")}`;
      return rejectedRecord(reason, text, "bus", typeof mc === "number" && Number.isInteger(mc) ? mc : null);
    },
  },
};
