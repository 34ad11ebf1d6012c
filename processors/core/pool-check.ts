/**
 * The check half of the tracker: read what a pool transaction actually sent (the `pay_to` / `pay_vault`
 * requests to its router, the LP mint, the `add_liquidity` hand-back to an LpAccount) and compare it with
 * what the contract model predicted. Other out messages (excesses, TEP-89 replies) carry no state and are
 * not compared. Message layouts: contracts.md §2.6, §2.7 (v1), §3.6, §3.8 (v2).
 */
import { type Decoded, decodeBody, JETTON_OP, STONFI_V1_OP, STONFI_V2_OP } from "../../dex/codecs/index.ts";
import type { RawMessage } from "../../schemas/raw-transaction.ts";
import { type BodyCellOf, type OutMsg, parseBodyCell, raw } from "./pool-types.ts";

/** The state-relevant message one decoded out body stands for, or null when it carries no state. */
function toOutMsg(b: Decoded): OutMsg | null {
  switch (b.kind) {
    case "stonfi.v1.pay_to":
      return { op: "pay_to", to: raw(b.owner), exit: b.exitCode, ...amounts(b), ...tokens(b) };
    case "stonfi.v2.pay_to":
      return { op: "pay_to", to: raw(b.toAddress), exit: b.exitCode, ...amounts(b), ...tokens(b) };
    case "stonfi.v2.pay_vault":
      return { op: "pay_vault", to: raw(b.owner), ...amounts(b), ...tokens(b) };
    case "jetton.internal_transfer":
      return { op: "mint", amount0: b.amount, amount1: 0n };
    case "stonfi.v1.add_liquidity":
    case "stonfi.v2.add_liquidity":
      return { op: "add_liquidity", amount0: b.newAmount0, amount1: b.newAmount1, minLpOut: b.minLpOut };
    case "malformed":
      // a body with a known op that does not decode is never what the contract sends
      return { op: "malformed", exit: b.op, amount0: 0n, amount1: 0n };
    default:
      return null;
  }
}

function amounts(b: { amount0Out: bigint; amount1Out: bigint }) {
  return { amount0: b.amount0Out, amount1: b.amount1Out };
}

function tokens(b: { token0: Parameters<typeof raw>[0]; token1: Parameters<typeof raw>[0] }) {
  return { token0: raw(b.token0), token1: raw(b.token1) };
}

/** Op codes of the messages `toOutMsg` keeps; the rest are not worth parsing a BOC for. */
const CHECKED_OPS: ReadonlySet<number> = new Set([
  STONFI_V1_OP.pay_to,
  STONFI_V1_OP.add_liquidity,
  STONFI_V2_OP.pay_to,
  STONFI_V2_OP.pay_vault,
  STONFI_V2_OP.add_liquidity,
  JETTON_OP.internal_transfer,
]);

/** The state-relevant out messages of a pool transaction, in send order. */
export function actualOutMsgs(
  outs: readonly RawMessage[],
  dex: "v1" | "v2",
  cellOf: BodyCellOf = parseBodyCell,
): OutMsg[] {
  const result: OutMsg[] = [];
  for (const m of outs) {
    if (m.opcode === null || !CHECKED_OPS.has(m.opcode)) continue;
    const cell = cellOf(m);
    const body: Decoded = cell ? decodeBody(cell, { dex }) : unreadable(m.opcode);
    const decoded = toOutMsg(body);
    if (decoded !== null) result.push(decoded);
  }
  return result;
}

const unreadable = (op: number): Decoded => ({ kind: "malformed", op, family: "boc", reason: "bad BOC" });

const OPTIONAL_FIELDS = ["to", "exit", "minLpOut", "token0", "token1"] as const;

function sameMsg(expected: OutMsg, actual: OutMsg): boolean {
  if (expected.op !== actual.op) return false;
  if (expected.amount0 !== actual.amount0 || expected.amount1 !== actual.amount1) return false;
  return OPTIONAL_FIELDS.every((f) => expected[f] === undefined || expected[f] === actual[f]);
}

export function sameOutMsgs(expected: readonly OutMsg[], actual: readonly OutMsg[]): boolean {
  return expected.length === actual.length && expected.every((e, i) => sameMsg(e, actual[i]!));
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, "0")}`;

/** One line per message, e.g. `pay_to(to=0:AB…, exit=0xc64370e5, 0=0, 1=1234)`. */
export function renderOutMsgs(msgs: readonly OutMsg[]): string {
  const one = (m: OutMsg) => {
    const parts: string[] = [];
    if (m.to !== undefined) parts.push(`to=${m.to ?? "addr_none"}`);
    if (m.exit !== undefined) parts.push(`exit=${hex(m.exit)}`);
    parts.push(`0=${m.amount0}`, `1=${m.amount1}`);
    if (m.minLpOut !== undefined) parts.push(`min_lp_out=${m.minLpOut}`);
    if (m.token0 !== undefined || m.token1 !== undefined) parts.push(`tokens=${m.token0},${m.token1}`);
    return `${m.op}(${parts.join(", ")})`;
  };
  return msgs.length === 0 ? "(none)" : msgs.map(one).join("; ");
}
