/**
 * `/v1/swap/status` over `swaps FINAL` (bloom indexes on sender and route_sender): the swap a wallet sent
 * through a router with a query id. Every hop of a route carries the route's id and its user (classifier
 * `route`), and the hops keep the user's query id: a route the wallet started is found through any router
 * it passed (across routers a later hop's sender is the previous router, not the wallet), and its outcome
 * is its last hop, what the wallet gave its first hop's offer. Legs without a route (one-hop swaps, rows
 * written before routes were stored): a v2 cross-swap has one leg per hop under the same query id and
 * router; its outcome is the last leg that did not continue as a cross swap, so legs are ranked by that,
 * then by lt (latest first), and what the wallet gave is the offer of its first leg: going back in lt from
 * the outcome, the legs that continued as cross swaps (a reused query id's earlier swaps end with a leg
 * that did not).
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { RawAddress, SwapKey, SwapStatusRecord } from "../../read-model.ts";
import { assetAddress, big, nstr, str } from "./common.ts";

const assetKind = z.enum(["jetton", "ton"]);

const swapRow = z.object({
  sender: nstr,
  router: nstr,
  route_id: nstr,
  route_sender: nstr,
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
  continues_as_cross_swap: z.boolean(),
});

const FIND_SWAP_SQL = `SELECT sender, router, route_id, route_sender, query_id, exit_name, success, lt, tx_hash,
  amount_in, amount_out, payout_amount, offer_kind, offer_master, offer_router_wallet,
  ask_kind, ask_master, ask_router_wallet, continues_as_cross_swap
FROM swaps FINAL
WHERE (sender = {owner:String} OR route_sender = {owner:String})
  AND coalesce(route_sender, sender) = {owner:String} AND query_id = {queryId:UInt64}
ORDER BY continues_as_cross_swap, lt DESC, id
LIMIT 64`;

export type SwapLegRow = z.infer<typeof swapRow>;

/**
 * `r` is the outcome leg, `first` the route's first leg (the same row for a one-hop swap).
 * coins: what the wallet got back, the payout (output, or refunded offer) else the output.
 * balanceDeltas: the first leg's offer asset −amount_in; the outcome leg's offer asset + the refund when
 * it failed; its ask asset +output when it succeeded. Gas is not counted.
 */
function toStatus(owner: RawAddress, r: SwapLegRow, first: SwapLegRow): SwapStatusRecord {
  const offerOf = (x: SwapLegRow) =>
    assetAddress({ kind: x.offer_kind, master: x.offer_master, routerWallet: x.offer_router_wallet });
  const ask = assetAddress({ kind: r.ask_kind, master: r.ask_master, routerWallet: r.ask_router_wallet });
  const deltas = new Map<RawAddress, bigint>();
  const add = (asset: RawAddress | null, v: bigint) => {
    if (asset !== null) deltas.set(asset, (deltas.get(asset) ?? 0n) + v);
  };
  add(offerOf(first), -first.amount_in);
  if (r.success === false) add(offerOf(r), r.payout_amount ?? 0n);
  if (r.success === true) add(ask, r.amount_out ?? 0n);
  return {
    wallet: owner,
    queryId: r.query_id,
    exitCode: r.exit_name,
    coins: r.payout_amount ?? r.amount_out ?? 0n,
    lt: r.lt,
    txHash: r.tx_hash,
    balanceDeltas: deltas,
  };
}

const byLt = (a: SwapLegRow, b: SwapLegRow) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0);

/**
 * Pure: the outcome and the first leg of the swap through `router` among `rows` (the owner's legs under
 * one query id, ranked as FIND_SWAP_SQL ranks them), or null: the best-ranked leg on the router; when it
 * is a hop of a route, the route's last and first hops (see the header).
 */
export function pickSwapOutcome(
  rows: readonly SwapLegRow[],
  router: RawAddress,
): { outcome: SwapLegRow; first: SwapLegRow } | null {
  const row = rows.find((x) => x.router === router);
  if (row === undefined) return null;
  if (row.route_id !== null) {
    const hops = rows.filter((x) => x.route_id === row.route_id).sort(byLt);
    return { outcome: hops.at(-1)!, first: hops[0]! };
  }
  let first = row;
  const earlier = rows.filter((x) => x.router === router && x.route_id === null && x.lt < row.lt);
  for (const leg of earlier.sort(byLt).reverse()) {
    if (!leg.continues_as_cross_swap) break;
    first = leg;
  }
  return { outcome: row, first };
}

export async function findSwapStatus(store: Store, key: SwapKey): Promise<SwapStatusRecord | null> {
  const rows = await store.query(FIND_SWAP_SQL, swapRow, { owner: key.owner, queryId: key.queryId });
  const picked = pickSwapOutcome(rows, key.router);
  return picked === null ? null : toStatus(key.owner, picked.outcome, picked.first);
}
