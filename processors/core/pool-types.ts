/**
 * Shared types of the per-pool state tracker (processors/core/pool-state.ts). Addresses are raw `0:HEX`
 * with uppercase hex, the form RawTransaction and the fact rows use.
 */
import { Cell } from "@ton/core";
import type { PoolState } from "../../dex/amm/index.ts";
import type { Decoded } from "../../dex/codecs/index.ts";
import type { RawMessage } from "../../schemas/raw-transaction.ts";

/** `live`: state follows the pool's transactions. `resync`: a check failed; waiting for `resync()`. */
export type PoolStatus = "live" | "resync";

/** What the tracker keeps per pool. */
export type TrackedPool = {
  readonly pool: string;
  /** null only for pools restored without their `pools` row (then ops needing them are not modelled). */
  readonly router: string | null;
  readonly token0Wallet: string | null;
  readonly token1Wallet: string | null;
  readonly state: PoolState;
  /** lt of the last transaction of this pool the tracker has processed (or the resync point). */
  readonly lt: bigint;
  readonly status: PoolStatus;
};

/**
 * A message the pool sends that the tracker checks. `to`, `exit`, `minLpOut` and the tokens are compared
 * only when the expectation sets them (undefined = "not predicted"); amounts are always compared.
 */
export type OutMsg = {
  op: "pay_to" | "pay_vault" | "mint" | "add_liquidity" | "malformed";
  to?: string | null;
  exit?: number;
  amount0: bigint;
  amount1: bigint;
  minLpOut?: bigint;
  token0?: string | null;
  token1?: string | null;
};

/**
 * What the contract model says about one committed transaction:
 * - `next`: the new state, valid if the pool's out messages equal `expect` (null: nothing to check);
 * - `diverged`: the chain committed something the model says cannot happen (e.g. a burn the math refuses);
 * - `unmodelled`: a state-changing path the tracker cannot follow (code upgrade, unknown op).
 */
export type Step =
  | { kind: "next"; state: PoolState; expect: readonly OutMsg[] | null }
  | { kind: "diverged"; expected: string; actual: string }
  | { kind: "unmodelled"; reason: string };

type ReportBase = { pool: string; txHash: string; lt: bigint; op: string };

/** Something the shell must act on (resync the pool from ChainState) or count. */
export type PoolReport =
  | (ReportBase & { kind: "mismatch"; expected: string; actual: string })
  | (ReportBase & { kind: "unknown_pool"; reason: string })
  | (ReportBase & { kind: "unrecognised"; reason: string });

/** Context handed to the per-version models. */
export type ModelInput = {
  readonly pool: TrackedPool;
  /** Block time of the transaction (the contracts' `now()`), for deadlines. */
  readonly now: bigint;
  /** Sender of the inbound message. */
  readonly source: string | null;
};

/** `Address` → raw `wc:HEX` (uppercase hex); addr_none → null. */
export { rawOrNull as raw } from "../../schemas/ton.ts";

export const next = (state: PoolState, expect: readonly OutMsg[] | null = null): Step => ({
  kind: "next",
  state,
  expect,
});

export const unmodelled = (reason: string): Step => ({ kind: "unmodelled", reason });

/** `[amount0, amount1]` with `amount` on token0's side when `onToken0`. */
export function sided(onToken0: boolean, amount: bigint): { amount0: bigint; amount1: bigint } {
  return onToken0 ? { amount0: amount, amount1: 0n } : { amount0: 0n, amount1: amount };
}

/** A `pay_to` naming the pool's two wallets (the router derives the pool from them, §2.6, §3.6). */
export function payTo(
  p: TrackedPool,
  to: string | null | undefined,
  exit: number,
  amounts: { amount0: bigint; amount1: bigint },
): OutMsg {
  const tokens = { token0: p.token0Wallet ?? undefined, token1: p.token1Wallet ?? undefined };
  return { op: "pay_to", to, exit, ...amounts, ...tokens };
}

/** A decoded inbound body as a report's `op`: its kind, or what was wrong with it. */
export function describe(body: Decoded): string {
  if (body.kind === "unknown") return `unknown op ${body.op === null ? "(none)" : hexOp(body.op)}`;
  if (body.kind === "malformed") return `malformed ${body.family}: ${body.reason}`;
  return body.kind;
}

const hexOp = (op: number) => `0x${op.toString(16).padStart(8, "0")}`;

/** A BOC from the wire, or null when it does not deserialize (the schema only checks base64). */
export function cellOf(boc: string): Cell | null {
  try {
    return Cell.fromBase64(boc);
  } catch {
    return null;
  }
}

/**
 * A message's body cell, or null when it does not deserialize. The core passes one backed by the
 * classifier's memo, so a body is parsed once for the tracker and the classifier together.
 */
export type BodyCellOf = (m: RawMessage) => Cell | null;

export const parseBodyCell: BodyCellOf = (m) => cellOf(m.body_boc);
