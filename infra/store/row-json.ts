/**
 * JSONEachRow lines for the embedded insert: exactly `stringifyJson(row)` (bigints as decimal strings),
 * but faster on the flat rows the fact tables hold. `stringifyJson` calls its replacer for every value,
 * which made serialising a batch cost more than chdb's parsing of it; here a row without bigints goes to
 * plain `JSON.stringify`, and one with bigints to a shallow copy with those fields as strings first.
 * Anything nested that might hide a bigint (an object, an array holding one) takes the general path.
 */
import { stringifyJson } from "../json.ts";

export function rowJson(row: object): string {
  const fields = row as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  // for-in visits the own keys in Object.keys order without allocating their array; an inherited
  // enumerable key (which JSON.stringify skips) would at worst send the row down the general path.
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) return stringifyJson(row);
    const value = fields[key];
    if (typeof value === "bigint") {
      copy ??= { ...fields };
      copy[key] = value.toString();
    } else if (typeof value === "object" && value !== null && !flatArray(value)) {
      return stringifyJson(row);
    }
  }
  return JSON.stringify(copy ?? row);
}

/** An array of strings, numbers, booleans and nulls: JSON.stringify writes it as the replacer would. */
function flatArray(value: object): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) {
    if (typeof item === "object" ? item !== null : typeof item === "bigint") return false;
  }
  return true;
}

/**
 * The rows as one JSONEachRow payload, each line encoded straight into one growing buffer (no joined
 * string of the whole batch, which cost as much again as the lines). A UTF-16 code unit takes at most 3
 * bytes of UTF-8, so `3 × length` bytes always hold a line.
 */
export function jsonEachRow(rows: readonly object[]): Buffer {
  let out = Buffer.allocUnsafe(1 << 16);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    const line = rowJson(rows[i] as object);
    const need = at + 1 + 3 * line.length;
    if (need > out.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * out.length));
      out.copy(grown, 0, 0, at);
      out = grown;
    }
    if (i > 0) out[at++] = 0x0a;
    at += out.write(line, at);
  }
  return out.subarray(0, at);
}
