/**
 * The export feed's events (api/README "Export feeds") over `swaps` and `liquidity` (FINAL: one row per
 * operation id), in the masterchain blocks `from..to` of their pool transactions (`mc_seqno` of the anchor):
 * - swaps the pool executed (an output was paid: `amount_out > 0`), one per pool, so a multi-hop route
 *   gives one per hop; refunded swaps moved nothing and are not events;
 * - joins: mints the pool accepted (`kind = 'mint'`, success); exits: burns (`withdraw_kind = 'burn'`,
 *   success), moving something. Deposits into an LpAccount and LpAccount refunds do not touch the pool.
 * The maker is the user: the wallet whose external message started the pool transaction's trace (the root
 * of its message path, as `wallet_tx_*` of the operations), so an aggregator contract between the user and
 * the router is not the maker; when the store did not keep that root, a swap's route sender (the wallet
 * that started a route across routers), else its sender; the owner of a mint or burn. The block time is the `blocks` row's, else the latest pool
 * transaction time of the block's events. Reserves: the pool state stored for the pool transaction itself
 * (`pool_states` at exactly its lt), else unknown.
 *
 * Joins and exits are read from `liquidity_by_block` (migration 013: the same rows as `liquidity`, sorted by
 * block, so a range reads only its granules).
 *
 * Maker and reserves are read from the operation row itself (`maker`, `reserve{0,1}_after`, migration 008,
 * stored by the processor: processors/core/feed-columns.ts), so a range costs one scan of the operation
 * tables. Where a row does not carry them (written before 008, or not known when written) they are looked
 * up as described above: the pool_states row at the lt, the walk up the stored trace. Same answers either
 * way; `{ stored: false }` ignores the stored columns (the bench's and the tests' comparison).
 *
 * (UNION ALL names the columns after the first branch; the liquidity branch's alias must not be \`kind\`:
 * ClickHouse would resolve its WHERE's \`kind\` to that alias.)
 *
 * The head is the newest `blocks` row at or below every processor's cursor: the cursor is written last,
 * after every fact of its batch, and names the block a restart resumes after, so every operation anchored at
 * or below it is stored.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import { feedAsset } from "../../mappers/dexscreener.ts";
import type { FeedBlock, FeedEventRecord } from "../../read-model.ts";
import { assetAddress, POOLS_WITH_ROUTER, seconds, tokenAssetSql } from "./common.ts";
import {
  int,
  intOrNull,
  oneOf,
  oneOfOrNull,
  rowReader,
  text,
  textOrNull,
  unsigned,
  unsignedOrNull,
} from "./fast-row.ts";
import { selectStatesAt, selectTracePaths, stateKey, type WalletTx } from "./operations.ts";
import { selectAssetMetadata } from "./reference.ts";

type AssetKind = "jetton" | "ton";
type FeedRow = {
  kind: "swap" | "join" | "exit";
  id: string;
  tx_hash: string;
  lt: bigint;
  mc_seqno: number;
  utime: number;
  block_utime: number | null;
  pool: string;
  maker: string | null;
  stored_maker: string | null;
  reserve0_after: bigint | null;
  reserve1_after: bigint | null;
  /** The operation's side a (a swap's offer) is token0. */
  a0: boolean;
  /** The operation's asset references: null unless the pool's tokens are not both known. */
  a_kind: AssetKind | null;
  a_master: string | null;
  a_wallet: string | null;
  b_kind: AssetKind | null;
  b_master: string | null;
  b_wallet: string | null;
  amount_a: bigint;
  amount_b: bigint;
  token0: string | null;
  token1: string | null;
};

const KINDS = ["swap", "join", "exit"] as const;
const ASSET_KINDS = ["jetton", "ton"] as const;

/** Read by hand (./fast-row.ts): a range is thousands of rows. Same types as ./common.ts's schemas. */
const feedRow = rowReader(
  (r): FeedRow => ({
    kind: oneOf(r, "kind", KINDS),
    id: text(r, "id"),
    tx_hash: text(r, "tx_hash"),
    lt: unsigned(r, "lt"),
    mc_seqno: int(r, "mc_seqno"),
    utime: int(r, "utime"),
    block_utime: intOrNull(r, "block_utime"),
    pool: text(r, "pool"),
    maker: textOrNull(r, "maker"),
    stored_maker: textOrNull(r, "stored_maker"),
    reserve0_after: unsignedOrNull(r, "reserve0_after"),
    reserve1_after: unsignedOrNull(r, "reserve1_after"),
    a0: int(r, "a0") === 1,
    a_kind: oneOfOrNull(r, "ref_a_kind", ASSET_KINDS),
    a_master: textOrNull(r, "ref_a_master"),
    a_wallet: textOrNull(r, "ref_a_wallet"),
    b_kind: oneOfOrNull(r, "ref_b_kind", ASSET_KINDS),
    b_master: textOrNull(r, "ref_b_master"),
    b_wallet: textOrNull(r, "ref_b_wallet"),
    amount_a: unsigned(r, "amount_a"),
    amount_b: unsigned(r, "amount_b"),
    token0: textOrNull(r, "token0"),
    token1: textOrNull(r, "token1"),
  }),
);

const RANGE = "mc_seqno BETWEEN {from:UInt32} AND {to:UInt32}";

// A range is thousands of rows, so a row carries only what its record needs (the transfer dominated): the
// row's own maker only where no stored one answers ({stored} = 0 asks for it always); the side order `a0`
// computed here by the rule of `aIsToken0` (./operation-records.ts: the offered wallet is token0's, else
// the asked wallet is token1's, else the offer is token0; joins and exits are in token order); and the
// asset references of the operation only where the pool's tokens are not both known (then they name it).
const KNOWN = "pt.token0 IS NOT NULL AND pt.token1 IS NOT NULL";
export const FEED_SQL = `SELECT kind, id, tx_hash, lt, mc_seqno, utime, pool,
  if({stored:UInt8} = 1 AND stored_maker IS NOT NULL, NULL, fallback_maker) AS maker, stored_maker,
  reserve0_after, reserve1_after,
  toUInt8(kind != 'swap' OR multiIf(a_wallet IS NOT NULL AND pt.token0_wallet IS NOT NULL, a_wallet = pt.token0_wallet,
    b_wallet IS NOT NULL AND pt.token1_wallet IS NOT NULL, b_wallet = pt.token1_wallet, true)) AS a0,
  if(${KNOWN}, NULL, a_kind) AS ref_a_kind, if(${KNOWN}, NULL, a_master) AS ref_a_master,
  if(${KNOWN}, NULL, a_wallet) AS ref_a_wallet, if(${KNOWN}, NULL, b_kind) AS ref_b_kind,
  if(${KNOWN}, NULL, b_master) AS ref_b_master, if(${KNOWN}, NULL, b_wallet) AS ref_b_wallet,
  amount_a, amount_b, b.block_utime AS block_utime, pt.token0 AS token0, pt.token1 AS token1
FROM (
  SELECT 'swap' AS kind, id, tx_hash, lt, mc_seqno, utime, assumeNotNull(pool) AS pool,
    coalesce(route_sender, sender) AS fallback_maker, maker AS stored_maker, reserve0_after, reserve1_after,
    offer_kind AS a_kind, offer_master AS a_master, offer_router_wallet AS a_wallet,
    ask_kind AS b_kind, ask_master AS b_master, ask_router_wallet AS b_wallet,
    amount_in AS amount_a, assumeNotNull(amount_out) AS amount_b
  FROM swaps FINAL
  WHERE ${RANGE} AND pool IS NOT NULL AND ifNull(amount_out > 0, false) AND amount_in > 0
  UNION ALL
  SELECT if(kind = 'mint', 'join', 'exit') AS event, id, tx_hash, lt, mc_seqno, utime, pool,
    owner AS fallback_maker, maker AS stored_maker, reserve0_after, reserve1_after,
    asset0_kind AS a_kind, asset0_master AS a_master, asset0_router_wallet AS a_wallet,
    asset1_kind AS b_kind, asset1_master AS b_master, asset1_router_wallet AS b_wallet,
    amount0 AS amount_a, amount1 AS amount_b
  FROM liquidity_by_block FINAL
  WHERE ${RANGE} AND ifNull(success, false) AND (amount0 > 0 OR amount1 > 0)
    AND (kind = 'mint' OR (kind = 'withdraw' AND ifNull(withdraw_kind = 'burn', false)))
) AS o
LEFT JOIN (
  SELECT mc_seqno, toUInt32(utime) AS block_utime FROM blocks FINAL WHERE ${RANGE}
) AS b USING (mc_seqno)
LEFT JOIN (
  SELECT p.pool AS pool, p.token0_wallet AS token0_wallet, p.token1_wallet AS token1_wallet,
    ${tokenAssetSql(0)} AS token0, ${tokenAssetSql(1)} AS token1
  FROM ${POOLS_WITH_ROUTER}
) AS pt USING (pool)
ORDER BY mc_seqno, lt, id
SETTINGS join_use_nulls = 1`;

/** The pool's tokens, else (not both known) the assets the operation names; null when one cannot be named. */
function assetsOf(o: FeedRow): [string, string] | null {
  if (o.token0 !== null && o.token1 !== null) return [o.token0, o.token1];
  const refA = { kind: o.a_kind, master: o.a_master, routerWallet: o.a_wallet };
  const refB = { kind: o.b_kind, master: o.b_master, routerWallet: o.b_wallet };
  const asset0 = o.token0 ?? assetAddress(o.a0 ? refA : refB);
  const asset1 = o.token1 ?? assetAddress(o.a0 ? refB : refA);
  return asset0 === null || asset1 === null ? null : [asset0, asset1];
}

export async function selectFeedEvents(
  store: Store,
  from: number,
  to: number,
  options: { stored?: boolean } = {},
): Promise<FeedEventRecord[]> {
  const stored = options.stored ?? true;
  const rows = await store.query(FEED_SQL, feedRow, { from, to, stored: stored ? 1 : 0 });
  if (rows.length === 0) return [];
  const noMaker = rows.filter((r) => !stored || r.stored_maker === null);
  const noReserves = rows.filter((r) => !stored || r.reserve0_after === null || r.reserve1_after === null);
  const [states, paths] = await Promise.all([
    selectStatesAt(
      store,
      noReserves.map((r) => ({ pool: r.pool, lt: r.lt })),
    ),
    noMaker.length === 0
      ? new Map<string, WalletTx[]>()
      : selectTracePaths(
          store,
          noMaker.map((r) => r.tx_hash),
        ),
  ]);
  // Asset metadata read with the events (not from a cached list older than them): an event is served only
  // when its pool's tokens are known and both assets can be described.
  const tokens = [
    ...new Set(rows.flatMap((r) => [r.token0, r.token1]).filter((a): a is string => a !== null)),
  ];
  const describable = new Map(
    (await selectAssetMetadata(store, tokens)).flatMap((a) =>
      feedAsset(a) === null ? [] : [[a.address, a.decimals as number] as const],
    ),
  );
  const decimalsOf = (r: FeedRow, side: 0 | 1): number | null => {
    const token = side === 0 ? r.token0 : r.token1;
    return r.token0 === null || r.token1 === null || token === null ? null : (describable.get(token) ?? null);
  };
  // A block without a `blocks` row: the latest pool transaction time among its events (all stored).
  const fallback = new Map<number, number>();
  for (const r of rows) fallback.set(r.mc_seqno, Math.max(fallback.get(r.mc_seqno) ?? 0, r.utime));
  const out: FeedEventRecord[] = [];
  for (const r of rows) {
    const maker = makerOf(r, stored, paths);
    const assets = maker === null ? null : assetsOf(r);
    if (maker === null || assets === null) continue;
    const [reserve0, reserve1] = reservesOf(r, stored, states);
    out.push({
      txHash: r.tx_hash,
      lt: r.lt,
      id: r.id,
      pool: r.pool,
      asset0: assets[0],
      asset1: assets[1],
      kind: r.kind,
      swapIn: r.kind === "swap" ? (r.a0 ? 0 : 1) : null,
      amount0: r.a0 ? r.amount_a : r.amount_b,
      amount1: r.a0 ? r.amount_b : r.amount_a,
      maker,
      block: { mcSeqno: r.mc_seqno, utime: r.block_utime ?? (fallback.get(r.mc_seqno) as number) },
      reserve0,
      reserve1,
      decimals0: decimalsOf(r, 0),
      decimals1: decimalsOf(r, 1),
    });
  }
  return out;
}

/** The stored maker, else the trace root's account (when the store kept it), else the row's fallback. */
function makerOf(r: FeedRow, stored: boolean, paths: ReadonlyMap<string, WalletTx[]>): string | null {
  if (stored && r.stored_maker !== null) return r.stored_maker;
  const root = paths.get(r.tx_hash)?.at(-1);
  return root?.external && root.hash !== r.tx_hash ? root.account : r.maker;
}

/** The stored reserves after the event, else the pool_states row at exactly its lt, else unknown. */
function reservesOf(
  r: FeedRow,
  stored: boolean,
  states: ReadonlyMap<string, { state_lt: bigint; reserve0: bigint; reserve1: bigint }>,
): [bigint | null, bigint | null] {
  if (stored && r.reserve0_after !== null && r.reserve1_after !== null)
    return [r.reserve0_after, r.reserve1_after];
  const s = states.get(stateKey(r.pool, r.lt));
  return s !== undefined && s.state_lt === r.lt ? [s.reserve0, s.reserve1] : [null, null];
}

const headRow = z.object({ mc_seqno: z.number().int(), utime: seconds });

// The newest block number first (which blocks exist needs no deduplication), then its row by key: FINAL
// over the whole of \`blocks\` in descending order cost ~20 ms on 2.8M blocks, the key lookup ~1 ms.
const HEAD_SQL = `SELECT mc_seqno, toUInt32(utime) AS utime FROM blocks FINAL
WHERE mc_seqno = (SELECT max(mc_seqno) FROM blocks WHERE mc_seqno <= (SELECT min(mc_seqno) FROM cursor FINAL))
LIMIT 1`;

export async function selectFeedHead(store: Store): Promise<FeedBlock | null> {
  const [row] = await store.query(HEAD_SQL, headRow, {});
  return row === undefined ? null : { mcSeqno: row.mc_seqno, utime: row.utime };
}
