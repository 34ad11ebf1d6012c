/**
 * Swaps the router refused before any pool saw them (contracts.md §2.4, §3.5): the router's transaction
 * got a `transfer_notification` with a swap payload but sent no `swap` to a pool. It either sent the
 * jettons back (a `transfer` to the offering wallet whose forward payload is an exit code such as
 * `transfer_bounce_low_gas`) or failed outright (e.g. amount 0), in which case nothing is returned.
 */
import { describeExitCode } from "../exit-codes.ts";
import type { AssetResolver } from "./assets.ts";
import type { DecodedBatch, DecodedTx } from "./decode.ts";
import { inboundOf } from "./inbound.ts";
import { followPayout } from "./payout.ts";
import type { AssembledLeg } from "./swaps.ts";
import type { Dex } from "./types.ts";
import { raw } from "./util.ts";

const SWAP_PAYLOADS = new Set([
  "stonfi.v1.swap_payload",
  "stonfi.v2.swap_payload",
  "stonfi.v2.cross_swap_payload",
]);

function rejected(batch: DecodedBatch, assets: AssetResolver, router: DecodedTx): AssembledLeg | null {
  const note = router.in;
  if (
    note?.body.kind !== "jetton.transfer_notification" ||
    !note.payload ||
    !SWAP_PAYLOADS.has(note.payload.kind)
  ) {
    return null;
  }
  if (router.outs.some((o) => o.body.kind === "stonfi.v1.swap" || o.body.kind === "stonfi.v2.swap"))
    return null;
  const dex: Dex = note.payload.kind === "stonfi.v1.swap_payload" ? "v1" : "v2";
  const offerWallet = note.raw.source;
  const refund = router.outs.find(
    (o) => o.body.kind === "jetton.transfer" && o.raw.destination === offerWallet,
  );
  const refundPayload = refund?.payload;
  const exitCode =
    refundPayload?.kind === "stonfi.v1.exit_code_payload" ||
    refundPayload?.kind === "stonfi.v2.exit_code_payload"
      ? refundPayload.exitCode
      : router.ok
        ? null
        : router.tx.compute.exit_code;
  const payload = note.payload;
  const askWallet =
    payload.kind === "stonfi.v1.swap_payload" ||
    payload.kind === "stonfi.v2.swap_payload" ||
    payload.kind === "stonfi.v2.cross_swap_payload"
      ? raw(payload.tokenWallet1)
      : null;
  const inbound = inboundOf(batch, router);
  const followed =
    refund?.body.kind === "jetton.transfer"
      ? followPayout(batch, {
          request: note,
          to: raw(refund.body.destination),
          amount: refund.body.amount,
          wallet: offerWallet,
        })
      : null;
  const leg: AssembledLeg["leg"] = {
    type: "swap",
    id: `${router.tx.hash}:swap_rejected`,
    tx_hash: router.tx.hash,
    lt: router.lt,
    now: router.tx.now,
    tx_hashes: [...new Set([...inbound.path, ...(followed?.txs ?? [])].map((t) => t.tx.hash))],
    dex,
    router: router.tx.account,
    pool: null,
    query_id: note.body.queryId,
    sender: raw(note.body.sender),
    sender_wallet: inbound.senderWallet,
    receiver: null,
    offer: assets.assetOf(offerWallet),
    ask: assets.assetOf(askWallet),
    amount_in: note.body.amount,
    amount_out: null,
    min_out:
      payload.kind === "stonfi.v1.swap_payload" || payload.kind === "stonfi.v2.swap_payload"
        ? payload.minOut
        : null,
    protocol_fee: null,
    referral_fee: null,
    referrer: null,
    exit_code: exitCode,
    exit_name: exitCode === null ? "not_routed" : describeExitCode(exitCode, dex).name,
    success: false,
    payout: followed?.payout ?? null,
    continues_as_cross_swap: false,
    route: null,
  };
  return { leg, inbound, payoutTx: undefined, referralMsgs: [], referral: null, consumed: [] };
}

export function assembleRejectedSwaps(batch: DecodedBatch, assets: AssetResolver): AssembledLeg[] {
  return batch.txs.flatMap((t) => rejected(batch, assets, t) ?? []);
}
