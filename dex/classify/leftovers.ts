/**
 * What the assembly stages could not explain becomes an `unknown` or `malformed` entry with a reason,
 * never an exception (DESIGN: "Undecodable messages are counted and kept as unknown rows"):
 * - malformed: a body or forward payload the codecs recognised by op but could not decode, or a bad BOC;
 * - unknown: a core STON.fi message (swap, pay_to, pay_vault, ...) that no operation accounts for; a
 *   bounced message to or from a STON.fi contract; a failed STON.fi transaction no operation covers.
 * Traffic that never touches STON.fi (other DEXes, wallets) yields nothing.
 */
import type { DecodedBatch, DecodedMessage } from "./decode.ts";
import type { Operation, UnknownOperation } from "./types.ts";

/** Messages every STON.fi operation is built from; one left over means an operation was missed. */
const CORE_KINDS = new Set([
  "stonfi.v1.swap",
  "stonfi.v1.pay_to",
  "stonfi.v1.provide_lp",
  "stonfi.v1.add_liquidity",
  "stonfi.v1.cb_add_liquidity",
  "stonfi.v1.burn_notification",
  "stonfi.v1.cb_refund_me",
  "stonfi.v2.swap",
  "stonfi.v2.pay_to",
  "stonfi.v2.pay_vault",
  "stonfi.v2.provide_lp",
  "stonfi.v2.add_liquidity",
  "stonfi.v2.cb_add_liquidity",
  "stonfi.v2.burn_notification_ext",
  "stonfi.v2.cb_refund_me",
  "stonfi.v2.vault.deposit_ref_fee",
  "stonfi.v2.vault.vault_pay_to",
]);

function opOf(m: DecodedMessage): number | null {
  return m.raw.opcode;
}

function entryFor(
  batch: DecodedBatch,
  m: DecodedMessage,
  type: UnknownOperation["type"],
  reason: string,
): UnknownOperation | null {
  const anchor = batch.consumer.get(m.raw.hash) ?? batch.producer.get(m.raw.hash);
  if (!anchor) return null;
  return {
    type,
    id: `${anchor.tx.hash}:${m.raw.hash}:${type}`,
    tx_hash: anchor.tx.hash,
    lt: anchor.lt,
    msg_hash: m.raw.hash,
    opcode: opOf(m),
    reason,
  };
}

function stonfiAccounts(ops: readonly Operation[]): Set<string> {
  const accounts = new Set<string>();
  for (const op of ops) {
    for (const key of ["router", "pool", "vault", "lp_account"] as const) {
      const v = (op as Partial<Record<typeof key, string | null>>)[key];
      if (typeof v === "string") accounts.add(v);
    }
  }
  return accounts;
}

export function leftovers(
  batch: DecodedBatch,
  ops: readonly Operation[],
  consumed: ReadonlySet<string>,
): UnknownOperation[] {
  const out: UnknownOperation[] = [];
  const push = (e: UnknownOperation | null) => {
    if (e) out.push(e);
  };
  const accounts = stonfiAccounts(ops);
  for (const m of batch.messages.values()) {
    const b = m.body;
    if (b.kind === "malformed" || b.kind === "boc_error") {
      push(entryFor(batch, m, "malformed", `${b.kind === "malformed" ? `${b.family}: ` : ""}${b.reason}`));
    } else if (m.payload?.kind === "malformed") {
      push(
        entryFor(
          batch,
          m,
          "malformed",
          `forward payload of ${b.kind}: ${m.payload.family}: ${m.payload.reason}`,
        ),
      );
    } else if (CORE_KINDS.has(b.kind) && !consumed.has(m.raw.hash)) {
      push(entryFor(batch, m, "unknown", `${b.kind} is not part of any recognised operation`));
    } else if (
      m.raw.bounced === true &&
      (accounts.has(m.raw.source ?? "") || accounts.has(m.raw.destination ?? ""))
    ) {
      push(
        entryFor(
          batch,
          m,
          "unknown",
          `bounced message ${b.kind} between STON.fi contracts and ${m.raw.destination}`,
        ),
      );
    }
  }
  const covered = new Set(ops.flatMap((op) => ("tx_hashes" in op ? op.tx_hashes : [op.tx_hash])));
  for (const t of batch.txs) {
    if (t.ok || !accounts.has(t.tx.account) || covered.has(t.tx.hash)) continue;
    out.push({
      type: "unknown",
      id: `${t.tx.hash}:failed`,
      tx_hash: t.tx.hash,
      lt: t.lt,
      msg_hash: t.tx.in_msg?.hash ?? null,
      opcode: t.tx.in_msg?.opcode ?? null,
      reason: `STON.fi transaction failed (compute exit ${t.tx.compute.exit_code ?? "skipped"}${t.tx.aborted ? ", aborted" : ""})`,
    });
  }
  return out;
}
