/**
 * Operation rows (./operations.ts) → `OperationRecord`s. Pure: the query results in, records out.
 *
 * Field by field (api.md §4.6). Unknown is not zero: a value neither the pool state history nor the
 * operation's own messages determine is null.
 * - asset0/asset1, amount0/amount1: the pool's token order. A swap's offer is token0 when its router
 *   wallet is the pool's token0 wallet; assets are the pool's resolved tokens (TON for pTON), else the
 *   operation's own asset reference.
 * - reserve0/1 and lpTokenSupply: the pool state at the operation (the latest state at or before its lt);
 *   null when the store has no state of the pool at that time (e.g. replayed real data without chain access).
 * - delta0/1 and lpTokenDelta: that state minus the one before the operation when both are known. Otherwise what the operation itself
 *   determines (contracts.md §2.9, §3.9): a refunded swap, a refused mint, a provide (the deposit goes to
 *   the LpAccount) and an LpAccount refund leave the reserves as they were; a swap the pool executed adds its
 *   whole input to the offer side and takes output + protocol fee + referral fee from the ask side (the ask
 *   side stays null while the protocol fee is unknown); a v1 mint adds both amounts and the LP minted; a
 *   burn takes the amounts paid out and the LP burned. Null for the rest.
 * - fees (swaps): in the ask asset (`feeAsset`), where the pool takes the protocol and referral fees.
 *   The LP fee is taken on the input; it is reported as the output it cost, in ask units:
 *   `baseOut(state before, LP fee 0) − baseOut(state before)`, exact with dex/amm's curves (null without
 *   the state before). The pools' messages do not state the protocol fee: it is the swap fact's when the
 *   processor knew it, else what the swap added to the pool's collected protocol fee on the ask side
 *   (state after − state before), else null. A refunded swap charges nothing; a swap whose outcome at the
 *   pool is not known has unknown fees. Liquidity: a v2 mint pays a protocol fee on its over-supplied side
 *   (what that side's collected fee grew by; `feeAsset` that side) and an LP fee left in the reserves (null:
 *   the states do not separate it); every other liquidity operation charges nothing.
 * - wallet transaction: the transaction that started the operation: the root of the pool transaction's
 *   trace (the top of the path up its message edges), when it is the wallet's own transaction processing an
 *   external message. Null when the store did not keep the root (the path ends at a transaction whose
 *   inbound message came from a transaction not stored) or the root is another account's (the operation
 *   was started by someone else, e.g. an aggregator contract or another router's hop): never a later
 *   payout, an intermediate transaction or the pool transaction itself.
 */
import { CURVES, type Direction, type PoolState } from "../../../dex/amm/index.ts";
import type { Store } from "../../../infra/store/client.ts";
import type { OperationRecord, OperationType, RawAddress } from "../../read-model.ts";
import { type AssetRef, assetAddress, max0 } from "./common.ts";
import {
  type KeyedState,
  type OperationRow,
  selectStatesAt,
  selectTracePaths,
  stateKey,
  type WalletTx,
} from "./operations.ts";
import { toPoolState } from "./pools.ts";

/** Exit names of liquidity operations the classifier does not name (mint, burn, refund). */
const OK_NAMES: Partial<Record<OperationType, string>> = {
  AddLiquidity: "ok",
  WithdrawLiquidity: "burn_ok",
  RefundLiquidity: "refund_ok",
};

function exitName(o: OperationRow): string {
  if (o.exit_name !== null && o.exit_name !== "") return o.exit_name;
  if (o.success === true) return OK_NAMES[o.type] ?? "ok";
  return o.success === false ? "failed" : "unknown";
}

/** Whether side a (a swap's offer; liquidity's token0) is the pool's token0. */
export function aIsToken0(
  o: Pick<OperationRow, "type" | "a_wallet" | "b_wallet" | "token0_wallet" | "token1_wallet">,
): boolean {
  if (o.type !== "Swap") return true;
  if (o.a_wallet !== null && o.token0_wallet !== null) return o.a_wallet === o.token0_wallet;
  if (o.b_wallet !== null && o.token1_wallet !== null) return o.b_wallet === o.token1_wallet;
  return true;
}

const ref = (o: OperationRow, side: "a" | "b"): AssetRef =>
  side === "a"
    ? { kind: o.a_kind, master: o.a_master, routerWallet: o.a_wallet }
    : { kind: o.b_kind, master: o.b_master, routerWallet: o.b_wallet };

/** LP fee of a swap in ask units (see the header); null when the state before is unknown or the curve fails. */
export function lpFeeInAsk(before: PoolState | null, direction: Direction, amountIn: bigint): bigint | null {
  if (before === null) return null;
  if (amountIn <= 0n) return 0n;
  try {
    const curve = CURVES[before.type];
    const fee =
      curve.baseOut({ ...before, lpFeeBps: 0n }, direction, amountIn) -
      curve.baseOut(before, direction, amountIn);
    return fee > 0n ? fee : 0n;
  } catch {
    return null;
  }
}

export type OperationContext = {
  wallet: RawAddress;
  states: ReadonlyMap<string, KeyedState>;
  /** Per pool transaction: the path up to the root of its trace, nearest first (./operations.ts). */
  paths: ReadonlyMap<string, readonly WalletTx[]>;
};

function walletTxOf(o: OperationRow, ctx: OperationContext): WalletTx | null {
  const root = ctx.paths.get(o.tx_hash)?.at(-1);
  return root?.external && root.account === ctx.wallet && root.hash !== o.tx_hash ? root : null;
}

type Deltas = { a: bigint | null; b: bigint | null; lp: bigint | null };
const UNCHANGED: Deltas = { a: 0n, b: 0n, lp: 0n };
const UNKNOWN: Deltas = { a: null, b: null, lp: null };

/**
 * A swap's outcome at the pool: `executed` when the pool paid `swap_ok` (the fact's output, amount_b, is
 * then > 0: v1 needs out > min_out ≥ 0, v2 out ≥ 1), whatever became of the payout afterwards; `refunded`
 * when it did not and the operation failed (state not saved); else unknown.
 */
function swapOutcome(o: OperationRow): "executed" | "refunded" | "unknown" {
  if (o.amount_b > 0n) return "executed";
  return o.success === false ? "refunded" : "unknown";
}

/** What the operation alone says the pool's reserves did, in side a/b terms (see the header). */
function deltasOfOperation(o: OperationRow, protocolFee: bigint | null): Deltas {
  switch (o.type) {
    case "Swap": {
      const outcome = swapOutcome(o);
      if (outcome === "refunded") return UNCHANGED;
      if (outcome === "unknown") return UNKNOWN;
      return {
        a: o.amount_a,
        b: protocolFee === null ? null : -(o.amount_b + protocolFee + o.referral_fee),
        lp: 0n,
      };
    }
    case "SendLiquidity":
      return o.success === null ? UNKNOWN : UNCHANGED;
    case "RefundLiquidity":
      return UNCHANGED;
    case "AddLiquidity":
      // v1 adds both amounts whole and mints the liquidity to the supply (to addr_none's wallet the first
      // time, §2.9); v2 keeps its protocol fee out of the reserves and locks 1001 LP at the first mint.
      if (o.success === false) return UNCHANGED;
      return o.dex === "v1" && o.success === true && o.lp_amount !== null
        ? { a: o.amount_a, b: o.amount_b, lp: o.lp_amount }
        : UNKNOWN;
    case "WithdrawLiquidity":
      return o.success === true && o.lp_amount !== null
        ? { a: -o.amount_a, b: -o.amount_b, lp: -o.lp_amount }
        : UNKNOWN;
    default:
      return UNKNOWN;
  }
}

type Fees = { feeAsset: RawAddress | null; lpFee: bigint | null; protocolFee: bigint | null };

/**
 * A v2 mint's fees (§3.9.8): an unbalanced deposit pays a protocol fee on its over-supplied side (what the
 * pool's collected fee of that side grew by) and an LP fee that stays in the reserves (not separable from
 * the states: null). v1 mints, provides, burns and LpAccount refunds charge nothing; neither does a mint
 * the pool refused.
 */
function liquidityFees(
  o: OperationRow,
  before: KeyedState | undefined,
  after: KeyedState | undefined,
  assets: readonly [RawAddress, RawAddress],
): Fees {
  const none: Fees = { feeAsset: null, lpFee: 0n, protocolFee: 0n };
  if (o.type !== "AddLiquidity" || o.dex === "v1" || o.success === false) return none;
  if (o.success === null) return { feeAsset: null, lpFee: null, protocolFee: null };
  const d0 = diff(after?.collected_protocol_fee0, before?.collected_protocol_fee0);
  const d1 = diff(after?.collected_protocol_fee1, before?.collected_protocol_fee1);
  if (d0 === null || d1 === null || (d0 > 0n && d1 > 0n))
    return { feeAsset: null, lpFee: null, protocolFee: null };
  if (d0 <= 0n && d1 <= 0n) return { feeAsset: null, lpFee: null, protocolFee: 0n };
  return d0 > 0n
    ? { feeAsset: assets[0], lpFee: null, protocolFee: d0 }
    : { feeAsset: assets[1], lpFee: null, protocolFee: d1 };
}

const nullable =
  (f: (v: bigint) => bigint) =>
  (v: bigint | null): bigint | null =>
    v === null ? null : f(v);

const diff = (after: bigint | undefined, before: bigint | undefined): bigint | null =>
  after === undefined || before === undefined ? null : after - before;

/**
 * Operation rows → records: the pool's states at and before each pool transaction and each trace's path are
 * read in one go; each row is seen from `walletOf(row)` (rows it answers null for are left out).
 */
export async function toOperationRecords(
  store: Store,
  rows: readonly OperationRow[],
  walletOf: (o: OperationRow) => RawAddress | null,
): Promise<OperationRecord[]> {
  if (rows.length === 0) return [];
  const keys = rows.flatMap((o) => [
    { pool: o.pool, lt: o.lt },
    ...(o.lt > 0n ? [{ pool: o.pool, lt: o.lt - 1n }] : []),
  ]);
  const [states, paths] = await Promise.all([
    selectStatesAt(store, keys),
    selectTracePaths(
      store,
      rows.map((o) => o.tx_hash),
    ),
  ]);
  return rows.flatMap((o) => {
    const wallet = walletOf(o);
    return wallet === null ? [] : (toOperationRecord(o, { wallet, states, paths }) ?? []);
  });
}

/** The record, or null when neither the operation nor its pool names the router. */
export function toOperationRecord(o: OperationRow, ctx: OperationContext): OperationRecord | null {
  const router = o.router ?? o.pool_router;
  if (router === null) return null;
  const aFirst = aIsToken0(o);
  const [side0, side1] = aFirst ? (["a", "b"] as const) : (["b", "a"] as const);
  const asset0 = o.token0 ?? assetAddress(ref(o, side0));
  const asset1 = o.token1 ?? assetAddress(ref(o, side1));
  if (asset0 === null || asset1 === null) return null;
  const after = ctx.states.get(stateKey(o.pool, o.lt)) ?? undefined;
  const before = ctx.states.get(stateKey(o.pool, o.lt - 1n)) ?? undefined;
  const swap = o.type === "Swap";
  const succeeded = o.success === true;
  const outcome = swap ? swapOutcome(o) : null;
  const fees: Fees = !swap
    ? liquidityFees(o, before, after, [asset0, asset1])
    : {
        feeAsset: aFirst ? asset1 : asset0,
        lpFee:
          outcome === "executed"
            ? lpFeeInAsk(before ? toPoolState(before) : null, aFirst ? "0to1" : "1to0", o.amount_a)
            : outcome === "refunded"
              ? 0n
              : null,
        protocolFee:
          outcome === "executed"
            ? (o.protocol_fee ??
              nullable(max0)(
                diff(
                  aFirst ? after?.collected_protocol_fee1 : after?.collected_protocol_fee0,
                  aFirst ? before?.collected_protocol_fee1 : before?.collected_protocol_fee0,
                ),
              ))
            : outcome === "refunded"
              ? 0n
              : null,
      };
  const protocolFee = fees.protocolFee;
  // The state diff when both states are known; else what the operation itself determines.
  const own = deltasOfOperation(o, protocolFee);
  const stateDelta = (key: "reserve0" | "reserve1" | "lp_supply", fallback: bigint | null) =>
    diff(after?.[key], before?.[key]) ?? fallback;
  const wtx = walletTxOf(o, ctx);
  return {
    type: o.type,
    poolTxHash: o.tx_hash,
    poolTxLt: o.lt,
    poolTxTime: o.utime,
    pool: o.pool,
    router,
    dexVersion: o.dex === "v1" ? 1 : 2,
    destinationWallet: o.destination ?? ctx.wallet,
    success: succeeded,
    exitCode: exitName(o),
    asset0,
    asset1,
    amount0: aFirst ? o.amount_a : o.amount_b,
    amount1: aFirst ? o.amount_b : o.amount_a,
    delta0: stateDelta("reserve0", aFirst ? own.a : own.b),
    delta1: stateDelta("reserve1", aFirst ? own.b : own.a),
    reserve0: after?.reserve0 ?? null,
    reserve1: after?.reserve1 ?? null,
    lpTokenDelta: stateDelta("lp_supply", own.lp),
    lpTokenSupply: after?.lp_supply ?? null,
    feeAsset: fees.feeAsset,
    lpFee: fees.lpFee,
    protocolFee,
    referralFee: o.referral_fee,
    referral: o.referrer,
    wallet: ctx.wallet,
    walletTxHash: wtx?.hash ?? null,
    walletTxLt: wtx?.lt ?? null,
    walletTxTime: wtx?.utime ?? null,
  };
}
