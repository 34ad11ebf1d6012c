/**
 * The message graph of a batch of transactions: which transaction a message created, which transaction
 * consumed it. Edges are message hashes (a child's `in_msg.hash` equals one of its parent's `out_msgs[].hash`),
 * so the graph is exact whatever order the transactions arrive in. Pure, no I/O.
 */
import type { RawTransaction } from "../../schemas/raw-transaction.ts";

export type TxNode = {
  tx: RawTransaction;
  lt: bigint;
  /** Compute and action phases succeeded and the transaction was not aborted. */
  ok: boolean;
};

export type TxGraph = {
  /** Transactions in lt order (ties by account, then hash). */
  nodes: TxNode[];
  byHash: Map<string, TxNode>;
  /** message hash → the transaction that consumed it (its `in_msg`). */
  consumer: Map<string, TxNode>;
  /** message hash → the transaction that sent it (one of its `out_msgs`). */
  producer: Map<string, TxNode>;
};

function parseLt(lt: string): bigint {
  return /^\d+$/.test(lt) ? BigInt(lt) : -1n;
}

export function txSucceeded(tx: RawTransaction): boolean {
  return !tx.aborted && tx.compute.success && (tx.action?.success ?? true);
}

export function compareNodes(a: TxNode, b: TxNode): number {
  if (a.lt !== b.lt) return a.lt < b.lt ? -1 : 1;
  if (a.tx.account !== b.tx.account) return a.tx.account < b.tx.account ? -1 : 1;
  return a.tx.hash < b.tx.hash ? -1 : a.tx.hash > b.tx.hash ? 1 : 0;
}

export function buildGraph(txs: readonly RawTransaction[]): TxGraph {
  const byHash = new Map<string, TxNode>();
  for (const tx of txs) {
    if (!byHash.has(tx.hash)) byHash.set(tx.hash, { tx, lt: parseLt(tx.lt), ok: txSucceeded(tx) });
  }
  const nodes = [...byHash.values()].sort(compareNodes);
  const consumer = new Map<string, TxNode>();
  const producer = new Map<string, TxNode>();
  for (const node of nodes) {
    if (node.tx.in_msg) consumer.set(node.tx.in_msg.hash, node);
    for (const m of node.tx.out_msgs) producer.set(m.hash, node);
  }
  return { nodes, byHash, consumer, producer };
}

/**
 * Every transaction reachable from `start` through out-messages (`start` included), skipping the
 * subtrees rooted at the messages in `exclude`. Bounded, so a malformed cyclic batch cannot loop.
 */
export function descendants(
  graph: TxGraph,
  start: TxNode,
  exclude: ReadonlySet<string> = new Set(),
): TxNode[] {
  const seen = new Set<string>([start.tx.hash]);
  const out: TxNode[] = [start];
  for (let i = 0; i < out.length && out.length < 10_000; i++) {
    for (const m of out[i]!.tx.out_msgs) {
      if (exclude.has(m.hash)) continue;
      const child = graph.consumer.get(m.hash);
      if (child && !seen.has(child.tx.hash)) {
        seen.add(child.tx.hash);
        out.push(child);
      }
    }
  }
  return out;
}
