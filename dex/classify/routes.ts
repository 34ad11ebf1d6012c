/**
 * Multi-hop grouping. A leg follows another when its inbound path passes through the router transaction
 * that executed the other's payout: directly for a v2 cross_swap on one router (the pay_to tx sends the
 * next `swap`), or through the payout transfer and the next router's wallet for chains across routers
 * (contracts.md §6). Also computes the transaction set of every top-level swap: the origin transaction and
 * everything its entry message caused, minus referral branches (those are separate operations).
 */
import { childTx, type DecodedBatch } from "./decode.ts";
import { descendants } from "./graph.ts";
import type { AssembledLeg } from "./swaps.ts";
import type { SwapRoute } from "./types.ts";

function linkLegs(legs: AssembledLeg[]): Map<AssembledLeg, AssembledLeg> {
  const byPayoutTx = new Map<string, AssembledLeg>();
  for (const l of legs) if (l.payoutTx) byPayoutTx.set(l.payoutTx.tx.hash, l);
  const next = new Map<AssembledLeg, AssembledLeg>();
  for (const l of legs) {
    for (const t of [...l.inbound.path].reverse()) {
      const prev = byPayoutTx.get(t.tx.hash);
      if (prev && prev !== l && !next.has(prev)) {
        next.set(prev, l);
        break;
      }
    }
  }
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
  const next = linkLegs(legs);
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
      routes.push(routeOf(batch, chain));
    } else {
      head.leg.tx_hashes = closure(batch, chain) ?? head.leg.tx_hashes;
    }
  }
  return routes;
}
