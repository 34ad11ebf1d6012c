/**
 * Compares the stored facts with the devnet's ground truth: every truth record must have exactly one
 * fact row anchored on the same transaction, every truth field equal to its column, and every fact row
 * of a DEX operation must be accounted for by a truth record (no extra, no duplicate, none lost).
 * Reads go through the store's deduplicated `selectFacts` (FINAL), as the API's do.
 */

import type { Store } from "../../infra/store/client.ts";
import { selectFacts } from "../../infra/store/facts-reader.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { truthToLine } from "../../ingest/devnet/dump.ts";
import type { TruthLine } from "../../schemas/devnet-dump.ts";

type Row = Record<string, unknown>;

/** Which table holds each truth type, how to pick its rows, and truth field → column renames. */
const MAP: Record<
  TruthLine["type"],
  { table: string; where?: (r: Row) => boolean; rename: Record<string, string> }
> = {
  swap: { table: "swaps", rename: {} },
  referral_payment: { table: "referral_fees", where: (r) => r.kind === "direct", rename: {} },
  vault_deposit: { table: "referral_fees", where: (r) => r.kind === "vault_deposit", rename: {} },
  vault_withdrawal: { table: "vault_withdrawals", rename: {} },
  liquidity_provide: { table: "liquidity", where: (r) => r.kind === "provide", rename: { sender: "owner" } },
  liquidity_mint: { table: "liquidity", where: (r) => r.kind === "mint", rename: { user: "owner" } },
  liquidity_withdraw: {
    table: "liquidity",
    where: (r) => r.kind === "withdraw",
    rename: { kind: "withdraw_kind" },
  },
};

function column(field: string, rename: Record<string, string>): string {
  return rename[field] ?? field.replace(".", "_");
}

function comparable(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string" && /^-?\d+:[0-9a-fA-F]{64}$/.test(v)) return v.toUpperCase();
  return v;
}

export type FactsCheck = { checked: number; problems: string[]; rowsByTable: Record<string, number> };

export async function factsMatchTruth(store: Store, truth: readonly TruthRecord[]): Promise<FactsCheck> {
  const tables = ["swaps", "referral_fees", "vault_withdrawals", "liquidity"] as const;
  const rows = new Map<string, Row[]>();
  const rowsByTable: Record<string, number> = {};
  for (const t of tables) {
    const r = (await selectFacts(store, t, {})) as unknown as Row[];
    rows.set(t, r);
    rowsByTable[t] = r.length;
  }
  const problems: string[] = [];
  const used = new Set<Row>();
  for (const record of truth.map(truthToLine)) {
    const spec = MAP[record.type];
    const candidates = rows
      .get(spec.table)!
      .filter((r) => r.tx_hash === record.tx_hash && (spec.where?.(r) ?? true) && !used.has(r));
    if (candidates.length === 0) {
      problems.push(`${record.type} at ${record.tx_hash}: no ${spec.table} row`);
      continue;
    }
    const row = candidates[0]!;
    used.add(row);
    for (const [field, value] of Object.entries(record.fields)) {
      const col = column(field, spec.rename);
      if (!(col in row)) {
        problems.push(`${record.type}: truth field ${field} has no column ${col} in ${spec.table}`);
        continue;
      }
      if (comparable(row[col]) !== comparable(value)) {
        problems.push(
          `${record.type} at ${record.tx_hash}: ${col} = ${String(row[col])}, truth ${String(value)}`,
        );
      }
    }
  }
  for (const t of tables) {
    for (const r of rows.get(t)!) {
      if (!used.has(r)) problems.push(`${t} row ${String(r.id)} has no truth record`);
    }
  }
  return { checked: truth.length, problems, rowsByTable };
}
