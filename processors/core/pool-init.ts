/**
 * First sight of a pool: its initial state from the StateInit on the router → pool message that deploys
 * it (v1: `provide_lp`, contracts.md §2.5; v2: every router → pool message, §3.2, §3.6). The StateInit is
 * only the pool's state when this transaction deployed the account: it must hash to the account
 * (§2.2, §3.2), and the account must not have existed with code before it. The source says so with the
 * record's `orig_status` or the whole transaction BOC (its `orig_status`): `uninit` / `nonexist` is a
 * deployment, `active` / `frozen` is not (a v2 router attaches the StateInit to every message, so an
 * active pool receives it again and again). When neither says, the init is taken as the deployment; a wrong
 * guess (a pool already trading) fails the first out-message check and is reported as a mismatch.
 *
 * A pool that was active before the tracker saw it has an unknown state, but not an unknown identity: its
 * router and token wallets are immutable and read from what it really is or sends (`poolIdentity`).
 */
import { type Cell, contractAddress, loadStateInit, loadTransaction, type StateInit } from "@ton/core";
import type { PoolType } from "../../dex/amm/index.ts";
import type { KnownBody } from "../../dex/codecs/index.ts";
import { decodeBody, STONFI_V1_OP, STONFI_V2_OP } from "../../dex/codecs/index.ts";
import { type PoolData, PoolDataError, parsePoolData, v2LayoutsOf } from "../../dex/pool-data.ts";
import { ACCOUNT_STATUS_NAME } from "../../schemas/from-ton-core.ts";
import type { AccountStatus, RawMessage, RawTransaction } from "../../schemas/raw-transaction.ts";
import { type BodyCellOf, cellOf, raw, type TrackedPool } from "./pool-types.ts";

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

/** The account's status before `tx`: the record's `orig_status`, else the whole transaction BOC's; null when neither says. */
export function statusBefore(tx: RawTransaction): AccountStatus | null {
  if (tx.orig_status !== undefined) return tx.orig_status;
  const cell = tx.boc === undefined ? null : cellOf(tx.boc);
  if (cell === null) return null;
  try {
    return ACCOUNT_STATUS_NAME[loadTransaction(cell.beginParse()).oldStatus];
  } catch {
    return null;
  }
}

/**
 * Whether `tx` deployed its account (it had no code before: `uninit` or `nonexist`); null when the source
 * does not say. A StateInit on a message to an `active` or `frozen` account is never a deployment.
 */
export function deployedBy(tx: RawTransaction): boolean | null {
  const before = statusBefore(tx);
  return before === null ? null : before === "uninit" || before === "nonexist";
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

/** The data of the inbound StateInit of `tx` when it is the account's own (it hashes to the address). */
function ownInitData(tx: RawTransaction): { data: Cell } | { reason: string } {
  const initBoc = tx.in_msg?.init_boc;
  if (initBoc === undefined) return { reason: "no known state and no StateInit on the message" };
  const init = readInit(initBoc);
  if (init === null) return { reason: "StateInit does not parse" };
  if (init.data == null) return { reason: "StateInit without data" };
  const wc = Number(tx.account.slice(0, tx.account.indexOf(":")));
  if (raw(contractAddress(wc, init)) !== tx.account)
    return { reason: "StateInit does not hash to the account" };
  return { data: init.data };
}

/** Reads the pool's initial state from the inbound StateInit of `tx` (the caller checked the op). */
export function firstSight(tx: RawTransaction, dex: "v1" | "v2", lookup: PoolTypeLookup): FirstSight {
  if (deployedBy(tx) === false) {
    return unknown(
      `the account was ${statusBefore(tx)} before the first transaction seen: its state is not known`,
    );
  }
  const init = ownInitData(tx);
  if ("reason" in init) return unknown(init.reason);
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

/**
 * What a pool is, whatever its state: its router, its two router wallets (stored order) and its curve.
 * Immutable facts, so they hold for a pool whose reserves are unknown. null: not revealed (yet).
 */
export type PoolIdentity = {
  router: string | null;
  token0Wallet: string | null;
  token1Wallet: string | null;
  type: PoolType | null;
};

export const NO_IDENTITY: PoolIdentity = { router: null, token0Wallet: null, token1Wallet: null, type: null };

/** Field by field: what `a` knows, else what `b` knows. */
export function mergeIdentity(a: PoolIdentity, b: PoolIdentity): PoolIdentity {
  return {
    router: a.router ?? b.router,
    token0Wallet: a.token0Wallet ?? b.token0Wallet,
    token1Wallet: a.token1Wallet ?? b.token1Wallet,
    type: a.type ?? b.type,
  };
}

export const sameIdentity = (a: PoolIdentity, b: PoolIdentity): boolean =>
  a.router === b.router &&
  a.token0Wallet === b.token0Wallet &&
  a.token1Wallet === b.token1Wallet &&
  a.type === b.type;

/**
 * The identity a pool's own data cell states (a StateInit that hashes to the account holds its initial
 * data: router and wallets never change). The curve only when certain: v1 has one; a v2 layout shared by
 * two types (constant_product and constant_sum) leaves it null.
 */
function identityOfData(data: Cell, dex: "v1" | "v2"): PoolIdentity {
  const layouts: PoolType[] = dex === "v1" ? ["v1_constant_product"] : v2LayoutsOf(data);
  const first = layouts[0];
  if (first === undefined) return NO_IDENTITY;
  try {
    const d = parsePoolData(data, first);
    const type = layouts.length === 1 ? first : null;
    return {
      router: raw(d.router),
      token0Wallet: raw(d.token0Wallet),
      token1Wallet: raw(d.token1Wallet),
      type,
    };
  } catch (e) {
    if (e instanceof PoolDataError) return NO_IDENTITY;
    throw e;
  }
}

/** Out ops that name the pool's router (their destination) and its two wallets (in the body, §2.6, §3.6, §3.8). */
const NAMING_OPS: ReadonlySet<number> = new Set([
  STONFI_V1_OP.pay_to,
  STONFI_V2_OP.pay_to,
  STONFI_V2_OP.pay_vault,
]);

function identityOfOuts(outs: readonly RawMessage[], dex: "v1" | "v2", bodyCell: BodyCellOf): PoolIdentity {
  for (const m of outs) {
    if (m.opcode === null || !NAMING_OPS.has(m.opcode) || m.destination === null) continue;
    const cell = bodyCell(m);
    if (cell === null) continue;
    const b = decodeBody(cell, { dex });
    if (b.kind !== "stonfi.v1.pay_to" && b.kind !== "stonfi.v2.pay_to" && b.kind !== "stonfi.v2.pay_vault")
      continue;
    return { router: m.destination, token0Wallet: raw(b.token0), token1Wallet: raw(b.token1), type: null };
  }
  return NO_IDENTITY;
}

/**
 * What one committed transaction of a pool (not necessarily its deployment) reveals of its identity: the
 * account's own StateInit data, and the `pay_to` / `pay_vault` it sends its router. v1 has one curve.
 */
export function poolIdentity(tx: RawTransaction, dex: "v1" | "v2", bodyCell: BodyCellOf): PoolIdentity {
  const init = ownInitData(tx);
  const fromInit = "data" in init ? identityOfData(init.data, dex) : NO_IDENTITY;
  const known = mergeIdentity(fromInit, identityOfOuts(tx.out_msgs, dex, bodyCell));
  return dex === "v1" ? { ...known, type: "v1_constant_product" } : known;
}
