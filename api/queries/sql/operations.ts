/**
 * A wallet's DEX operations (api.md §4.6) over `swaps` and `liquidity`, in three queries:
 *
 * 1. the operations: `swaps FINAL` (the wallet is `sender` or the route's `route_sender`, bloom indexes) UNION ALL `liquidity FINAL`
 *    (the wallet is `owner`, bloom index), with the time, version and type filters, LEFT JOINed with the
 *    pool (its tokens in stored order and its router); one row per operation id;
 * 2. the pool state after and before each operation: an ASOF JOIN of `(pool, lt)` and `(pool, lt − 1)`
 *    keys with `pool_states FINAL` (the latest state at or before the key), from which reserves, LP
 *    supply and their deltas follow exactly, whatever the operation;
 * 3. the path from each operation's pool transaction up to the root of its trace (message edges), whose
 *    topmost transaction of the wallet is the wallet transaction that started the operation.
 *
 * Referral fees and vault withdrawals are not wallet operations here: STON.fi's operation types have no
 * entry for them (a swap carries its referral fee and referrer; a referrer's side shows in fee_vaults).
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { OperationFilter, OperationType, RawAddress } from "../../read-model.ts";
import { assetPairColumns, big, nstr, POOLS_WITH_ROUTER, seconds, str, tokenAssetSql } from "./common.ts";
import { STATE_COLUMNS, stateRow } from "./pools.ts";

export const operationRow = z.object({
  type: z.enum(["Swap", "SendLiquidity", "AddLiquidity", "WithdrawLiquidity", "RefundLiquidity"]),
  id: str,
  tx_hash: str,
  lt: big,
  utime: seconds,
  tx_hashes: z.array(str),
  dex: z.enum(["v1", "v2"]),
  pool: str,
  /** The operation's user: the route's (else the leg's) sender of a swap, the owner of a liquidity operation. */
  op_wallet: nstr,
  router: nstr,
  destination: nstr,
  success: z.boolean().nullable(),
  exit_name: nstr,
  ...assetPairColumns,
  /** LP burned (withdraw) or minted (mint); null otherwise or when not stated. */
  lp_amount: big.nullable(),
  /** null: the operation's messages did not state it (the classifier leaves it null for swaps). */
  protocol_fee: big.nullable(),
  referral_fee: big,
  referrer: nstr,
  pool_router: nstr,
  token0_wallet: nstr,
  token1_wallet: nstr,
  token0: nstr,
  token1: nstr,
});
export type OperationRow = z.infer<typeof operationRow>;

/** Conditions every branch shares: the wallet's time window and the DEX version (v1 only unless dexV2). */
const WINDOW = `utime BETWEEN {since:UInt32} AND {until:UInt32} AND ({dexV2:Bool} OR dex = 'v1')`;
const WANTED = (type: string) => `(empty({types:Array(String)}) OR has({types:Array(String)}, ${type}))`;
const LIQUIDITY_TYPE = `multiIf(kind = 'provide', 'SendLiquidity', kind = 'mint', 'AddLiquidity',
  withdraw_kind = 'lp_refund', 'RefundLiquidity', 'WithdrawLiquidity')`;

/**
 * Swaps: a wallet's swaps are the legs it sent and every hop of the routes it started (classifier
 * `route`): across routers a later hop's sender is the previous router (or its pTON wallet), which is not
 * the user and does not list the hop. Every hop of a route is destined to the route's receiver (who got the
 * final output), not to the next router. Side a is the offer, b the ask; a refunded swap has no output (amount_b 0). Liquidity: a and b
 * are token0 and token1 (the classifier reports them in pool order). Router-level refusals (no pool)
 * never reached a pool and are not pool operations. (No alias may shadow a filtered column: ClickHouse
 * resolves WHERE names to SELECT aliases first.)
 */
const operationsSql = (swapWho: string, liquidityWho: string) => `SELECT *
FROM (
  SELECT 'Swap' AS type, id, tx_hash, lt, utime, tx_hashes, dex, pool, coalesce(route_sender, sender) AS op_wallet,
    router, coalesce(route_receiver, receiver, sender) AS destination, success, exit_name,
    offer_kind AS a_kind, offer_master AS a_master, offer_router_wallet AS a_wallet,
    ask_kind AS b_kind, ask_master AS b_master, ask_router_wallet AS b_wallet,
    amount_in AS amount_a, ifNull(amount_out, toUInt256(0)) AS amount_b,
    CAST(NULL AS Nullable(UInt256)) AS lp_amount, protocol_fee, ifNull(referral_fee, toUInt256(0)) AS referral_fee,
    referrer
  FROM swaps FINAL
  WHERE ${swapWho}
    AND pool IS NOT NULL AND ${WINDOW} AND ${WANTED("'Swap'")}
  UNION ALL
  SELECT ${LIQUIDITY_TYPE} AS type, id, tx_hash, lt, utime, tx_hashes, dex, pool, owner AS op_wallet,
    router, if(kind = 'mint', coalesce(receiver, owner), owner) AS destination, success, exit_name,
    asset0_kind AS a_kind, asset0_master AS a_master, asset0_router_wallet AS a_wallet,
    asset1_kind AS b_kind, asset1_master AS b_master, asset1_router_wallet AS b_wallet,
    amount0 AS amount_a, amount1 AS amount_b, lp_amount, CAST(NULL AS Nullable(UInt256)) AS protocol_fee,
    toUInt256(0) AS referral_fee,
    CAST(NULL AS Nullable(String)) AS referrer
  FROM liquidity FINAL
  WHERE ${liquidityWho} AND ${WINDOW} AND ${WANTED(LIQUIDITY_TYPE)}
) AS o
LEFT JOIN (
  SELECT p.pool AS pool, p.router AS pool_router, p.token0_wallet AS token0_wallet,
    p.token1_wallet AS token1_wallet, ${tokenAssetSql(0)} AS token0, ${tokenAssetSql(1)} AS token1
  FROM ${POOLS_WITH_ROUTER}
) AS pt USING (pool)
ORDER BY lt, id
SETTINGS join_use_nulls = 1`;

const OPERATIONS_SQL = operationsSql(
  `(sender = {wallet:String} OR route_sender = {wallet:String})
    AND coalesce(route_sender, sender) = {wallet:String}`,
  "owner = {wallet:String}",
);

/**
 * Every wallet's operations in the window (`/v1/stats/operations`), of one pool when `pool` is not empty;
 * the window reads the sorting-key prefix `utime` of `swaps` and the `pool` prefix of `liquidity`.
 */
const WINDOW_OPERATIONS_SQL = operationsSql(
  "({pool:String} = '' OR pool = {pool:String})",
  "({pool:String} = '' OR pool = {pool:String})",
);

export function selectWindowOperationRows(
  store: Store,
  pool: RawAddress | null,
  f: OperationFilter,
): Promise<OperationRow[]> {
  return store.query(WINDOW_OPERATIONS_SQL, operationRow, {
    pool: pool ?? "",
    since: f.since,
    until: f.until,
    dexV2: f.dexV2,
    types: f.types ?? [],
  });
}

/** Swaps that paid `referrer` a referral fee (`/v1/stats/fee_accruals`: v1 direct and v2 vault deposits). */
const REFERRAL_OPERATIONS_SQL = operationsSql(
  "referrer = {referrer:String} AND ifNull(referral_fee, toUInt256(0)) > 0",
  "false",
);

export function selectReferralOperationRows(
  store: Store,
  referrer: RawAddress,
  f: OperationFilter,
): Promise<OperationRow[]> {
  return store.query(REFERRAL_OPERATIONS_SQL, operationRow, {
    referrer,
    since: f.since,
    until: f.until,
    dexV2: f.dexV2,
    types: f.types ?? [],
  });
}

export function selectOperationRows(
  store: Store,
  wallet: RawAddress,
  f: OperationFilter,
): Promise<OperationRow[]> {
  const types: readonly OperationType[] = f.types ?? [];
  return store.query(OPERATIONS_SQL, operationRow, {
    wallet,
    since: f.since,
    until: f.until,
    dexV2: f.dexV2,
    types,
  });
}

const keyedState = stateRow.extend({ key_pool: str, key_lt: big, state_lt: big });
export type KeyedState = z.infer<typeof keyedState>;

/** The latest state at or before each (pool, lt) key; keys without one are absent. */
const STATES_AT_SQL = `SELECT k.pool AS key_pool, k.lt AS key_lt, s.lt AS state_lt, ${STATE_COLUMNS}
FROM (
  SELECT tupleElement(t, 1) AS pool, tupleElement(t, 2) AS lt
  FROM (SELECT arrayJoin(arrayZip({pools:Array(String)}, {lts:Array(UInt64)})) AS t)
) AS k
ASOF JOIN (
  SELECT pool, lt, ${STATE_COLUMNS} FROM pool_states FINAL
  WHERE pool IN {poolSet:Array(String)} AND lt <= {maxLt:UInt64}
) AS s ON k.pool = s.pool AND k.lt >= s.lt`;

export const stateKey = (pool: string, lt: bigint) => `${pool}@${lt}`;

export async function selectStatesAt(
  store: Store,
  keys: readonly { pool: string; lt: bigint }[],
): Promise<Map<string, KeyedState>> {
  if (keys.length === 0) return new Map();
  const rows = await store.query(STATES_AT_SQL, keyedState, {
    pools: keys.map((k) => k.pool),
    lts: keys.map((k) => k.lt),
    poolSet: [...new Set(keys.map((k) => k.pool))],
    // Later states can never answer "at or before": the sorting key (pool, lt) skips them.
    maxLt: keys.reduce((max, k) => (k.lt > max ? k.lt : max), 0n),
  });
  return new Map(rows.map((r) => [stateKey(r.key_pool, r.key_lt), r]));
}

const walletTx = z.object({ hash: str, lt: big, utime: seconds, account: str });
/** A transaction on a trace path; `external`: its inbound message is external-in (it is a trace's root). */
export type WalletTx = z.infer<typeof walletTx> & { external: boolean };

const parentEdge = z.object({ child: str, parent: nstr, external: z.boolean() });

/**
 * One step up the trace for each of `hashes`: the transaction that sent its inbound message (null for an
 * external inbound message, or a sender the store did not keep), and whether that inbound message is
 * external. Both lookups use the sorting key of `messages` (msg_hash, direction) or its tx_hash bloom index.
 */
const PARENTS_SQL = `SELECT i.tx_hash AS child, o.tx_hash AS parent, toBool(i.source IS NULL) AS external
FROM (
  SELECT tx_hash, msg_hash, source FROM messages
  WHERE direction = 'in' AND tx_hash IN {hashes:Array(String)}
  LIMIT 1 BY tx_hash
) AS i
LEFT JOIN (
  SELECT msg_hash, tx_hash FROM messages
  WHERE direction = 'out' AND msg_hash IN (
    SELECT msg_hash FROM messages WHERE direction = 'in' AND tx_hash IN {hashes:Array(String)})
  LIMIT 1 BY msg_hash
) AS o USING (msg_hash)
SETTINGS join_use_nulls = 1`;

const TXS_SQL = `SELECT hash, lt, utime, account FROM transactions
WHERE hash IN {hashes:Array(String)}
ORDER BY lt
LIMIT 1 BY hash`;

/** Real traces are a few dozen transactions deep at most; the walk stops there whatever the store holds. */
const MAX_TRACE_DEPTH = 64;

/**
 * The path from each of `hashes` up to the root of its trace (the transaction whose inbound message is
 * external, or the highest one the store kept), nearest first: one query per level for all of them.
 */
export async function selectTracePaths(
  store: Store,
  hashes: readonly string[],
): Promise<Map<string, WalletTx[]>> {
  const parentOf = new Map<string, string | null>();
  const external = new Set<string>();
  let frontier = [...new Set(hashes)];
  for (let depth = 0; frontier.length > 0 && depth < MAX_TRACE_DEPTH; depth++) {
    const edges = await store.query(PARENTS_SQL, parentEdge, { hashes: frontier });
    for (const h of frontier) parentOf.set(h, null);
    for (const e of edges) {
      parentOf.set(e.child, e.parent);
      if (e.external) external.add(e.child);
    }
    frontier = [
      ...new Set(edges.flatMap((e) => (e.parent !== null && !parentOf.has(e.parent) ? [e.parent] : []))),
    ];
  }
  const known = [...parentOf.keys()];
  const txs = new Map(
    known.length === 0
      ? []
      : (await store.query(TXS_SQL, walletTx, { hashes: known })).map((t) => [t.hash, t] as const),
  );
  const paths = new Map<string, WalletTx[]>();
  for (const start of hashes) {
    const path: WalletTx[] = [];
    const seen = new Set<string>();
    for (let h: string | null | undefined = start; h && !seen.has(h); h = parentOf.get(h)) {
      seen.add(h);
      const tx = txs.get(h);
      if (tx) path.push({ ...tx, external: external.has(h) });
    }
    paths.set(start, path);
  }
  return paths;
}
