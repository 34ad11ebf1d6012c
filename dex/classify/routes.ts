/**
 * Multi-hop grouping. A leg follows another when its router transaction descends from the router
 * transaction that executed the other's payout (contracts.md §3.6, §6): directly for a v2 cross_swap on one
 * router (the pay_to tx sends the next `swap`); through the payout transfer and the next router's wallet
 * for a chain across routers (jettons: router wallet → next router's wallet → next router); and one step
 * further through pTON (router 1's pTON wallet → router 2's pTON wallet → router 2, whose notification
 * names router 1's pTON wallet as sender: INDEX.md of the mainnet traces). Whatever the payout's chain,
 * the nearest such ancestor is the previous hop. Also computes the transaction set of every top-level
 * swap: the origin transaction and everything its entry message caused, minus referral branches (those
 * are separate operations).
 */
import { childTx, type DecodedBatch, parentTx } from "./decode.ts";
import { descendants } from "./graph.ts";
import type { AssembledLeg } from "./swaps.ts";
import type { SwapRoute } from "./types.ts";

/**
 * How far above a hop's router transaction its previous hop's payout may be: a cross_swap is 0 steps, a
 * jetton hop 3 (router wallet, next router's wallet, next router), a pTON hop 3; the bound leaves room
 * for a contract between the routers and keeps a malformed batch from walking far.
 */
export const MAX_HOP_DISTANCE = 16;

/** A hop as the linking sees it: its router transaction and the router transaction that paid its output. */
export type HopTxs = { routerTx: string | null; payoutTx: string | null };

/**
 * Pure: the next hop of each hop (by index), given each transaction's parent (the sender of its inbound
 * message, when known). A hop follows the hop whose payout transaction is the nearest ancestor (or the
 * router transaction itself, for a cross_swap) of its router transaction, within `maxDistance` steps;
 * each hop has at most one next hop (the first one found, in input order).
 */
export function linkHops(
  hops: readonly HopTxs[],
  parentOf: (txHash: string) => string | undefined,
  maxDistance = MAX_HOP_DISTANCE,
): Map<number, number> {
  const byPayoutTx = new Map<string, number>();
  hops.forEach((h, i) => {
    if (h.payoutTx !== null && !byPayoutTx.has(h.payoutTx)) byPayoutTx.set(h.payoutTx, i);
  });
  const next = new Map<number, number>();
  hops.forEach((h, i) => {
    const seen = new Set<string>();
    let t: string | undefined = h.routerTx ?? undefined;
    for (let step = 0; t !== undefined && step <= maxDistance && !seen.has(t); step++) {
      seen.add(t);
      const prev = byPayoutTx.get(t);
      if (prev !== undefined && prev !== i) {
        if (!next.has(prev)) next.set(prev, i);
        return;
      }
      t = parentOf(t);
    }
  });
  return next;
}

function linkLegs(batch: DecodedBatch, legs: AssembledLeg[]): Map<AssembledLeg, AssembledLeg> {
  const hops = legs.map((l) => ({
    routerTx: (l.inbound.router ?? l.inbound.path.at(-1))?.tx.hash ?? null,
    payoutTx: l.payoutTx?.tx.hash ?? null,
  }));
  const parentOf = (hash: string) => {
    const t = batch.byTx.get(hash);
    return t ? parentTx(batch, t)?.tx.hash : undefined;
  };
  const next = new Map<AssembledLeg, AssembledLeg>();
  for (const [a, b] of linkHops(hops, parentOf)) next.set(legs[a]!, legs[b]!);
  return next;
}

function closure(batch: DecodedBatch, legs: AssembledLeg[]): string[] | null {
  const entry = legs[0]?.inbound.entry;
  if (!entry) return null;
  const start = childTx(batch, entry);
  if (!start) return null;
  const exclude = new Set(legs.flatMap((l) => l.referralMsgs));
  const origin = batch.producer.get(entry.raw.hash);
  const txs = descendants(batch, start, exclude).map((n) => n.tx.hash);
  return origin ? [origin.tx.hash, ...txs] : txs;
}

function statusOf(legs: AssembledLeg[]): SwapRoute["status"] {
  const results = legs.map((l) => l.leg.success);
  if (results.every((r) => r === true)) return "success";
  const firstFalse = results.indexOf(false);
  const firstNull = results.indexOf(null);
  if (firstNull !== -1 && (firstFalse === -1 || firstNull < firstFalse)) return "unknown";
  return firstFalse === 0 ? "failed" : "partial";
}

function routeOf(batch: DecodedBatch, chain: AssembledLeg[]): SwapRoute {
  const first = chain[0]!.leg;
  const last = chain[chain.length - 1]!.leg;
  const status = statusOf(chain);
  return {
    type: "swap_route",
    id: `${first.tx_hash}:route`,
    tx_hash: first.tx_hash,
    lt: first.lt,
    now: first.now,
    tx_hashes: closure(batch, chain) ?? [...new Set(chain.flatMap((l) => l.leg.tx_hashes))],
    dex: first.dex,
    legs: chain.map((l) => l.leg.id),
    sender: first.sender,
    receiver: last.payout?.to ?? last.receiver,
    offer: first.offer,
    ask: last.ask,
    amount_in: first.amount_in,
    amount_out: status === "success" ? last.amount_out : null,
    status,
    success: status === "success" ? true : status === "unknown" ? null : false,
  };
}

/**
 * Groups chained legs into routes (two or more legs). Standalone legs get the top-level transaction set;
 * legs inside a route keep their own path.
 */
export function assembleRoutes(batch: DecodedBatch, legs: AssembledLeg[]): SwapRoute[] {
  const next = linkLegs(batch, legs);
  const hasPrev = new Set(next.values());
  const routes: SwapRoute[] = [];
  for (const head of legs) {
    if (hasPrev.has(head)) continue;
    const chain = [head];
    const seen = new Set(chain);
    for (let n = next.get(head); n && !seen.has(n); n = next.get(n)) {
      chain.push(n);
      seen.add(n);
    }
    if (chain.length > 1) {
      const route = routeOf(batch, chain);
      routes.push(route);
      for (const l of chain) l.leg.route = { id: route.id, sender: route.sender, receiver: route.receiver };
    } else {
      head.leg.tx_hashes = closure(batch, chain) ?? head.leg.tx_hashes;
    }
  }
  return routes;
}
