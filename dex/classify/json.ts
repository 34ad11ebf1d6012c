/**
 * The one explicit serializer from domain operations to JSON (STYLE 6): bigints become decimal strings,
 * everything else is already JSON (raw `0:HEX` addresses, hex tx hashes, numeric exit codes and names).
 * The resulting shape is `schemas/operations.ts` and is documented in ./README.md.
 */
import type { Operation } from "./types.ts";

/** `T` with every bigint replaced by its decimal string. */
export type Jsonified<T> = T extends bigint
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

export type OperationJson = Jsonified<Operation>;

function toJsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]));
  }
  return value;
}

export function operationToJson(op: Operation): OperationJson {
  return toJsonValue(op) as OperationJson;
}
