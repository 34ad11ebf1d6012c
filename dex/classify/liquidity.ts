/**
 * Liquidity operations, each anchored on the pool's own transaction (contracts.md §2.7, §3.8, §6):
 * - provide: router → pool `provide_lp` → pool → LpAccount `add_liquidity` (or a v2 refund `pay_to`);
 * - mint: LpAccount → pool `cb_add_liquidity` → LP wallet `internal_transfer` (or `add_liquidity` back);
 * - burn: LP wallet → pool `burn_notification(_ext)` → `pay_to(burn_ok)` (v1 one, v2 one per side);
 * - LpAccount refund: `cb_refund_me` → `pay_to(refund_ok)`.
 */

import type { Decoded } from "../codecs/index.ts";
import { describeExitCode } from "../exit-codes.ts";
import type { AssetResolver } from "./assets.ts";
import { childTx, type DecodedBatch, type DecodedMessage, type DecodedTx, parentTx } from "./decode.ts";
import { inboundOf } from "./inbound.ts";
import { payloadOnce } from "./message-cache.ts";
import { followPayout } from "./payout.ts";
import type {
  Dex,
  LiquidityMint,
  LiquidityProvide,
  LiquidityWithdraw,
  Operation,
  ProvideOutcome,
} from "./types.ts";
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

const isCb = (m: DecodedMessage) =>
  m.body.kind === "stonfi.v1.cb_add_liquidity" || m.body.kind === "stonfi.v2.cb_add_liquidity";
const isCbRefund = (m: DecodedMessage) =>
  m.body.kind === "stonfi.v1.cb_refund_me" || m.body.kind === "stonfi.v2.cb_refund_me";

/**
 * What became of a deposit in the LpAccount (§2.7, §3.8). The LpAccount adds it to its balances and
 * either keeps them or forwards all of them at once: `cb_add_liquidity` (mint) or `cb_refund_me`. So the
 * deposit follows the first forward from that LpAccount, in this transaction or a later one of the batch;
 * a mint the pool answers with `add_liquidity` instead of an LP `internal_transfer` failed.
 */
function depositOutcome(batch: DecodedBatch, lpAccount: DecodedTx | undefined): ProvideOutcome | null {
  if (!lpAccount?.ok) return null;
  // The LpAccount's own transactions, in the batch's order: the first match is the same as over all txs.
  const forwarder = (batch.byAccount.get(lpAccount.tx.account) ?? []).find(
    (x) => x.lt >= lpAccount.lt && x.ok && x.outs.some((o) => isCb(o) || isCbRefund(o)),
  );
  const cb = forwarder?.outs.find((o) => isCb(o) || isCbRefund(o));
  if (!cb) return "stored";
  if (isCbRefund(cb)) return "refunded";
  const pool = childTx(batch, cb);
  if (!pool) return null;
  const minted = pool.ok && pool.outs.some((o) => o.body.kind === "jetton.internal_transfer");
  return minted ? "minted" : "mint_failed";
}

function provide(batch: DecodedBatch, assets: AssetResolver, t: DecodedTx): LiquidityProvide | null {
  const b = t.in?.body;
  if (b?.kind !== "stonfi.v1.provide_lp" && b?.kind !== "stonfi.v2.provide_lp") return null;
  const dex: Dex = b.kind === "stonfi.v1.provide_lp" ? "v1" : "v2";
  const add = t.outs.find(
    (o) => o.body.kind === "stonfi.v1.add_liquidity" || o.body.kind === "stonfi.v2.add_liquidity",
  );
  const refund = payTos(t)[0];
  const inbound = inboundOf(batch, parentTx(batch, t));
  // The provided side is the router wallet that notified the router; the payload's token_wallet1 is the
  // other one (§2.4, §3.4). v1 keeps the payload at the router, v2 passes it to the pool.
  const payload =
    b.kind === "stonfi.v2.provide_lp"
      ? payloadOnce(batch.memo, b.dexPayload)
      : inbound.router?.in?.body.kind === "jetton.transfer_notification"
        ? inbound.router.in.payload
        : null;
  let minLpOut: bigint | null = null;
  let other: string | null = null;
  if (b.kind === "stonfi.v1.provide_lp") minLpOut = b.minLpOut;
  if (payload?.kind === "stonfi.v2.provide_lp_payload" || payload?.kind === "stonfi.v1.provide_lp_payload") {
    other = raw(payload.tokenWallet1);
    minLpOut ??= payload.minLpOut;
  }
  const provided = inbound.routerWallet;
  // One amount is the deposit, the other 0; its position says whether the provided token is token0.
  const [wallet0, wallet1] = b.amount0 > 0n || b.amount1 === 0n ? [provided, other] : [other, provided];
  const exitCode = refund ? refund.exitCode : t.ok ? null : t.tx.compute.exit_code;
  const lpAccount = add ? childTx(batch, add) : undefined;
  return {
    type: "liquidity_provide",
    ...anchor(t, "provide"),
    tx_hashes: [...inbound.path, t, ...(lpAccount ? [lpAccount] : [])].map((x) => x.tx.hash),
    dex,
    router: t.in?.raw.source ?? null,
    pool: t.tx.account,
    sender: raw(b.kind === "stonfi.v1.provide_lp" ? b.owner : b.fromUser),
    lp_account: add?.raw.destination ?? null,
    amount0: b.amount0,
    amount1: b.amount1,
    asset0: assets.assetOf(wallet0),
    asset1: assets.assetOf(wallet1),
    min_lp_out: minLpOut,
    query_id: b.queryId,
    exit_code: exitCode,
    exit_name: exitCode === null ? (add ? "ok" : "no_add_liquidity") : describeExitCode(exitCode, dex).name,
    success: t.ok && add !== undefined,
    outcome: t.ok ? depositOutcome(batch, lpAccount) : null,
  };
}

/**
 * Who gets the LP: v2 mints to the LP wallet of `to_user` (§3.8). v1 mints to the user with response =
 * user, except the first deposit of a pool, which is minted to addr_none's LP wallet with response =
 * addr_none and is locked for good (§2.7, §2.9); so a v1 mint's response address is its receiver.
 */
function mintReceiver(
  b: Extract<Decoded, { kind: "stonfi.v1.cb_add_liquidity" | "stonfi.v2.cb_add_liquidity" }>,
  minted: DecodedMessage | undefined,
): string | null {
  if (b.kind === "stonfi.v2.cb_add_liquidity") return raw(b.toUser) ?? raw(b.user);
  if (minted?.body.kind === "jetton.internal_transfer") return raw(minted.body.responseAddress);
  return raw(b.user);
}

function mint(batch: DecodedBatch, t: DecodedTx): LiquidityMint | null {
  const b = t.in?.body;
  if (b?.kind !== "stonfi.v1.cb_add_liquidity" && b?.kind !== "stonfi.v2.cb_add_liquidity") return null;
  const minted = t.outs.find((o) => o.body.kind === "jetton.internal_transfer");
  const related = [parentTx(batch, t), minted ? childTx(batch, minted) : undefined];
  return {
    type: "liquidity_mint",
    ...anchor(t, "mint"),
    tx_hashes: [t, ...related].flatMap((x) => (x ? [x.tx.hash] : [])),
    dex: b.kind === "stonfi.v1.cb_add_liquidity" ? "v1" : "v2",
    pool: t.tx.account,
    user: raw(b.user),
    receiver: mintReceiver(b, minted),
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
  // the LP wallet (burn) or LpAccount (refund) transaction that sent the notification belongs to it too
  const txs = [t.tx.hash, ...(parentTx(batch, t) ? [parentTx(batch, t)!.tx.hash] : [])];
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
    response:
      b.kind === "jetton.burn_notification"
        ? raw(b.responseDestination)
        : b.kind === "stonfi.v1.burn_notification" || b.kind === "stonfi.v2.burn_notification_ext"
          ? raw(b.responseAddress)
          : null,
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
    const op = provide(batch, assets, t) ?? mint(batch, t) ?? withdraw(batch, assets, t);
    if (!op) continue;
    ops.push(op);
    if (t.in) consumed.push(t.in.raw.hash);
    for (const o of t.outs) if (o.body.kind.startsWith("stonfi.")) consumed.push(o.raw.hash);
  }
  return { ops, consumed };
}
