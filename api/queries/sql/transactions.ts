/**
 * Stored transactions: rebuilt as RawTransaction records from `transactions` + `messages` (the exact
 * inverse of processors/core/transaction-rows.ts), wallet transaction lists and the transaction lookup.
 *
 * Both tables hold immutable chain data (a re-delivered copy is byte-identical), so reads deduplicate with
 * `LIMIT 1 BY <sorting key>` rather than FINAL. Lookups by hash use the bloom indexes on
 * `transactions.hash`, `transactions.in_msg_hash` and `messages.tx_hash`; by wallet, the sorting key
 * `(account, lt, hash)`; by message hash, the sorting key of `messages`.
 */
import { Cell } from "@ton/core";
import { z } from "zod";
import { acceptedWalletExternal } from "../../../dex/wallet-seqno.ts";
import type { Store } from "../../../infra/store/client.ts";
import { type MessageRow, messages, type TransactionRow, transactions } from "../../../schemas/facts.ts";
import { RAW_TX_VERSION, type RawMessage, type RawTransaction } from "../../../schemas/raw-transaction.ts";
import type { RawAddress, TxLookup, TxLookupResult, TxRef, WalletTransactions } from "../../read-model.ts";
import { big, seconds, str } from "./common.ts";

const TX_COLUMNS = Object.keys(transactions.columns).join(", ");
const MSG_COLUMNS = Object.keys(messages.columns).join(", ");
const TX_DEDUP = "ORDER BY lt, hash LIMIT 1 BY hash";
const MSG_DEDUP = "ORDER BY tx_lt, tx_hash, direction, msg_index LIMIT 1 BY msg_hash, direction, tx_hash";

const TXS_BY_HASH = `SELECT ${TX_COLUMNS} FROM transactions WHERE hash IN {hashes:Array(String)} ${TX_DEDUP}`;
const MSGS_BY_TX = `SELECT ${MSG_COLUMNS} FROM messages WHERE tx_hash IN {hashes:Array(String)} ${MSG_DEDUP}`;
const TXS_BY_IN_MSG = `SELECT ${TX_COLUMNS} FROM transactions WHERE in_msg_hash IN {msgs:Array(String)} ${TX_DEDUP}`;
const MSGS_BY_IN_MSG = `SELECT ${MSG_COLUMNS} FROM messages
WHERE tx_hash IN (SELECT hash FROM transactions WHERE in_msg_hash IN {msgs:Array(String)})
${MSG_DEDUP}`;

const dec = (v: bigint | null): string | null => (v === null ? null : v.toString());

function rawMessage(m: MessageRow): RawMessage {
  return {
    hash: m.msg_hash,
    source: m.source,
    destination: m.destination,
    value: dec(m.value),
    fwd_fee: dec(m.fwd_fee),
    bounce: m.bounce,
    bounced: m.bounced,
    created_lt: dec(m.created_lt),
    created_at: m.created_at,
    opcode: m.opcode,
    body_boc: m.body_boc,
    ...(m.init_boc === null ? {} : { init_boc: m.init_boc }),
  };
}

/**
 * The RawTransaction of a `transactions` row and its `messages` rows (any order), or null when a message
 * is missing: `writeBatch` inserts `transactions` before `messages`, so a reader can briefly see a
 * transaction whose messages are not visible yet; it is "not stored yet" rather than an error.
 */
export function rawTransactionFromRows(
  tx: TransactionRow,
  rows: readonly MessageRow[],
): RawTransaction | null {
  const own = rows.filter((m) => m.tx_hash === tx.hash);
  const inbound = own.find((m) => m.direction === "in");
  const outs = new Map(own.filter((m) => m.direction === "out").map((m) => [m.msg_index, m]));
  const outMsgs = tx.out_msg_hashes.map((hash, i) => {
    const m = outs.get(i);
    return m?.msg_hash === hash ? rawMessage(m) : null;
  });
  if (outMsgs.some((m) => m === null)) return null;
  if (tx.in_msg_hash !== null && inbound?.msg_hash !== tx.in_msg_hash) return null;
  return {
    version: RAW_TX_VERSION,
    mc_seqno: tx.mc_seqno,
    shard: tx.shard,
    block_seqno: tx.block_seqno,
    hash: tx.hash,
    lt: tx.lt.toString(),
    now: tx.utime,
    account: tx.account,
    aborted: tx.aborted,
    compute: { success: tx.compute_success, exit_code: tx.compute_exit_code },
    action:
      tx.action_success === null
        ? null
        : { success: tx.action_success, result_code: tx.action_result_code ?? 0 },
    in_msg: inbound === undefined || tx.in_msg_hash === null ? null : rawMessage(inbound),
    out_msgs: outMsgs as RawMessage[],
    ...(tx.orig_status === null ? {} : { orig_status: tx.orig_status }),
    ...(tx.end_status === null ? {} : { end_status: tx.end_status }),
    ...(tx.prev_trans_hash === null ? {} : { prev_trans_hash: tx.prev_trans_hash }),
    ...(tx.prev_trans_lt === null ? {} : { prev_trans_lt: tx.prev_trans_lt.toString() }),
  };
}

function assemble(txs: readonly TransactionRow[], msgs: readonly MessageRow[]): RawTransaction[] {
  const byTx = new Map<string, MessageRow[]>();
  for (const m of msgs) {
    const list = byTx.get(m.tx_hash);
    if (list === undefined) byTx.set(m.tx_hash, [m]);
    else list.push(m);
  }
  return txs.flatMap((tx) => rawTransactionFromRows(tx, byTx.get(tx.hash) ?? []) ?? []);
}

export async function selectTransactions(store: Store, hashes: readonly string[]): Promise<RawTransaction[]> {
  if (hashes.length === 0) return [];
  const params = { hashes: hashes.map((h) => h.toLowerCase()) };
  const [txs, msgs] = await Promise.all([
    store.query(TXS_BY_HASH, transactions.schema, params),
    store.query(MSGS_BY_TX, messages.schema, params),
  ]);
  return assemble(txs, msgs);
}

/** Transactions whose inbound message is one of `msgHashes`, by lt. */
export async function selectTransactionsByInMsg(
  store: Store,
  msgHashes: readonly string[],
): Promise<RawTransaction[]> {
  if (msgHashes.length === 0) return [];
  const params = { msgs: msgHashes.map((h) => h.toLowerCase()) };
  const [txs, msgs] = await Promise.all([
    store.query(TXS_BY_IN_MSG, transactions.schema, params),
    store.query(MSGS_BY_IN_MSG, messages.schema, params),
  ]);
  return assemble(txs, msgs);
}

const txRef = z.object({ hash: str, lt: big, account: str });

const WALLET_TXS = `SELECT hash, lt, account FROM transactions
WHERE account = {wallet:String} AND utime >= {since:UInt32}
ORDER BY lt DESC
LIMIT 1 BY hash
LIMIT {limit:UInt32}`;

/** The wallet's latest external inbound message (its transactions by sorting key, their messages by hash). */
const LAST_EXTERNAL = `SELECT body_boc, toUInt32(utime) AS utime FROM messages
WHERE direction = 'in' AND source IS NULL
  AND msg_hash IN (SELECT in_msg_hash FROM transactions WHERE account = {wallet:String} AND in_msg_hash IS NOT NULL)
ORDER BY tx_lt DESC
LIMIT 1`;

const externalBody = z.object({ body_boc: str, utime: seconds });

/** The wallet's seqno once it accepted this external message: the seqno the message carried, plus one. */
function seqnoAfter(m: z.infer<typeof externalBody>): number | null {
  try {
    const ext = acceptedWalletExternal(Cell.fromBase64(m.body_boc), m.utime);
    return ext === null ? null : ext.seqno + 1;
  } catch {
    return null;
  }
}

/**
 * The wallet's seqno is the one its last indexed external message carried, plus one (a standard wallet
 * stores seqno + 1 when it accepts the message: dex/wallet-seqno.ts); null for other wallet kinds or a
 * wallet with no indexed external message.
 */
export async function selectWalletTransactions(
  store: Store,
  wallet: RawAddress,
  opts: { limit: number; since?: number },
): Promise<WalletTransactions> {
  const params = { wallet, since: opts.since ?? 0, limit: opts.limit };
  const [txs, last] = await Promise.all([
    store.query(WALLET_TXS, txRef, params) as Promise<TxRef[]>,
    store.query(LAST_EXTERNAL, externalBody, { wallet }),
  ]);
  return { seqno: last[0] === undefined ? null : seqnoAfter(last[0]), txs };
}

const head = z.object({ n: big, utime: seconds });

/**
 * The time of the newest stored transaction, or null before the first one: the count and the greatest
 * `utime` (the partition key's column) are answered from part metadata, whatever the table's size. (The
 * greatest `mc_seqno`, which no caller used, was a scan of the column: 3.7 of 5.5 ms at 417k transactions,
 * growing with the history.)
 */
export async function selectIndexedHead(store: Store): Promise<{ utime: number } | null> {
  const [row] = await store.query(
    "SELECT count() AS n, toUInt32(max(utime)) AS utime FROM transactions",
    head,
  );
  return row === undefined || row.n === 0n ? null : { utime: row.utime };
}

/** An external-in message is consumed by exactly one transaction (of its destination). */
const BY_EXT_MSG = `SELECT tx_hash AS hash, tx_lt AS lt, destination AS account, body_boc, toUInt32(utime) AS utime
FROM messages
WHERE msg_hash = {msg:String} AND direction = 'in' AND source IS NULL AND utime >= {since:UInt32}
ORDER BY tx_lt
LIMIT 1`;

const outBody = z.object({ hash: str, lt: big, body_boc: str });

/** Outbound bodies of the wallet's transactions since `since`, oldest first. */
const WALLET_OUT_BODIES = `SELECT tx_hash AS hash, tx_lt AS lt, body_boc FROM messages
WHERE direction = 'out' AND utime >= {since:UInt32}
  AND tx_hash IN (SELECT hash FROM transactions WHERE account = {wallet:String} AND utime >= {since:UInt32})
ORDER BY tx_lt, tx_hash, msg_index
LIMIT 1 BY msg_hash, direction, tx_hash`;

/** The query id of a body that carries one right after its op code (jetton transfer, pTON, DEX ops). */
function queryIdOf(bodyBoc: string): bigint | null {
  try {
    const s = Cell.fromBase64(bodyBoc).beginParse();
    if (s.remainingBits < 96) return null;
    s.skip(32);
    return s.loadUintBig(64);
  } catch {
    return null;
  }
}

/**
 * By external message hash, or by the wallet and the query id of a message it sent (the earliest such
 * transaction since `since`; the query id is read from the stored bodies). `walletSeqno`: the wallet's seqno
 * after that transaction's external message (standard wallets; null otherwise).
 */
export async function lookupTransaction(store: Store, lookup: TxLookup): Promise<TxLookupResult | null> {
  if ("extMsgHash" in lookup) {
    const params = { msg: lookup.extMsgHash.toLowerCase(), since: lookup.since };
    const [found] = await store.query(BY_EXT_MSG, txRef.merge(externalBody), params);
    if (found === undefined) return null;
    const { body_boc, utime, ...ref } = found;
    return { ...ref, walletSeqno: seqnoAfter({ body_boc, utime }) };
  }
  const params = { wallet: lookup.wallet, since: lookup.since };
  const bodies = await store.query(WALLET_OUT_BODIES, outBody, params);
  const hit = bodies.find((b) => queryIdOf(b.body_boc) === lookup.queryId);
  if (hit === undefined) return null;
  const [external] = await store.query(EXTERNAL_IN_OF, externalBody, { hash: hit.hash });
  const walletSeqno = external === undefined ? null : seqnoAfter(external);
  return { hash: hit.hash, lt: hit.lt, account: lookup.wallet, walletSeqno };
}

/** The external inbound message of a transaction, if it had one (bloom index on `messages.tx_hash`). */
const EXTERNAL_IN_OF = `SELECT body_boc, toUInt32(utime) AS utime FROM messages
WHERE tx_hash = {hash:String} AND direction = 'in' AND source IS NULL
LIMIT 1`;
