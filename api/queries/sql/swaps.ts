/**
 * `/v1/swap/status` over `swaps FINAL` (bloom index on sender): the swap a wallet sent through a router
 * with a query id. A v2 cross-swap route has one leg per hop under the same query id; its outcome is the
 * last leg that did not continue as a cross swap, so legs are ranked by that, then by lt (latest first).
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { RawAddress, SwapKey, SwapStatusRecord } from "../../read-model.ts";
import { assetAddress, big, nstr, str } from "./common.ts";

const assetKind = z.enum(["jetton", "ton"]);

const swapRow = z.object({
  sender: str,
  query_id: big,
  exit_name: str,
  success: z.boolean().nullable(),
  lt: big,
  tx_hash: str,
  amount_in: big,
  amount_out: big.nullable(),
  payout_amount: big.nullable(),
  offer_kind: assetKind,
  offer_master: nstr,
  offer_router_wallet: nstr,
  ask_kind: assetKind,
  ask_master: nstr,
  ask_router_wallet: nstr,
});

const FIND_SWAP_SQL = `SELECT sender, query_id, exit_name, success, lt, tx_hash,
  amount_in, amount_out, payout_amount, offer_kind, offer_master, offer_router_wallet,
  ask_kind, ask_master, ask_router_wallet
FROM swaps FINAL
WHERE router = {router:String} AND sender = {owner:String} AND query_id = {queryId:UInt64}
ORDER BY continues_as_cross_swap, lt DESC, id
LIMIT 1`;

/**
 * coins: what the wallet got back, the payout (output, or refunded offer) else the output.
 * balanceDeltas: the offer asset −amount_in (+ the refund when the swap failed), the ask asset +output
 * when it succeeded. Gas is not counted.
 */
function toStatus(r: z.infer<typeof swapRow>): SwapStatusRecord {
  const offer = assetAddress({
    kind: r.offer_kind,
    master: r.offer_master,
    routerWallet: r.offer_router_wallet,
  });
  const ask = assetAddress({ kind: r.ask_kind, master: r.ask_master, routerWallet: r.ask_router_wallet });
  const deltas = new Map<RawAddress, bigint>();
  const refunded = r.success === false ? (r.payout_amount ?? 0n) : 0n;
  if (offer !== null) deltas.set(offer, refunded - r.amount_in);
  if (ask !== null && r.success === true) deltas.set(ask, (deltas.get(ask) ?? 0n) + (r.amount_out ?? 0n));
  return {
    wallet: r.sender,
    queryId: r.query_id,
    exitCode: r.exit_name,
    coins: r.payout_amount ?? r.amount_out ?? 0n,
    lt: r.lt,
    txHash: r.tx_hash,
    balanceDeltas: deltas,
  };
}

export async function findSwapStatus(store: Store, key: SwapKey): Promise<SwapStatusRecord | null> {
  const params = { router: key.router, owner: key.owner, queryId: key.queryId };
  const [row] = await store.query(FIND_SWAP_SQL, swapRow, params);
  return row === undefined ? null : toStatus(row);
}
