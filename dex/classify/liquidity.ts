/**
 * Liquidity operations, each anchored on the pool's own transaction (contracts.md §2.7, §3.8, §6):
 * - provide: router → pool `provide_lp` → pool → LpAccount `add_liquidity` (or a v2 refund `pay_to`);
 * - mint: LpAccount → pool `cb_add_liquidity` → LP wallet `internal_transfer` (or `add_liquidity` back);
 * - burn: LP wallet → pool `burn_notification(_ext)` → `pay_to(burn_ok)` (v1 one, v2 one per side);
 * - LpAccount refund: `cb_refund_me` → `pay_to(refund_ok)`.
 */

import { decodeForwardPayload } from "../codecs/index.ts";
import { describeExitCode } from "../exit-codes.ts";
import type { AssetResolver } from "./assets.ts";
import type { DecodedBatch, DecodedMessage, DecodedTx } from "./decode.ts";
import { followPayout } from "./payout.ts";
import type { Dex, LiquidityMint, LiquidityProvide, LiquidityWithdraw, Operation } from "./types.ts";
import { raw } from "./util.ts";

const BURN_OK = 0xdda48b6a;
const REFUND_OK = 0xde7dbbc2;

type PayToSide = {
  msg: DecodedMessage;
  exitCode: number;
  to: string | null;
  amount0: bigint;
  amount1: bigint;
  token0: string | null;
  token1: string | null;
};

function payTos(t: DecodedTx): PayToSide[] {
  const out: PayToSide[] = [];
  for (const m of t.outs) {
    const b = m.body;
    if (b.kind === "stonfi.v1.pay_to") {
      out.push({
        msg: m,
        exitCode: b.exitCode,
        to: raw(b.owner),
        amount0: b.amount0Out,
        amount1: b.amount1Out,
        token0: raw(b.token0),
        token1: raw(b.token1),
      });
    } else if (b.kind === "stonfi.v2.pay_to") {
      out.push({
        msg: m,
        exitCode: b.exitCode,
        to: raw(b.toAddress),
        amount0: b.amount0Out,
        amount1: b.amount1Out,
        token0: raw(b.token0),
        token1: raw(b.token1),
      });
    }
  }
  return out;
}

function anchor(t: DecodedTx, suffix: string) {
  return {
    id: `${t.tx.hash}:${suffix}`,
    tx_hash: t.tx.hash,
    lt: t.lt,
    now: t.tx.now,
    tx_hashes: [t.tx.hash],
  };
}

function provide(t: DecodedTx): LiquidityProvide | null {
  const b = t.in?.body;
  if (b?.kind !== "stonfi.v1.provide_lp" && b?.kind !== "stonfi.v2.provide_lp") return null;
  const dex: Dex = b.kind === "stonfi.v1.provide_lp" ? "v1" : "v2";
  const add = t.outs.find(
    (o) => o.body.kind === "stonfi.v1.add_liquidity" || o.body.kind === "stonfi.v2.add_liquidity",
  );
  const refund = payTos(t)[0];
  let minLpOut: bigint | null = null;
  if (b.kind === "stonfi.v1.provide_lp") minLpOut = b.minLpOut;
  else {
    const payload = decodeForwardPayload(b.dexPayload);
    if (payload.kind === "stonfi.v2.provide_lp_payload") minLpOut = payload.minLpOut;
  }
  const exitCode = refund ? refund.exitCode : t.ok ? null : t.tx.compute.exit_code;
  return {
    type: "liquidity_provide",
    ...anchor(t, "provide"),
    dex,
    router: t.in?.raw.source ?? null,
    pool: t.tx.account,
    sender: raw(b.kind === "stonfi.v1.provide_lp" ? b.owner : b.fromUser),
    lp_account: add?.raw.destination ?? null,
    amount0: b.amount0,
    amount1: b.amount1,
    min_lp_out: minLpOut,
    query_id: b.queryId,
    exit_code: exitCode,
    exit_name: exitCode === null ? (add ? "ok" : "no_add_liquidity") : describeExitCode(exitCode, dex).name,
    success: t.ok && add !== undefined,
  };
}

function mint(t: DecodedTx): LiquidityMint | null {
  const b = t.in?.body;
  if (b?.kind !== "stonfi.v1.cb_add_liquidity" && b?.kind !== "stonfi.v2.cb_add_liquidity") return null;
  const minted = t.outs.find((o) => o.body.kind === "jetton.internal_transfer");
  return {
    type: "liquidity_mint",
    ...anchor(t, "mint"),
    dex: b.kind === "stonfi.v1.cb_add_liquidity" ? "v1" : "v2",
    pool: t.tx.account,
    user: raw(b.user),
    receiver: b.kind === "stonfi.v2.cb_add_liquidity" ? (raw(b.toUser) ?? raw(b.user)) : raw(b.user),
    amount0: b.totAm0,
    amount1: b.totAm1,
    lp_amount: minted?.body.kind === "jetton.internal_transfer" ? minted.body.amount : null,
    query_id: b.queryId,
    success: t.ok && minted !== undefined,
  };
}

function withdraw(batch: DecodedBatch, assets: AssetResolver, t: DecodedTx): LiquidityWithdraw | null {
  const b = t.in?.body;
  // A v1 pool's burn_notification has the TEP-74 layout, so the codecs decode it as the jetton kind
  // unless told the DEX version; the pool's burn_ok pay_to tells it here.
  const v1Burn =
    b?.kind === "jetton.burn_notification" && t.outs.some((o) => o.body.kind === "stonfi.v1.pay_to");
  const isBurn =
    v1Burn || b?.kind === "stonfi.v1.burn_notification" || b?.kind === "stonfi.v2.burn_notification_ext";
  const isRefund = b?.kind === "stonfi.v1.cb_refund_me" || b?.kind === "stonfi.v2.cb_refund_me";
  if (!b || (!isBurn && !isRefund)) return null;
  const dex: Dex = b.kind.startsWith("stonfi.v2.") ? "v2" : "v1";
  const expected = isBurn ? BURN_OK : REFUND_OK;
  const sides = payTos(t).filter((p) => p.exitCode === expected);
  let amount0 = 0n;
  let amount1 = 0n;
  let token0: string | null = null;
  let token1: string | null = null;
  let delivered: boolean | null = sides.length > 0;
  const txs = [t.tx.hash];
  for (const p of sides) {
    amount0 += p.amount0;
    amount1 += p.amount1;
    token0 ??= p.token0;
    token1 ??= p.token1;
    for (const [amount, wallet] of [
      [p.amount0, p.token0],
      [p.amount1, p.token1],
    ] as const) {
      if (amount === 0n) continue;
      const followed = followPayout(batch, { request: p.msg, to: p.to, amount, wallet });
      txs.push(...followed.txs.map((x) => x.tx.hash));
      const d = followed.payout.delivered;
      delivered = delivered === false || d === false ? false : delivered === null || d === null ? null : true;
    }
  }
  const owner =
    b.kind === "jetton.burn_notification"
      ? raw(b.sender)
      : b.kind === "stonfi.v1.burn_notification" || b.kind === "stonfi.v2.burn_notification_ext"
        ? raw(b.from)
        : "user" in b
          ? raw(b.user)
          : null;
  return {
    type: "liquidity_withdraw",
    ...anchor(t, isBurn ? "burn" : "lp_refund"),
    tx_hashes: [...new Set(txs)],
    dex,
    kind: isBurn ? "burn" : "lp_refund",
    pool: t.tx.account,
    owner,
    lp_amount: "amount" in b && typeof b.amount === "bigint" ? b.amount : null,
    amount0,
    amount1,
    asset0: assets.assetOf(token0),
    asset1: assets.assetOf(token1),
    query_id: b.queryId,
    success: t.ok ? delivered : false,
  };
}

/** Liquidity operations plus the STON.fi messages they explain. */
export function assembleLiquidity(
  batch: DecodedBatch,
  assets: AssetResolver,
): { ops: Operation[]; consumed: string[] } {
  const ops: Operation[] = [];
  const consumed: string[] = [];
  for (const t of batch.txs) {
    const op = provide(t) ?? mint(t) ?? withdraw(batch, assets, t);
    if (!op) continue;
    ops.push(op);
    if (t.in) consumed.push(t.in.raw.hash);
    for (const o of t.outs) if (o.body.kind.startsWith("stonfi.")) consumed.push(o.raw.hash);
  }
  return { ops, consumed };
}
