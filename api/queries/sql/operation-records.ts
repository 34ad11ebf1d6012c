/**
 * Operation rows (./operations.ts) → `OperationRecord`s. Pure: the three query results in, records out.
 *
 * Field by field (api.md §4.6):
 * - asset0/asset1, amount0/amount1: the pool's token order. A swap's offer is token0 when its router
 *   wallet is the pool's token0 wallet; assets are the pool's resolved tokens (TON for pTON), else the
 *   operation's own asset reference.
 * - reserve0/1 and lpTokenSupply: the pool state at the operation (the latest state at or before its lt);
 *   delta0/1 and lpTokenDelta: that state minus the one before the operation (0 before the first state).
 * - fees (swaps): in the ask asset (`feeAsset`), where the pool takes the protocol and referral fees.
 *   The LP fee is taken on the input; it is reported as the output it cost, in ask units:
 *   `baseOut(state before, LP fee 0) − baseOut(state before)`, exact with dex/amm's curves. The pools'
 *   messages do not state the protocol fee (the swap facts leave it null): it is what the swap added to
 *   the pool's collected protocol fee on the ask side (state after − state before).
 * - wallet transaction: the wallet's earliest transaction among the operation's transactions; when the
 *   store did not keep it, the anchoring pool transaction stands in.
 */
import { CURVES, type Direction, type PoolState } from "../../../dex/amm/index.ts";
import type { OperationRecord, OperationType, RawAddress } from "../../read-model.ts";
import { type AssetRef, assetAddress, max0 } from "./common.ts";
import { type KeyedState, type OperationRow, stateKey, type WalletTx } from "./operations.ts";
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
function aIsToken0(o: OperationRow): boolean {
  if (o.type !== "Swap") return true;
  if (o.a_wallet !== null && o.token0_wallet !== null) return o.a_wallet === o.token0_wallet;
  if (o.b_wallet !== null && o.token1_wallet !== null) return o.b_wallet === o.token1_wallet;
  return true;
}

const ref = (o: OperationRow, side: "a" | "b"): AssetRef =>
  side === "a"
    ? { kind: o.a_kind, master: o.a_master, routerWallet: o.a_wallet }
    : { kind: o.b_kind, master: o.b_master, routerWallet: o.b_wallet };

/** LP fee of a swap in ask units (see the header); 0 when the state before is unknown or the curve fails. */
export function lpFeeInAsk(before: PoolState | null, direction: Direction, amountIn: bigint): bigint {
  if (before === null || amountIn <= 0n) return 0n;
  try {
    const curve = CURVES[before.type];
    const fee =
      curve.baseOut({ ...before, lpFeeBps: 0n }, direction, amountIn) -
      curve.baseOut(before, direction, amountIn);
    return fee > 0n ? fee : 0n;
  } catch {
    return 0n;
  }
}

export type OperationContext = {
  wallet: RawAddress;
  states: ReadonlyMap<string, KeyedState>;
  walletTxs: ReadonlyMap<string, WalletTx>;
};

function walletTxOf(o: OperationRow, txs: ReadonlyMap<string, WalletTx>): WalletTx {
  const own = o.tx_hashes.flatMap((h) => txs.get(h) ?? []).sort((x, y) => (x.lt < y.lt ? -1 : 1));
  return own[0] ?? { hash: o.tx_hash, lt: o.lt, utime: o.utime };
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
  const after = ctx.states.get(stateKey(o.pool, o.lt)) ?? null;
  const before = ctx.states.get(stateKey(o.pool, o.lt - 1n)) ?? null;
  const r0 = after?.reserve0 ?? 0n;
  const r1 = after?.reserve1 ?? 0n;
  const lp = after?.lp_supply ?? 0n;
  const swap = o.type === "Swap";
  const succeeded = o.success === true;
  const wtx = walletTxOf(o, ctx.walletTxs);
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
    delta0: r0 - (before?.reserve0 ?? 0n),
    delta1: r1 - (before?.reserve1 ?? 0n),
    reserve0: r0,
    reserve1: r1,
    lpTokenDelta: lp - (before?.lp_supply ?? 0n),
    lpTokenSupply: lp,
    feeAsset: swap ? (aFirst ? asset1 : asset0) : null,
    lpFee:
      swap && succeeded
        ? lpFeeInAsk(before && toPoolState(before), aFirst ? "0to1" : "1to0", o.amount_a)
        : 0n,
    protocolFee:
      o.protocol_fee ??
      (swap && succeeded && after !== null && before !== null
        ? max0(
            aFirst
              ? after.collected_protocol_fee1 - before.collected_protocol_fee1
              : after.collected_protocol_fee0 - before.collected_protocol_fee0,
          )
        : 0n),
    referralFee: o.referral_fee,
    referral: o.referrer,
    wallet: ctx.wallet,
    walletTxHash: wtx.hash,
    walletTxLt: wtx.lt,
    walletTxTime: wtx.utime,
  };
}
