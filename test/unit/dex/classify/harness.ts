/**
 * A re-implementation, from FORMAT.md's description, of how toncenter's harness compares `expected`
 * actions: per expected action, the actions of that `type` narrowed by `selector` must be exactly one;
 * then only the keys under `values` are checked (dotted paths with `[n]`; dicts as subsets; lists
 * unordered with equal length). Also decides which expected actions are STON.fi's (the others — DeDust,
 * swap.coffee — are out of scope).
 */
import { Cell } from "@ton/core";
import { decodeForwardPayload } from "../../../../dex/codecs/index.ts";
import type { Action } from "./toncenter.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type ExpectedAction = {
  type: string;
  selector?: string;
  values?: Record<string, Json>;
  [k: string]: unknown;
};

const DEPOSIT_REF_FEE = 0x0490f09b;
/** Identifiers toncenter's indexer assigns to its own action rows; no trace content determines them. */
const TONCENTER_INTERNAL = new Set(["action_id"]);

export function resolvePath(value: unknown, path: string): unknown {
  let cur = value;
  for (const part of path.split(".")) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    cur = cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[m[1]!] : undefined;
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) {
      cur = Array.isArray(cur) ? cur[Number(idx[1])] : undefined;
    }
  }
  return cur;
}

/** Differences between an expected value and the actual one ([] = match). */
export function compare(expected: unknown, actual: unknown, path = ""): string[] {
  const here = path || "/";
  if (expected === null)
    return actual === null || actual === undefined
      ? []
      : [`${here}: expected null, got ${JSON.stringify(actual)}`];
  if (typeof expected === "number") {
    return String(actual) === String(expected)
      ? []
      : [`${here}: expected ${expected}, got ${JSON.stringify(actual)}`];
  }
  if (typeof expected === "string") {
    if (expected.startsWith("{{")) return [`${here}: unsupported Jinja condition ${expected}`];
    return actual === expected ? [] : [`${here}: expected ${expected}, got ${JSON.stringify(actual)}`];
  }
  if (typeof expected === "boolean")
    return actual === expected ? [] : [`${here}: expected ${expected}, got ${JSON.stringify(actual)}`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return [
        `${here}: expected a list of ${expected.length}, got ${Array.isArray(actual) ? actual.length : JSON.stringify(actual)}`,
      ];
    }
    return expected.flatMap((e, i) =>
      actual.some((a) => compare(e, a).length === 0)
        ? []
        : [`${here}[${i}]: no actual item matches ${JSON.stringify(e)}`],
    );
  }
  if (typeof expected === "object") {
    return Object.entries(expected as Record<string, unknown>).flatMap(([k, v]) =>
      TONCENTER_INTERNAL.has(k) ? [] : compare(v, resolvePath(actual, k), `${path}/${k}`),
    );
  }
  return [`${here}: unsupported expected value ${JSON.stringify(expected)}`];
}

function literal(text: string): unknown {
  const t = text.trim();
  if (t === "None") return null;
  if (t === "True" || t === "False") return t === "True";
  if (/^'.*'$/.test(t)) return t.slice(1, -1);
  if (/^0x[0-9a-f]+$/i.test(t)) return Number.parseInt(t.slice(2), 16);
  if (/^-?\d+$/.test(t)) return t;
  throw new Error(`unsupported selector literal ${t}`);
}

/** Evaluates selectors of the form `{{ value.a.b == X and value.c == Y }}`. Throws on anything else. */
export function selectorMatches(selector: string, action: Action): boolean {
  const body = /^\{\{(.*)\}\}$/s.exec(selector.trim())?.[1];
  if (body === undefined) throw new Error(`unsupported selector ${selector}`);
  return body.split(/\band\b/).every((clause) => {
    const m = /^\s*value\.([\w.[\]]+)\s*==\s*(.+?)\s*$/.exec(clause);
    if (!m) throw new Error(`unsupported selector clause ${clause}`);
    const want = literal(m[2]!);
    const got = resolvePath(action, m[1]!);
    return want === null ? got === null || got === undefined : String(got) === String(want);
  });
}

function selectorValue(selector: string | undefined, key: string): string | undefined {
  const m = selector
    ? new RegExp(`value\\.${key.replace(/\./g, "\\.")}\\s*==\\s*('?)([^'\\s}]+)\\1`).exec(selector)
    : null;
  return m?.[2];
}

/** Whether an expected action is one the STON.fi classifier is responsible for. */
export function isStonfiAction(e: ExpectedAction, routers: ReadonlySet<string>): boolean {
  const values = (e.values ?? {}) as Record<string, unknown>;
  if (e.type === "jetton_swap") {
    const dex =
      (resolvePath(values, "jetton_swap_data.dex") as string | undefined) ??
      selectorValue(e.selector, "jetton_swap_data.dex");
    return dex === undefined || dex.startsWith("stonfi");
  }
  if (e.type === "jetton_transfer") {
    const payload = resolvePath(values, "jetton_transfer_data.forward_payload");
    if (typeof payload === "string") {
      try {
        const kind = decodeForwardPayload(Cell.fromBase64(payload)).kind;
        if (kind === "stonfi.v1.exit_code_payload" || kind === "stonfi.v2.exit_code_payload") return true;
      } catch {
        // not a BOC: fall through to the router check
      }
    }
    return typeof values.source === "string" && routers.has(values.source);
  }
  if (e.type === "call_contract") {
    const op = values.opcode ?? selectorValue(e.selector, "opcode");
    return op !== undefined && Number(op) === DEPOSIT_REF_FEE;
  }
  return false;
}

/** Failures of one expected action against the actual actions ([] = it matched exactly one). */
export function checkExpected(e: ExpectedAction, actions: Action[]): string[] {
  const candidates = actions.filter(
    (a) => a.type === e.type && (e.selector === undefined || selectorMatches(e.selector, a)),
  );
  const label = `${e.type}${e.selector ? ` ${e.selector}` : ""}`;
  if (candidates.length !== 1)
    return [`${label}: ${candidates.length} actual actions match, expected exactly 1`];
  return compare(e.values ?? {}, candidates[0]).map((d) => `${label}: ${d}`);
}
