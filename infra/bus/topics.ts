/**
 * Topics and their codecs. A codec encodes with the bigint-aware JSON writer and decodes through the
 * topic's zod schema, so every consumer validates what it reads (STYLE practice 4).
 */
import type { z } from "zod";
import {
  formatZodError,
  RAW_TX_VERSION,
  type RawTransaction,
  rawTransactionSchema,
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

/** Raw transactions from the chain sources; key = account (DESIGN.md). */
export const rawTransactionsTopic: Topic<RawTransaction> = {
  name: "tondex.raw-transactions.v1",
  codec: jsonCodec(rawTransactionSchema, RAW_TX_VERSION),
};
