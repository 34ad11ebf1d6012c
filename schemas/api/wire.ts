/**
 * Wire primitives of the STON.fi-compatible REST API (shared/reference/api.md §1.3–§1.4), shared by every
 * request and response schema in this folder.
 *
 * Requests: query values arrive as strings (repeated keys become arrays), addresses in any TON form (raw,
 * bounceable, non-bounceable, standard or URL-safe base64); parsing turns them into domain values
 * (bigint amounts, canonical raw addresses `wc:HEX`). Responses: amounts are decimal strings, addresses
 * bounceable URL-safe (`EQ…`), hashes lowercase hex, timestamps `YYYY-MM-DDTHH:MM:SS` (UTC).
 */
import { Address } from "@ton/core";
import { z } from "zod";
import { boundedMemo } from "../bounded-memo.ts";
import { MAX_COINS, toRawAddress } from "../ton.ts";

export { MAX_COINS, toRawAddress };

const MAX_UINT64 = (1n << 64n) - 1n;

/**
 * The address forms the API accepts, as one ECMA-262 pattern: the OpenAPI document publishes it for every
 * address parameter, and the parser checks it before decoding, so the two cannot disagree. A regular
 * expression cannot check the user-friendly form's CRC16: that is the one thing the parser adds.
 * - raw: workchain `0` or `-1`, a colon, 64 hex digits (either case);
 * - user-friendly: 36 bytes in 48 base64 characters (standard or URL-safe). The first three characters
 *   carry the tag byte and the workchain byte: tag 0x11 bounceable (`E`), 0x51 non-bounceable (`U`), the
 *   same with the test-only flag 0x80 (`k`, `0`); then workchain 0x00 (`Q` and A–D) or 0xff (`f` and
 *   one of 8 9 + / - _).
 * @ton/core's own `Address.parse` is looser (it reads `0abc:…` or `0:…:extra` as raw addresses and takes
 * any workchain byte), which this pattern rules out.
 */
export const ADDRESS_PATTERN = /^(?:(?:0|-1):[0-9a-fA-F]{64}|[EUk0](?:Q[A-D]|f[89+/_-])[A-Za-z0-9+/_-]{45})$/;

/**
 * Any accepted address text (surrounding white space ignored) → canonical raw form, or null.
 * Remembered per text (a pure function; clients repeat the same addresses).
 */
export const parseAddressText: (text: string) => string | null = boundedMemo(parseAddressUncached);

function parseAddressUncached(text: string): string | null {
  const trimmed = text.trim();
  if (!ADDRESS_PATTERN.test(trimmed)) return null;
  try {
    const address = Address.parse(trimmed);
    return address.workChain === 0 || address.workChain === -1 ? toRawAddress(address) : null;
  } catch {
    return null;
  }
}

/** 32-byte hash as 64 hex digits or (URL-safe) base64 → lowercase hex, or null. */
export function parseHashText(text: string): string | null {
  const s = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) return null;
  const bytes = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes.toString("hex") : null;
}

// ---- request primitives -------------------------------------------------------------------------

const NOT_AN_ADDRESS = "expected a TON address (raw wc:hex or user-friendly base64)";

/** An address parameter: exactly ADDRESS_PATTERN (published in the OpenAPI), then a valid checksum. */
export const addressIn = z
  .string()
  .regex(ADDRESS_PATTERN, NOT_AN_ADDRESS)
  .transform((text, ctx) => {
    const raw = parseAddressText(text);
    if (raw === null) {
      ctx.addIssue({ code: "custom", message: `${NOT_AN_ADDRESS}: checksum mismatch` });
      return z.NEVER;
    }
    return raw;
  });

export const hashIn = z.string().transform((text, ctx) => {
  const hex = parseHashText(text);
  if (hex === null) {
    ctx.addIssue({ code: "custom", message: "expected a 32-byte hash as 64 hex digits or base64" });
    return z.NEVER;
  }
  return hex;
});

const OVER_COINS = "out of range: exceeds the largest Coins amount (2^120 - 1)";

/** A parameter's value as an address: exactly ADDRESS_PATTERN and a valid checksum (`addressIn`), or null. */
export function addressParam(text: string): string | null {
  return ADDRESS_PATTERN.test(text) ? parseAddressText(text) : null;
}

export const DECIMAL_INTEGER = /^\d+$/;

/**
 * A decimal integer text (DECIMAL_INTEGER) as a Coins amount, range-checked before it is turned into a
 * bigint; with `positive`, zero is refused too. A string: why the amount is refused.
 */
export function coinsOf(s: string, positive: boolean): bigint | string {
  // 37 digits hold every Coins value (2^120 − 1 has 37); longer text is out of range, however it reads.
  let lead = 0;
  while (lead < s.length - 1 && s.charCodeAt(lead) === 48) lead++;
  const v = s.length - lead <= 37 ? BigInt(s) : null;
  if (v === null || v > MAX_COINS) return OVER_COINS;
  if (positive && v === 0n) return "must be greater than zero";
  return v;
}

/**
 * A decimal integer string (the pattern the OpenAPI publishes) as a Coins amount (`coinsOf`). One
 * transform checks the rest: amounts are parsed on every quote, and each zod refinement layer costs more
 * than the check itself.
 */
function coinsText(positive: boolean) {
  return z
    .string()
    .regex(DECIMAL_INTEGER, "expected a decimal integer string")
    .transform((s, ctx): bigint => {
      const v = coinsOf(s, positive);
      if (typeof v === "string") {
        ctx.addIssue({ code: "custom", message: v });
        return z.NEVER;
      }
      return v;
    });
}

/** A raw token amount: a positive decimal integer no larger than the largest Coins value. */
export const unitsIn = coinsText(true);

/** Like unitsIn but zero is allowed (single-sided liquidity sends an explicit "0"). */
export const unitsOrZeroIn = coinsText(false);

/** A 64-bit query id; the official client sends it as a JSON number or digit string. */
export const queryIdIn = z
  .union([z.string().regex(/^\d{1,20}$/, "expected a decimal integer"), z.number().int().nonnegative()])
  .transform((v) => BigInt(v))
  .refine((v) => v <= MAX_UINT64, "exceeds 2^64 - 1");

/** Exact fraction from a decimal string such as "0.001"; value in [0, 1]. */
export type Fraction = { num: bigint; den: bigint };

export const FRACTION_PATTERN = /^\d{1,3}(\.\d{1,18})?$/;

/** A fraction text (FRACTION_PATTERN) as an exact fraction, or null when it is above 1. */
export function fractionOf(s: string): Fraction | null {
  const [whole = "0", frac = ""] = s.split(".");
  const den = 10n ** BigInt(frac.length);
  const f = { num: BigInt(whole) * den + BigInt(frac === "" ? "0" : frac), den };
  return f.num > f.den ? null : f;
}

export const fractionIn = z
  .string()
  .regex(FRACTION_PATTERN, "expected a decimal fraction such as 0.01")
  .transform((s, ctx): Fraction => {
    const f = fractionOf(s);
    if (f === null) {
      ctx.addIssue({ code: "custom", message: "must be between 0 and 1" });
      return z.NEVER;
    }
    return f;
  });

/** Query-string boolean (`true`/`false`, also `1`/`0`). */
export const BOOL_TEXTS = ["true", "false", "1", "0"] as const;
export const boolOf = (v: (typeof BOOL_TEXTS)[number]): boolean => v === "true" || v === "1";
export const boolIn = z.enum(BOOL_TEXTS).transform(boolOf);
/** JSON-body boolean: a real boolean, or the string forms some clients send. */
export const boolBodyIn = z.union([z.boolean(), boolIn]);

/** Most values a repeated parameter takes. */
export const REPEATED_MAX = 100;

/** One value or repeated keys (`a=1&a=2`) → array. */
export function repeated<T extends z.ZodTypeAny>(item: T) {
  return z.preprocess(
    (v) => (v === undefined || Array.isArray(v) ? v : [v]),
    z.array(item).max(REPEATED_MAX),
  );
}

/** The times the store can hold: ClickHouse `DateTime` is unsigned 32-bit seconds since 1970. */
const MAX_STORED_SECONDS = 0xffffffff;

/**
 * `YYYY-MM-DDTHH:MM:SS` (a space instead of `T`, fractional seconds and `Z` tolerated), UTC → unix s.
 * A calendar date that does not exist (`2023-02-30`) is refused rather than rolled over, and so is a time
 * outside what the store holds (before 1970, after 2106-02-07T06:28:15): never wrapped around.
 */
export const timestampIn = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z?$/, "expected YYYY-MM-DDTHH:MM:SS (UTC)")
  .transform((s, ctx) => {
    const text = s.replace(" ", "T").replace(/Z$/, "");
    const ms = Date.parse(`${text}Z`);
    // Date.parse rolls 2023-02-30 over to March 2: a real date prints back as it was written.
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== text.slice(0, 19)) {
      ctx.addIssue({ code: "custom", message: "not a valid date" });
      return z.NEVER;
    }
    const seconds = Math.floor(ms / 1000);
    if (seconds < 0 || seconds > MAX_STORED_SECONDS) {
      ctx.addIssue({
        code: "custom",
        message: "must be between 1970-01-01T00:00:00 and 2106-02-07T06:28:15 (UTC)",
      });
      return z.NEVER;
    }
    return seconds;
  });

export const limitIn = z
  .string()
  .regex(/^\d{1,6}$/, "expected a positive integer")
  .transform(Number)
  .refine((n) => n >= 1 && n <= 1000, "must be within 1..1000");
export const limitBodyIn = z.union([z.number().int().min(1).max(1000), limitIn]);

// ---- response primitives ------------------------------------------------------------------------

export const decimalOut = z.string().regex(/^\d+$/, "expected a decimal integer string");
export const signedDecimalOut = z.string().regex(/^-?\d+$/, "expected a signed decimal integer string");
/** A non-negative decimal number (rates, fractions, USD values). */
export const fractionOut = z.string().regex(/^\d+(\.\d+)?$/, "expected a decimal number string");
/** Bounceable, URL-safe, mainnet user-friendly address (`EQ…`, `Ef…` for the masterchain). */
export const addressOut = z.string().regex(/^E[A-Za-z0-9_-]{47}$/, "expected a bounceable address");
export const hashOut = z.string().regex(/^[0-9a-f]{64}$/, "expected a lowercase hex hash");
export const timestampOut = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, "expected YYYY-MM-DDTHH:MM:SS");
