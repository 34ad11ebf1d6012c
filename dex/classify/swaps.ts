/**
 * Swap legs, anchored on the pool's own transaction (DESIGN "Processors"): its in_msg is the router's
 * `swap`, its out_msgs the `pay_to` (+ v1 referral `pay_to` / v2 `pay_vault`). The rest of the batch only
 * enriches the leg: assets, the sender's wallet, whether the payout really happened (contracts.md §6).
 */
import { protocolFeeFromReferral } from "../amm/protocol-fee.ts";
import { STONFI_V2_OP } from "../codecs/stonfi/v2/opcodes.ts";
import { describeExitCode, STONFI_EXIT_CODE } from "../exit-codes.ts";
import type { AssetResolver } from "./assets.ts";
import { childTx, type DecodedBatch, type DecodedMessage, type DecodedTx, parentTx } from "./decode.ts";
import { type Inbound, inboundOf } from "./inbound.ts";
import { followPayout } from "./payout.ts";
import { payloadOfSwap, type V1PayTo, type V2PayTo, type V2SwapPayload } from "./shapes.ts";
import type { Dex, Payout, ReferralPayment, SwapLeg } from "./types.ts";
import { raw } from "./util.ts";

const { swap_ok: SWAP_OK, swap_ok_ref: SWAP_OK_REF } = STONFI_EXIT_CODE;
const CROSS_SWAP_OP = STONFI_V2_OP.cross_swap;

export type AssembledLeg = {
  leg: SwapLeg;
  inbound: Inbound;
  /** Router tx that executed the main pay_to (links the next hop of a route). */
  payoutTx: DecodedTx | undefined;
  /** Messages whose subtrees belong to referral operations, not to the swap. */
  referralMsgs: string[];
  referral: ReferralPayment | null;
  consumed: string[];
};

function exitName(code: number | null, dex: Dex, fallback: string): string {
  return code === null ? fallback : describeExitCode(code, dex).name;
}

function hashes(...groups: (DecodedTx | undefined)[][]): string[] {
  return [...new Set(groups.flat().flatMap((t) => (t ? [t.tx.hash] : [])))];
}

function side(amount0: bigint, token0: string | null, token1: string | null): string | null {
  return amount0 > 0n ? token0 : token1;
}

function successOf(poolOk: boolean, exitOk: boolean, payout: Payout | null): boolean | null {
  if (!poolOk || !exitOk) return false;
  return payout?.delivered ?? null;
}

function baseLeg(pool: DecodedTx, dex: Dex, inbound: Inbound): SwapLeg {
  return {
    type: "swap",
    id: `${pool.tx.hash}:swap`,
    tx_hash: pool.tx.hash,
    lt: pool.lt,
    now: pool.tx.now,
    tx_hashes: [],
    dex,
    router: pool.in?.raw.source ?? null,
    pool: pool.tx.account,
    query_id: 0n,
    sender: null,
    sender_wallet: inbound.senderWallet,
    receiver: null,
    offer: { kind: "jetton", master: null, router_wallet: null },
    ask: { kind: "jetton", master: null, router_wallet: null },
    amount_in: 0n,
    amount_out: null,
    min_out: null,
    protocol_fee: null,
    referral_fee: null,
    referrer: null,
    exit_code: null,
    exit_name: "no_pay_to",
    success: false,
    payout: null,
    continues_as_cross_swap: false,
    route: null,
  };
}

function v1Leg(batch: DecodedBatch, assets: AssetResolver, pool: DecodedTx): AssembledLeg | null {
  const sw = pool.in?.body;
  if (sw?.kind !== "stonfi.v1.swap") return null;
  const inbound = inboundOf(batch, parentTx(batch, pool));
  const leg = baseLeg(pool, "v1", inbound);
  const offerWallet = raw(sw.senderWallet);
  const payTos = pool.outs.filter(
    (o): o is DecodedMessage & { body: V1PayTo } => o.body.kind === "stonfi.v1.pay_to",
  );
  const refMsg = payTos.find((o) => o.body.exitCode === SWAP_OK_REF);
  const main = payTos.find((o) => o.body.exitCode !== SWAP_OK_REF);
  Object.assign(leg, {
    query_id: sw.queryId,
    sender: raw(sw.fromUser),
    receiver: raw(sw.toAddress),
    amount_in: sw.jettonAmount,
    min_out: sw.minOut,
    referrer: sw.hasRef ? raw(sw.refAddress) : null,
    exit_code: main ? main.body.exitCode : pool.ok ? null : pool.tx.compute.exit_code,
  });
  leg.exit_name = exitName(leg.exit_code, "v1", "no_pay_to");
  let askWallet: string | null = null;
  let payoutTx: DecodedTx | undefined;
  const txs: DecodedTx[] = [];
  if (main) {
    const p = main.body;
    const t0 = raw(p.token0);
    const t1 = raw(p.token1);
    askWallet = t0 === offerWallet ? t1 : t0;
    const out = p.amount0Out + p.amount1Out;
    const ok = p.exitCode === SWAP_OK;
    if (ok) leg.amount_out = out;
    const followed = followPayout(batch, {
      request: main,
      to: raw(p.owner),
      amount: out,
      wallet: side(p.amount0Out, t0, t1),
    });
    leg.payout = followed.payout;
    payoutTx = followed.txs[0];
    txs.push(...followed.txs);
    leg.success = successOf(pool.ok, ok, leg.payout);
  }
  leg.offer = assets.assetOf(offerWallet ?? inbound.routerWallet);
  leg.ask = assets.assetOf(askWallet);
  let referral: ReferralPayment | null = null;
  if (refMsg) {
    const p = refMsg.body;
    const amount = p.amount0Out + p.amount1Out;
    leg.referral_fee = amount;
    leg.referrer = raw(p.owner) ?? leg.referrer;
    // The referral fee pins down the protocol fee (the pool's ref_fee bps is not in any message).
    if (leg.amount_out !== null) {
      leg.protocol_fee = protocolFeeFromReferral({
        amountOut: leg.amount_out,
        referralFee: amount,
        referralBps: null,
      });
    }
    const followed = followPayout(batch, {
      request: refMsg,
      to: raw(p.owner),
      amount,
      wallet: side(p.amount0Out, raw(p.token0), raw(p.token1)),
    });
    referral = {
      type: "referral_payment",
      id: `${pool.tx.hash}:referral`,
      tx_hash: pool.tx.hash,
      lt: pool.lt,
      now: pool.tx.now,
      tx_hashes: hashes(followed.txs),
      dex: "v1",
      router: leg.router,
      pool: pool.tx.account,
      referrer: raw(p.owner),
      asset: leg.ask,
      amount,
      query_id: p.queryId,
      success: amount === 0n ? pool.ok : followed.payout.delivered,
      payout: followed.payout,
    };
  }
  leg.tx_hashes = hashes(inbound.path, [pool], txs);
  const consumed = [pool.in?.raw.hash ?? "", ...payTos.map((o) => o.raw.hash)];
  return { leg, inbound, payoutTx, referralMsgs: refMsg ? [refMsg.raw.hash] : [], referral, consumed };
}

function isCrossSwap(p: V2PayTo): boolean {
  const c = p.customPayload;
  return c !== null && c.bits.length >= 32 && c.beginParse().preloadUint(32) === CROSS_SWAP_OP;
}

function v2Leg(batch: DecodedBatch, assets: AssetResolver, pool: DecodedTx): AssembledLeg | null {
  const sw = pool.in?.body;
  if (sw?.kind !== "stonfi.v2.swap") return null;
  const inbound = inboundOf(batch, parentTx(batch, pool));
  const leg = baseLeg(pool, "v2", inbound);
  const payload: V2SwapPayload | null = payloadOfSwap(sw, batch.memo);
  const payTo = pool.outs.find(
    (o): o is DecodedMessage & { body: V2PayTo } => o.body.kind === "stonfi.v2.pay_to",
  );
  const payVault = pool.outs.find((o) => o.body.kind === "stonfi.v2.pay_vault");
  const sender = raw(sw.fromUser);
  Object.assign(leg, {
    query_id: sw.queryId,
    sender,
    receiver: raw(payload?.receiver) ?? sender,
    amount_in: sw.amount0 + sw.amount1,
    min_out: payload?.minOut ?? null,
    referrer: raw(payload?.refAddress),
    referral_fee: payload?.refAddress ? 0n : null,
    exit_code: payTo ? payTo.body.exitCode : pool.ok ? null : pool.tx.compute.exit_code,
  });
  leg.exit_name = exitName(leg.exit_code, "v2", "no_pay_to");
  let offerWallet = inbound.routerWallet;
  let askWallet = raw(payload?.tokenWallet1);
  let payoutTx: DecodedTx | undefined;
  const txs: DecodedTx[] = [];
  if (payTo) {
    const p = payTo.body;
    const t0 = raw(p.token0);
    const t1 = raw(p.token1);
    offerWallet = sw.amount0 > 0n ? t0 : t1;
    askWallet = sw.amount0 > 0n ? t1 : t0;
    const out = p.amount0Out + p.amount1Out;
    const ok = p.exitCode === SWAP_OK;
    if (ok) leg.amount_out = out;
    if (ok) leg.receiver = raw(p.toAddress) ?? leg.receiver;
    leg.continues_as_cross_swap = ok && isCrossSwap(p);
    if (leg.continues_as_cross_swap) {
      const router = childTx(batch, payTo);
      payoutTx = router;
      if (router) txs.push(router);
      const hop = router?.outs.some((o) => o.body.kind === "stonfi.v2.swap") ?? false;
      leg.payout = {
        to: raw(p.toAddress),
        amount: out,
        router_wallet: askWallet,
        receiver_wallet: null,
        delivered: router ? router.ok && hop : null,
        tx_hash: router?.tx.hash ?? null,
      };
    } else {
      const wallet = side(p.amount0Out, t0, t1);
      const followed = followPayout(batch, { request: payTo, to: raw(p.toAddress), amount: out, wallet });
      leg.payout = followed.payout;
      payoutTx = followed.txs[0];
      txs.push(...followed.txs);
    }
    leg.success = successOf(pool.ok, ok, leg.payout);
  }
  if (payVault?.body.kind === "stonfi.v2.pay_vault") {
    leg.referral_fee = payVault.body.amount0Out + payVault.body.amount1Out;
    leg.referrer = raw(payVault.body.owner) ?? leg.referrer;
    // The referral fee and the payload's referral bps pin down the protocol fee.
    if (leg.amount_out !== null && payload !== null) {
      leg.protocol_fee = protocolFeeFromReferral({
        amountOut: leg.amount_out,
        referralFee: leg.referral_fee,
        referralBps: BigInt(payload.refFee),
      });
    }
  }
  leg.offer = assets.assetOf(offerWallet);
  leg.ask = assets.assetOf(askWallet);
  leg.tx_hashes = hashes(inbound.path, [pool], txs);
  const consumed = [pool.in?.raw.hash ?? "", payTo?.raw.hash ?? "", payVault?.raw.hash ?? ""];
  const referralMsgs = payVault ? [payVault.raw.hash] : [];
  return { leg, inbound, payoutTx, referralMsgs, referral: null, consumed };
}

/** Every swap leg of the batch, in lt order of the pool transactions. */
export function assembleSwapLegs(batch: DecodedBatch, assets: AssetResolver): AssembledLeg[] {
  const legs: AssembledLeg[] = [];
  for (const t of batch.txs) {
    const leg = v1Leg(batch, assets, t) ?? v2Leg(batch, assets, t);
    if (leg) legs.push(leg);
  }
  return legs;
}
