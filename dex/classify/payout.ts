/**
 * Following a payout request (`pay_to`, `vault_pay_to`) through the router to the receiver:
 * router tx → `transfer` to the router's wallet for the asset → that wallet's tx → `internal_transfer`
 * (jettons), pTON v1 `transfer_notification` or pTON v2 `ton_transfer` (TON). "Delivered" means every one
 * of those transactions succeeded and the transfer came from the expected wallet with the expected amount.
 */
import type { DecodedBatch, DecodedMessage, DecodedTx } from "./decode.ts";
import { childTx } from "./decode.ts";
import type { Payout } from "./types.ts";
import { raw } from "./util.ts";

export type PayoutRequest = {
  /** The pay_to (or vault_pay_to) message. */
  request: DecodedMessage;
  to: string | null;
  amount: bigint;
  /** Router wallet that must send the jettons / TON. */
  wallet: string | null;
};

const DELIVERY_KINDS = new Set([
  "jetton.internal_transfer",
  "jetton.transfer_notification",
  "pton.v2.ton_transfer",
]);

function findTransfer(router: DecodedTx, wallet: string | null, amount: bigint): DecodedMessage | undefined {
  const transfers = router.outs.filter((o) => o.body.kind === "jetton.transfer");
  return transfers.find(
    (o) => o.body.kind === "jetton.transfer" && o.body.amount === amount && o.raw.destination === wallet,
  );
}

/** The router tx that executed the request, the transfer it sent and where it ended up. */
export function followPayout(batch: DecodedBatch, req: PayoutRequest): { payout: Payout; txs: DecodedTx[] } {
  const payout: Payout = {
    to: req.to,
    amount: req.amount,
    router_wallet: req.wallet,
    receiver_wallet: null,
    delivered: null,
    tx_hash: null,
  };
  const txs: DecodedTx[] = [];
  const router = childTx(batch, req.request);
  if (!router) return { payout, txs };
  txs.push(router);
  payout.tx_hash = router.tx.hash;
  if (!router.ok) return { payout: { ...payout, delivered: false }, txs };
  const transfer = findTransfer(router, req.wallet, req.amount);
  if (transfer?.body.kind !== "jetton.transfer") return { payout: { ...payout, delivered: false }, txs };
  payout.to = raw(transfer.body.destination) ?? payout.to;
  const wallet = childTx(batch, transfer);
  if (!wallet) return { payout, txs };
  txs.push(wallet);
  if (!wallet.ok) return { payout: { ...payout, delivered: false }, txs };
  const delivery = wallet.outs.find((o) => DELIVERY_KINDS.has(o.body.kind));
  if (!delivery) return { payout: { ...payout, delivered: false }, txs };
  if (delivery.body.kind === "jetton.internal_transfer") payout.receiver_wallet = delivery.raw.destination;
  const receiver = childTx(batch, delivery);
  if (receiver) txs.push(receiver);
  // A jetton wallet that fails to credit bounces the internal_transfer: then nothing was delivered. TON
  // arrives with the message itself unless a bounceable message bounced (its receiver failed).
  const isJetton = delivery.body.kind === "jetton.internal_transfer";
  const delivered = isJetton
    ? (receiver?.ok ?? null)
    : receiver === undefined || receiver.ok || delivery.raw.bounce !== true;
  return { payout: { ...payout, delivered }, txs };
}
