/**
 * Row readers for the wide, hot reads (the export feeds: thousands of rows per request), where zod's
 * per-field parsing cost more than the query itself (4,700 feed rows: ~300 ms of zod, ~60 ms of SQL). A
 * reader checks each field's type by hand and converts it as ./common.ts's schemas do (quoted 64-bit
 * integers → bigint, unix seconds → number); a mismatch fails the row with the field named, as zod would.
 */
import type { RowReader } from "../../../infra/store/client.ts";

export type Fields = Record<string, unknown>;

class FieldError extends Error {}

const fail = (field: string, expected: string, v: unknown): never => {
  throw new FieldError(`${field}: expected ${expected}, got ${JSON.stringify(v)}`);
};

export const text = (r: Fields, f: string): string => {
  const v = r[f];
  return typeof v === "string" ? v : fail(f, "a string", v);
};
export const textOrNull = (r: Fields, f: string): string | null => (r[f] === null ? null : text(r, f));

/** A non-negative integer: bigint, or a decimal string (ClickHouse quotes 64-bit and wider integers). */
export const unsigned = (r: Fields, f: string): bigint => {
  const v = r[f];
  if (typeof v === "bigint") return v;
  return typeof v === "string" && /^\d+$/.test(v) ? BigInt(v) : fail(f, "a decimal integer string", v);
};
export const unsignedOrNull = (r: Fields, f: string): bigint | null =>
  r[f] === null ? null : unsigned(r, f);

/** A pair of non-negative integers (a ClickHouse tuple reads as a JSON array). */
export const unsignedPair = (r: Fields, f: string): readonly [bigint, bigint] => {
  const v = r[f];
  if (!Array.isArray(v) || v.length !== 2) return fail(f, "a pair", v);
  return [unsigned({ [`${f}[0]`]: v[0] }, `${f}[0]`), unsigned({ [`${f}[1]`]: v[1] }, `${f}[1]`)] as const;
};

/** A safe integer: a JSON number, or a quoted one (DateTime as unix seconds, UInt32). */
export const int = (r: Fields, f: string): number => {
  const v = r[f];
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  return typeof v === "string" && /^\d+$/.test(v) ? Number(v) : fail(f, "an integer", v);
};
export const intOrNull = (r: Fields, f: string): number | null => (r[f] === null ? null : int(r, f));

/** A finite JSON number (Float64 columns). */
export const float = (r: Fields, f: string): number => {
  const v = r[f];
  return typeof v === "number" && Number.isFinite(v) ? v : fail(f, "a number", v);
};
export const floatOrNull = (r: Fields, f: string): number | null => (r[f] === null ? null : float(r, f));

export const bool = (r: Fields, f: string): boolean => {
  const v = r[f];
  return typeof v === "boolean" ? v : fail(f, "a boolean", v);
};

export function oneOf<const V extends readonly string[]>(r: Fields, f: string, values: V): V[number] {
  const v = r[f];
  return typeof v === "string" && values.includes(v) ? v : fail(f, values.join(" | "), v);
}
export function oneOfOrNull<const V extends readonly string[]>(
  r: Fields,
  f: string,
  values: V,
): V[number] | null {
  return r[f] === null ? null : oneOf(r, f, values);
}

/** A row reader for `Store.query` from a hand-written one (a field error names the field). */
export function rowReader<T>(read: (r: Fields) => T): RowReader<T> {
  return { readRow: read };
}
