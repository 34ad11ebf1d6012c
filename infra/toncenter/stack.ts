/**
 * toncenter index API v3 `runGetMethod` on the wire, and its stack ↔ @ton/core `TupleItem`. Pure.
 *
 * Facts (toncenter/ton-indexer @ eb9fbfa, `ton-index-go`):
 * - `POST /api/v3/runGetMethod` (main.go `PostV2RunGetMethod`) takes `V2RunGetMethodRequest`
 *   `{ address, method, stack: V2StackEntity[] }` (index/models/request.go). Arguments support only
 *   `num`, `cell` and `slice`: `{"type": "num", "value": "0x12a"}`, `{"type": "cell" | "slice", "value":
 *   "<base64 BOC>"}` (the endpoint's @description).
 * - It answers `V2RunGetMethodResult` `{ gas_used, exit_code, stack }` (index/models/v2.go), the stack as
 *   `V2StackEntity { type, value }` built by index/proxy.go `DecodeStackEntry`: `num` with the v2 API's value
 *   (a `0x…` hex string, `-0x…` when negative: Go's `%#x` of a big.Int), `cell` / `slice` with the BOC's
 *   base64 `bytes`, `tuple` / `list` with an array of entries.
 * - Errors are `{"error": "<message>"}` with a 4xx/5xx status (index/models/types.go `IndexError`); a
 *   failed get-method run on the v2 side surfaces as such an error, a run that threw as a non-zero
 *   `exit_code`.
 */
import { Cell, type TupleItem } from "@ton/core";
import { z } from "zod";

export const RUN_GET_METHOD_PATH = "/api/v3/runGetMethod";

export type V3StackEntry =
  | { type: "num"; value: string }
  | { type: "cell" | "slice"; value: string }
  | { type: "tuple" | "list"; value: V3StackEntry[] };

export const v3StackEntry: z.ZodType<V3StackEntry> = z.lazy(() =>
  z.union([
    z.object({ type: z.literal("num"), value: z.string() }),
    z.object({ type: z.enum(["cell", "slice"]), value: z.string() }),
    z.object({ type: z.enum(["tuple", "list"]), value: z.array(v3StackEntry) }),
  ]),
);

export const v3RunGetMethodResult = z.object({
  gas_used: z.number().int(),
  exit_code: z.number().int(),
  stack: z.array(v3StackEntry),
});
export type V3RunGetMethodResult = z.infer<typeof v3RunGetMethodResult>;

export type V3RunGetMethodRequest = { address: string; method: string; stack: V3StackEntry[] };

/** Thrown for a stack entry that is well-formed JSON but not a TVM value (bad number, bad BOC). */
export class StackFormatError extends Error {
  override readonly name = "StackFormatError";
}

const NUM = /^(-?)(0x[0-9a-fA-F]+|\d+)$/;

/** A `num` value: hex as the API writes it (`0x…`, `-0x…`); plain decimal accepted too. */
export function parseNum(value: string): bigint {
  const m = NUM.exec(value.trim());
  if (m === null) throw new StackFormatError(`not a number: '${value.slice(0, 40)}'`);
  const magnitude = BigInt(m[2] as string);
  return m[1] === "-" ? -magnitude : magnitude;
}

export function formatNum(value: bigint): string {
  return value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`;
}

function parseBoc(value: string): Cell {
  try {
    const roots = Cell.fromBoc(Buffer.from(value, "base64"));
    if (roots.length !== 1) throw new Error(`${roots.length} roots`);
    return roots[0] as Cell;
  } catch (error) {
    throw new StackFormatError(`not a one-root base64 BOC: ${(error as Error).message}`);
  }
}

const boc = (cell: Cell) => cell.toBoc({ idx: false, crc32: true }).toString("base64");

/** Get-method arguments as the request's `stack`. Only num, cell and slice are accepted by the API. */
export function toV3Stack(args: readonly TupleItem[]): V3StackEntry[] {
  return args.map((item, i) => {
    switch (item.type) {
      case "int":
        return { type: "num", value: formatNum(item.value) };
      case "cell":
      case "slice":
        return { type: item.type, value: boc(item.cell) };
      case "builder":
        return { type: "slice", value: boc(item.cell) };
      default:
        throw new StackFormatError(`argument ${i}: runGetMethod takes num, cell or slice, not ${item.type}`);
    }
  });
}

/** A result stack as TupleItems, in the order the API lists it (the first result first). */
export function fromV3Stack(stack: readonly V3StackEntry[]): TupleItem[] {
  return stack.map((entry, i): TupleItem => {
    try {
      if (entry.type === "num") return { type: "int", value: parseNum(entry.value) };
      if (entry.type === "tuple" || entry.type === "list") {
        return { type: "tuple", items: fromV3Stack(entry.value) };
      }
      return { type: entry.type, cell: parseBoc(entry.value as string) };
    } catch (error) {
      if (error instanceof StackFormatError) {
        throw new StackFormatError(`stack item ${i} (${entry.type}): ${error.message}`);
      }
      throw error;
    }
  });
}

/** The other way, for stand-ins and tests: what the API would answer for these values. */
export function toV3ResultStack(items: readonly TupleItem[]): V3StackEntry[] {
  return items.map((item): V3StackEntry => {
    if (item.type === "int") return { type: "num", value: formatNum(item.value) };
    if (item.type === "cell" || item.type === "slice") return { type: item.type, value: boc(item.cell) };
    if (item.type === "builder") return { type: "slice", value: boc(item.cell) };
    if (item.type === "tuple") return { type: "tuple", value: toV3ResultStack(item.items) };
    throw new StackFormatError(`${item.type} has no v3 stack form (DecodeStackEntry has none)`);
  });
}
