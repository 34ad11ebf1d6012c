/**
 * The inbound side of a router operation, walked upwards from the router transaction:
 * router (transfer_notification) ← router's wallet (internal_transfer, or pTON transfer / ton_transfer)
 * ← sender's jetton wallet (transfer) ← origin (the sender's own transaction).
 */
import type { DecodedBatch, DecodedMessage, DecodedTx } from "./decode.ts";
import { parentTx } from "./decode.ts";

export type Inbound = {
  /** The router transaction that received the offer (notification) or executed a cross_swap pay_to. */
  router: DecodedTx | undefined;
  /** The router's wallet that holds the offered amount (sender of the notification). */
  routerWallet: string | null;
  /** The sender's jetton wallet; null for TON through pTON or when not seen. */
  senderWallet: string | null;
  /** Transactions from the origin down to the router, top first. */
  path: DecodedTx[];
  /** The first message of the operation (the user's transfer / ton_transfer), when seen. */
  entry: DecodedMessage | null;
  /** The router tx got a pay_to (v2 cross_swap hop), not a notification. */
  viaPayTo: boolean;
};

export function inboundOf(batch: DecodedBatch, router: DecodedTx | undefined): Inbound {
  const result: Inbound = {
    router,
    routerWallet: null,
    senderWallet: null,
    path: router ? [router] : [],
    entry: null,
    viaPayTo: false,
  };
  const notification = router?.in;
  if (!router || !notification) return result;
  if (notification.body.kind !== "jetton.transfer_notification") {
    result.viaPayTo = notification.body.kind === "stonfi.v2.pay_to";
    return result;
  }
  result.routerWallet = notification.raw.source;
  const walletTx = parentTx(batch, router);
  if (!walletTx?.in) return result;
  result.path.unshift(walletTx);
  const walletIn = walletTx.in;
  if (walletIn.body.kind === "jetton.internal_transfer") {
    result.senderWallet = walletIn.raw.source;
    const senderWalletTx = parentTx(batch, walletTx);
    if (!senderWalletTx?.in) return result;
    result.path.unshift(senderWalletTx);
    result.entry = senderWalletTx.in;
    const origin = parentTx(batch, senderWalletTx);
    if (origin) result.path.unshift(origin);
    return result;
  }
  // pTON: the sender talks to the router's pTON wallet directly.
  result.entry = walletIn;
  const origin = parentTx(batch, walletTx);
  if (origin) result.path.unshift(origin);
  return result;
}
