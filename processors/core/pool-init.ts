/**
 * First sight of a pool: its initial state from the StateInit on the router → pool message that deploys
 * it (v1: `provide_lp`, contracts.md §2.5; v2: every router → pool message, §3.2, §3.6). The StateInit is
 * only the pool's state when this transaction deployed the account: it must hash to the account
 * (§2.2, §3.2), and when the source gives the whole transaction, the account must not have been active
 * before it. Without that BOC the init is taken as the deployment; a wrong guess (a pool already
 * trading) fails the first out-message check and is reported as a mismatch.
 */
import { type Cell, contractAddress, loadStateInit, loadTransaction, type StateInit } from "@ton/core";
import type { PoolType } from "../../dex/amm/index.ts";
import type { KnownBody } from "../../dex/codecs/index.ts";
import { STONFI_V1_OP, STONFI_V2_OP } from "../../dex/codecs/index.ts";
import { type PoolData, PoolDataError, parsePoolData, v2LayoutsOf } from "../../dex/pool-data.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { cellOf, raw, type TrackedPool } from "./pool-types.ts";

/** Caller-provided pool type of a v2 pool (ChainState `get_pool_type`, or the routers table). */
export type PoolTypeLookup = (pool: string) => PoolType | undefined;

/** Inbound messages only a STON.fi pool receives, by decoded kind, with the DEX version they imply. */
const POOL_ONLY: Readonly<Partial<Record<KnownBody["kind"], "v1" | "v2">>> = {
  "stonfi.v1.swap": "v1",
  "stonfi.v1.provide_lp": "v1",
  "stonfi.v1.cb_add_liquidity": "v1",
  "stonfi.v1.cb_refund_me": "v1",
  "stonfi.v1.set_fees_pool": "v1",
  "stonfi.v1.collect_fees_pool": "v1",
  "stonfi.v2.swap": "v2",
  "stonfi.v2.provide_lp": "v2",
  "stonfi.v2.cb_add_liquidity": "v2",
  "stonfi.v2.cb_refund_me": "v2",
  "stonfi.v2.burn_notification_ext": "v2",
  "stonfi.v2.collect_fees": "v2",
  "stonfi.v2.internal_set_fees": "v2",
  "stonfi.v2.internal_set_params": "v2",
  "stonfi.v2.internal_update_status": "v2",
  "stonfi.v2.internal_update_pool_code": "v2",
  "stonfi.v2.set_rate": "v2",
  "stonfi.v2.reset_gas_pool": "v2",
};

/** The op codes of those messages: a cheap filter before decoding a body of an unknown account. */
export const POOL_ONLY_OPS: ReadonlySet<number> = new Set([
  STONFI_V1_OP.swap,
  STONFI_V1_OP.provide_lp,
  STONFI_V1_OP.cb_add_liquidity,
  STONFI_V1_OP.cb_refund_me,
  STONFI_V1_OP.set_fees,
  STONFI_V1_OP.collect_fees,
  STONFI_V2_OP.swap,
  STONFI_V2_OP.provide_lp,
  STONFI_V2_OP.cb_add_liquidity,
  STONFI_V2_OP.cb_refund_me,
  STONFI_V2_OP.burn_notification_ext,
  STONFI_V2_OP.collect_fees,
  STONFI_V2_OP.internal_set_fees,
  STONFI_V2_OP.internal_set_params,
  STONFI_V2_OP.internal_update_status,
  STONFI_V2_OP.internal_update_pool_code,
  STONFI_V2_OP.set_rate,
  STONFI_V2_OP.reset_gas,
]);

export function poolOnlyDex(kind: string): "v1" | "v2" | undefined {
  return POOL_ONLY[kind as KnownBody["kind"]];
}

export type FirstSight = { kind: "pool"; pool: TrackedPool } | { kind: "unknown"; reason: string };

const unknown = (reason: string): FirstSight => ({ kind: "unknown", reason });

/** The account's status before `tx`, when the source recorded the whole transaction. */
function oldStatus(tx: RawTransaction): string | null {
  const cell = tx.boc === undefined ? null : cellOf(tx.boc);
  if (cell === null) return null;
  try {
    return loadTransaction(cell.beginParse()).oldStatus;
  } catch {
    return null;
  }
}

type TypeOrReason = { type: PoolType } | { reason: string };

/** v1 data says its type; a v2 type comes from the lookup, or from the layout when only one fits. */
function typeOf(data: Cell, dex: "v1" | "v2", pool: string, lookup: PoolTypeLookup): TypeOrReason {
  if (dex === "v1") return { type: "v1_constant_product" };
  const layouts: PoolType[] = v2LayoutsOf(data);
  const fits = layouts.join(", ") || "none";
  const named = lookup(pool);
  if (named !== undefined) {
    return layouts.includes(named)
      ? { type: named }
      : { reason: `data does not fit ${named} (fits: ${fits})` };
  }
  // constant_product and constant_sum share a layout: without a lookup only the other types are certain
  return layouts.length === 1 ? { type: layouts[0]! } : { reason: `pool type unknown (data fits: ${fits})` };
}

function tracked(pool: string, d: PoolData, lt: bigint): TrackedPool {
  return {
    pool,
    router: raw(d.router),
    token0Wallet: raw(d.token0Wallet),
    token1Wallet: raw(d.token1Wallet),
    state: d.state,
    lt,
    status: "live",
  };
}

function readInit(boc: string): StateInit | null {
  const cell = cellOf(boc);
  try {
    return cell === null ? null : loadStateInit(cell.beginParse());
  } catch {
    return null;
  }
}

/** Reads the pool's initial state from the inbound StateInit of `tx` (the caller checked the op). */
export function firstSight(tx: RawTransaction, dex: "v1" | "v2", lookup: PoolTypeLookup): FirstSight {
  const initBoc = tx.in_msg?.init_boc;
  if (initBoc === undefined) return unknown("no known state and no StateInit on the message");
  const init = readInit(initBoc);
  if (init === null) return unknown("StateInit does not parse");
  if (init.data == null) return unknown("StateInit without data");
  if (raw(contractAddress(0, init)) !== tx.account) return unknown("StateInit does not hash to the account");
  const before = oldStatus(tx);
  if (before === "active") return unknown("pool was deployed before the tracker saw it");
  const t = typeOf(init.data, dex, tx.account, lookup);
  if ("reason" in t) return unknown(t.reason);
  try {
    // the transaction's own message is applied by the caller, so the state is "just before" it
    return { kind: "pool", pool: tracked(tx.account, parsePoolData(init.data, t.type), -1n) };
  } catch (e) {
    if (e instanceof PoolDataError) return unknown(e.message);
    throw e;
  }
}
