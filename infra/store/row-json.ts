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
  for (const key of Object.keys(fields)) {
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

/** The rows as one JSONEachRow payload. */
export function jsonEachRow(rows: readonly object[]): Buffer {
  return Buffer.from(rows.map(rowJson).join("\n"));
}
