/**
 * `/v1/swap/status` over `swaps FINAL` (bloom index on sender): the swap a wallet sent through a router
 * with a query id. A v2 cross-swap route has one leg per hop under the same query id; its outcome is the
 * last leg that did not continue as a cross swap, so legs are ranked by that, then by lt (latest first).
 * What the wallet gave is the offer of the route's first leg: going back in lt from the outcome, the
 * legs that continued as cross swaps (a reused query id's earlier swaps end with a leg that did not).
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
  continues_as_cross_swap: z.boolean(),
});

const FIND_SWAP_SQL = `SELECT sender, query_id, exit_name, success, lt, tx_hash,
  amount_in, amount_out, payout_amount, offer_kind, offer_master, offer_router_wallet,
  ask_kind, ask_master, ask_router_wallet, continues_as_cross_swap
FROM swaps FINAL
WHERE router = {router:String} AND sender = {owner:String} AND query_id = {queryId:UInt64}
ORDER BY continues_as_cross_swap, lt DESC, id
LIMIT 64`;

type SwapLegRow = z.infer<typeof swapRow>;

/**
 * `r` is the outcome leg, `first` the route's first leg (the same row for a one-hop swap).
 * coins: what the wallet got back, the payout (output, or refunded offer) else the output.
 * balanceDeltas: the first leg's offer asset −amount_in; the outcome leg's offer asset + the refund when
 * it failed; its ask asset +output when it succeeded. Gas is not counted.
 */
function toStatus(r: SwapLegRow, first: SwapLegRow): SwapStatusRecord {
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
  const rows = await store.query(FIND_SWAP_SQL, swapRow, params);
  const [row] = rows;
  if (row === undefined) return null;
  let first = row;
  for (const leg of rows.filter((x) => x.lt < row.lt).sort((a, b) => (a.lt > b.lt ? -1 : 1))) {
    if (!leg.continues_as_cross_swap) break;
    first = leg;
  }
  return toStatus(row, first);
}
