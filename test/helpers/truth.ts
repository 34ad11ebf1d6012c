/**
 * Comparing the devnet's ground truth (ingest/devnet/chain/truth.ts, recorded by the contracts themselves)
 * with what the trace classifier (dex/classify) makes of the same transactions, plus the codec check every
 * devnet trace must pass. Reusable by any devnet contract test:
 *
 *   const { txs, truth } = runTrace(chain, () => chain.sendExternal(...));
 *   t.deepEqual(undecodedMessages(txs), []);
 *   t.deepEqual(truthMismatches(classify(txs), truth), []);
 *
 * Truth field names are the classifier's (schemas/operations.ts), nested asset fields as dotted keys
 * (`"offer.router_wallet"`). Values are compared in the classifier's JSON conventions: an `Address` as its raw
 * `wc:HEX` string (uppercase hex), a bigint as its decimal string, null as null, numbers and strings as is.
 */
import { Address } from "@ton/core";
import { decodeMessage } from "../../dex/classify/decode.ts";
import type { Operation } from "../../dex/classify/types.ts";
import type { Chain } from "../../ingest/devnet/chain/chain.ts";
import type { TruthRecord, TruthType } from "../../ingest/devnet/chain/truth.ts";
import type { RawMessage, RawTransaction } from "../../schemas/raw-transaction.ts";
import { toRawAddress } from "../../schemas/ton.ts";

const RAW_ADDRESS = /^-?\d{1,3}:[0-9a-fA-F]{64}$/;

/** The comparable form of a truth value or an operation field. */
export function comparable(value: unknown): unknown {
  if (Address.isAddress(value)) return toRawAddress(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string" && RAW_ADDRESS.test(value)) return value.toUpperCase();
  return value;
}

/** Reads a dotted key (`"offer.router_wallet"`) from an operation; `found` is false for a missing path. */
export function fieldOf(op: Operation, key: string): { found: boolean; value: unknown } {
  let node: unknown = op;
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object" || !(part in node))
      return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[part];
  }
  return { found: true, value: node };
}

const show = (v: unknown): string => (v === undefined ? "undefined" : JSON.stringify(v));

function fieldDiffs(op: Operation, record: TruthRecord): string[] {
  const diffs: string[] = [];
  for (const [key, expected] of Object.entries(record.fields)) {
    const { found, value } = fieldOf(op, key);
    const want = comparable(expected);
    const got = comparable(value);
    if (!found) diffs.push(`${key}: missing in the operation (truth ${show(want)})`);
    else if (got !== want) diffs.push(`${key}: classified ${show(got)}, truth ${show(want)}`);
  }
  return diffs;
}

const label = (r: { type: string; tx_hash: string }) => `${r.type} @ ${r.tx_hash.slice(0, 12)}`;

export type TruthOptions = {
  /** Also report classified operations of a truth type that no truth record accounts for. Default true. */
  exhaustive?: boolean;
};

const TRUTH_TYPES: ReadonlySet<string> = new Set<TruthType>([
  "swap",
  "referral_payment",
  "vault_deposit",
  "vault_withdrawal",
  "liquidity_provide",
  "liquidity_mint",
  "liquidity_withdraw",
]);

/**
 * Every truth record must have an operation with the same anchor transaction and type whose fields all
 * equal the record's; returns one line per problem (empty = they agree).
 */
export function truthMismatches(
  ops: readonly Operation[],
  truth: readonly TruthRecord[],
  options: TruthOptions = {},
): string[] {
  const problems: string[] = [];
  const used = new Set<Operation>();
  for (const record of truth) {
    const candidates = ops.filter(
      (o) => o.type === record.type && o.tx_hash === record.tx_hash && !used.has(o),
    );
    if (candidates.length === 0) {
      problems.push(`${label(record)}: no classified operation`);
      continue;
    }
    const scored = candidates.map((op) => ({ op, diffs: fieldDiffs(op, record) }));
    const best = scored.find((s) => s.diffs.length === 0) ?? scored[0]!;
    used.add(best.op);
    problems.push(...best.diffs.map((d) => `${label(record)}: ${d}`));
  }
  if (options.exhaustive ?? true) {
    for (const op of ops) {
      if (TRUTH_TYPES.has(op.type) && !used.has(op))
        problems.push(`${label(op)}: classified but not in the truth`);
    }
  }
  return problems;
}

export type Trace = { txs: RawTransaction[]; truth: TruthRecord[] };

/** Runs `start` (e.g. a `chain.sendExternal`) and produces blocks until no message is left in flight. */
export function runTrace(chain: Chain, start: () => void, maxBlocks = 100): Trace {
  start();
  const trace: Trace = { txs: [], truth: [] };
  for (let i = 0; chain.pending > 0; i++) {
    if (i >= maxBlocks) throw new Error(`trace still running after ${maxBlocks} blocks`);
    const block = chain.produceBlock();
    trace.txs.push(...block.transactions);
    trace.truth.push(...block.truth);
  }
  return trace;
}

/** Internal messages whose body is not empty and not a bounce: what a contract deliberately sent. */
function sentMessages(txs: readonly RawTransaction[]): RawMessage[] {
  const seen = new Map<string, RawMessage>();
  for (const tx of txs) {
    for (const m of [tx.in_msg, ...tx.out_msgs]) {
      if (m && m.source !== null && m.bounced !== true && m.opcode !== null) seen.set(m.hash, m);
    }
  }
  return [...seen.values()];
}

/**
 * Internal messages (bounces and empty bodies aside) whose body or forward payload the codecs do not
 * decode (`unknown` / `malformed`), as readable lines; empty when every message is understood.
 */
export function undecodedMessages(txs: readonly RawTransaction[]): string[] {
  const problems: string[] = [];
  for (const m of sentMessages(txs)) {
    const d = decodeMessage(m);
    const where = `${m.source?.slice(0, 10)} → ${m.destination?.slice(0, 10)} op ${m.opcode}`;
    if (d.body.kind === "unknown" || d.body.kind === "malformed" || d.body.kind === "boc_error") {
      problems.push(`${where}: body ${d.body.kind}: ${"reason" in d.body ? d.body.reason : ""}`);
    }
    if (d.payload && (d.payload.kind === "unknown" || d.payload.kind === "malformed")) {
      problems.push(`${where}: forward payload ${d.payload.kind}: ${d.payload.reason}`);
    }
  }
  return problems;
}
