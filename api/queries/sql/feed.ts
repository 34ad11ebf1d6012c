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
import type { FeedBlock, FeedEventRecord, FeedReference } from "../../read-model.ts";
import { type AssetRef, assetAddress, POOLS_WITH_ROUTER, seconds, tokenAssetSql } from "./common.ts";
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
import { aIsToken0 } from "./operation-records.ts";
import { selectStatesAt, selectTracePaths, stateKey, type WalletTx } from "./operations.ts";
import { selectAssetMetadata } from "./reference.ts";

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
  /** A swap's offered and asked router wallets (side a = the offer); null for joins and exits. */
  a_wallet: string | null;
  b_wallet: string | null;
  amount_a: bigint;
  amount_b: bigint;
};

/** A pool's tokens (asset addresses) and the router's wallets for them, as ./pools.ts resolves them. */
type PoolTokens = {
  token0: string | null;
  token1: string | null;
  token0Wallet: string | null;
  token1Wallet: string | null;
};

/** The assets an operation names (for a pool whose tokens are not both known). */
type OperationRefs = { a: AssetRef; b: AssetRef };

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
    a_wallet: textOrNull(r, "a_wallet"),
    b_wallet: textOrNull(r, "b_wallet"),
    amount_a: unsigned(r, "amount_a"),
    amount_b: unsigned(r, "amount_b"),
  }),
);

const poolTokensRow = rowReader((r) => ({
  pool: text(r, "pool"),
  tokens: {
    token0: textOrNull(r, "token0"),
    token1: textOrNull(r, "token1"),
    token0Wallet: textOrNull(r, "token0_wallet"),
    token1Wallet: textOrNull(r, "token1_wallet"),
  } satisfies PoolTokens,
}));

const refsRow = rowReader((r) => ({
  id: text(r, "id"),
  refs: {
    a: {
      kind: oneOfOrNull(r, "a_kind", ASSET_KINDS),
      master: textOrNull(r, "a_master"),
      routerWallet: textOrNull(r, "a_wallet"),
    },
    b: {
      kind: oneOfOrNull(r, "b_kind", ASSET_KINDS),
      master: textOrNull(r, "b_master"),
      routerWallet: textOrNull(r, "b_wallet"),
    },
  } satisfies OperationRefs,
}));

const RANGE = "mc_seqno BETWEEN {from:UInt32} AND {to:UInt32}";
const SWAP_EVENTS = `${RANGE} AND pool IS NOT NULL AND ifNull(amount_out > 0, false) AND amount_in > 0`;
const LIQUIDITY_EVENTS = `${RANGE} AND ifNull(success, false) AND (amount0 > 0 OR amount1 > 0)
    AND (kind = 'mint' OR (kind = 'withdraw' AND ifNull(withdraw_kind = 'burn', false)))`;

// A range is thousands of rows, so a row carries only what its record needs (the transfer dominated): the
// row's own maker only where no stored one answers ({stored} = 0 asks for it always); a swap's two router
// wallets, which orient it on its pool's tokens (joins and exits are in token order). The pools' tokens
// are not joined here: they come from the caller's reference lists, else from POOL_TOKENS_SQL (a join of
// every pool with its router cost as much as the range's scan), and the assets an operation names only
// for the rare pool whose tokens are not both known (REFS_SQL).
export const FEED_SQL = `SELECT kind, id, tx_hash, lt, mc_seqno, utime, pool,
  if({stored:UInt8} = 1 AND stored_maker IS NOT NULL, NULL, fallback_maker) AS maker, stored_maker,
  reserve0_after, reserve1_after, a_wallet, b_wallet, amount_a, amount_b, b.block_utime AS block_utime
FROM (
  SELECT 'swap' AS kind, id, tx_hash, lt, mc_seqno, utime, assumeNotNull(pool) AS pool,
    coalesce(route_sender, sender) AS fallback_maker, maker AS stored_maker, reserve0_after, reserve1_after,
    offer_router_wallet AS a_wallet, ask_router_wallet AS b_wallet,
    amount_in AS amount_a, assumeNotNull(amount_out) AS amount_b
  FROM swaps FINAL
  WHERE ${SWAP_EVENTS}
  UNION ALL
  SELECT if(kind = 'mint', 'join', 'exit') AS event, id, tx_hash, lt, mc_seqno, utime, pool,
    owner AS fallback_maker, maker AS stored_maker, reserve0_after, reserve1_after,
    NULL AS a_wallet, NULL AS b_wallet, amount0 AS amount_a, amount1 AS amount_b
  FROM liquidity_by_block FINAL
  WHERE ${LIQUIDITY_EVENTS}
) AS o
LEFT JOIN (
  SELECT mc_seqno, toUInt32(utime) AS block_utime FROM blocks FINAL WHERE ${RANGE}
) AS b USING (mc_seqno)
ORDER BY mc_seqno, lt, id
SETTINGS join_use_nulls = 1`;

const POOL_TOKENS_SQL = `SELECT p.pool AS pool, p.token0_wallet AS token0_wallet, p.token1_wallet AS token1_wallet,
  ${tokenAssetSql(0)} AS token0, ${tokenAssetSql(1)} AS token1
FROM ${POOLS_WITH_ROUTER}
WHERE p.pool IN {pools:Array(String)}
SETTINGS join_use_nulls = 1`;

const REFS_SQL = `SELECT id, offer_kind AS a_kind, offer_master AS a_master, offer_router_wallet AS a_wallet,
  ask_kind AS b_kind, ask_master AS b_master, ask_router_wallet AS b_wallet
FROM swaps FINAL WHERE ${RANGE} AND id IN {ids:Array(String)}
UNION ALL
SELECT id, asset0_kind, asset0_master, asset0_router_wallet, asset1_kind, asset1_master, asset1_router_wallet
FROM liquidity_by_block FINAL WHERE ${RANGE} AND id IN {ids:Array(String)}`;

const fullyKnown = (p: PoolTokens | undefined): p is PoolTokens =>
  p !== undefined &&
  p.token0 !== null &&
  p.token1 !== null &&
  p.token0Wallet !== null &&
  p.token1Wallet !== null;

/** Values by key: the reference's where it answers, the rest read (together) from the store. */
async function knownElseRead<V>(
  keys: readonly string[],
  known: (key: string) => V | undefined,
  read: (missing: string[]) => Promise<Iterable<readonly [string, V]>>,
): Promise<Map<string, V>> {
  const out = new Map<string, V>();
  const missing: string[] = [];
  for (const key of keys) {
    const value = known(key);
    if (value !== undefined) out.set(key, value);
    else missing.push(key);
  }
  if (missing.length > 0) for (const [key, value] of await read(missing)) out.set(key, value);
  return out;
}

/** The pools' tokens: from the reference where it knows them all, else from the store. */
const poolTokensOf = (store: Store, pools: readonly string[], reference: FeedReference | undefined) =>
  knownElseRead<PoolTokens>(
    pools,
    (pool) => {
      const p = reference?.pool(pool);
      return fullyKnown(p) ? p : undefined;
    },
    async (missing) =>
      (await store.query(POOL_TOKENS_SQL, poolTokensRow, { pools: missing })).map(
        (r) => [r.pool, r.tokens] as const,
      ),
  );

/** Decimals of the assets the feed can describe (name, symbol and decimals known): reference, else store. */
const describableDecimals = (
  store: Store,
  tokens: readonly string[],
  reference: FeedReference | undefined,
) => {
  const decimals = (a: Parameters<typeof feedAsset>[0] | undefined) =>
    a !== undefined && feedAsset(a) !== null ? (a.decimals as number) : undefined;
  return knownElseRead<number>(
    tokens,
    (token) => decimals(reference?.asset(token)),
    async (missing) =>
      (await selectAssetMetadata(store, missing)).flatMap((a) => {
        const d = decimals(a);
        return d === undefined ? [] : [[a.address, d] as const];
      }),
  );
};

/** The pool's tokens, else (not both known) the assets the operation names; null when one cannot be named. */
function assetsOf(
  p: PoolTokens | undefined,
  refs: OperationRefs | undefined,
  a0: boolean,
): [string, string] | null {
  if (p?.token0 != null && p.token1 != null) return [p.token0, p.token1];
  if (refs === undefined) return null;
  const asset0 = p?.token0 ?? assetAddress(a0 ? refs.a : refs.b);
  const asset1 = p?.token1 ?? assetAddress(a0 ? refs.b : refs.a);
  return asset0 === null || asset1 === null ? null : [asset0, asset1];
}

export async function selectFeedEvents(
  store: Store,
  from: number,
  to: number,
  options: { stored?: boolean; reference?: FeedReference } = {},
): Promise<FeedEventRecord[]> {
  const stored = options.stored ?? true;
  const rows = await store.query(FEED_SQL, feedRow, { from, to, stored: stored ? 1 : 0 });
  if (rows.length === 0) return [];
  const noMaker = rows.filter((r) => !stored || r.stored_maker === null);
  const noReserves = rows.filter((r) => !stored || r.reserve0_after === null || r.reserve1_after === null);
  const pools = await poolTokensOf(store, [...new Set(rows.map((r) => r.pool))], options.reference);
  const unnamed = rows.filter((r) => {
    const p = pools.get(r.pool);
    return p?.token0 == null || p.token1 == null;
  });
  const [states, paths, refs] = await Promise.all([
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
    unnamed.length === 0
      ? new Map<string, OperationRefs>()
      : store
          .query(REFS_SQL, refsRow, { from, to, ids: unnamed.map((r) => r.id) })
          .then((found) => new Map(found.map((r) => [r.id, r.refs]))),
  ]);
  // An event is served only when its pool's tokens are known and both assets can be described.
  const tokens = [...pools.values()].flatMap((p) =>
    p.token0 !== null && p.token1 !== null ? [p.token0, p.token1] : [],
  );
  const describable = await describableDecimals(store, [...new Set(tokens)], options.reference);
  // A block without a `blocks` row: the latest pool transaction time among its events (all stored).
  const fallback = new Map<number, number>();
  for (const r of rows) fallback.set(r.mc_seqno, Math.max(fallback.get(r.mc_seqno) ?? 0, r.utime));
  const out: FeedEventRecord[] = [];
  for (const r of rows) {
    const maker = makerOf(r, stored, paths);
    const p = pools.get(r.pool);
    const a0 = aIsToken0({
      type: r.kind === "swap" ? "Swap" : "AddLiquidity",
      a_wallet: r.a_wallet,
      b_wallet: r.b_wallet,
      token0_wallet: p?.token0Wallet ?? null,
      token1_wallet: p?.token1Wallet ?? null,
    });
    const assets = maker === null ? null : assetsOf(p, refs.get(r.id), a0);
    if (maker === null || assets === null) continue;
    const [reserve0, reserve1] = reservesOf(r, stored, states);
    const known = p?.token0 != null && p.token1 != null;
    out.push({
      txHash: r.tx_hash,
      lt: r.lt,
      id: r.id,
      pool: r.pool,
      asset0: assets[0],
      asset1: assets[1],
      kind: r.kind,
      swapIn: r.kind === "swap" ? (a0 ? 0 : 1) : null,
      amount0: a0 ? r.amount_a : r.amount_b,
      amount1: a0 ? r.amount_b : r.amount_a,
      maker,
      block: { mcSeqno: r.mc_seqno, utime: r.block_utime ?? (fallback.get(r.mc_seqno) as number) },
      reserve0,
      reserve1,
      decimals0: known ? (describable.get(assets[0]) ?? null) : null,
      decimals1: known ? (describable.get(assets[1]) ?? null) : null,
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
// over the whole of \`blocks\` in descending order cost ~20 ms on 2.8M blocks, the key lookup ~1 ms. The
// number is read in key order from the end (ORDER BY … DESC LIMIT 1): max() read every granule below the
// cursor (9.4 → 5.0 ms for the whole query on 2.8M blocks).
const HEAD_SQL = `SELECT mc_seqno, toUInt32(utime) AS utime FROM blocks FINAL
WHERE mc_seqno = (
  SELECT mc_seqno FROM blocks WHERE mc_seqno <= (SELECT min(mc_seqno) FROM cursor FINAL)
  ORDER BY mc_seqno DESC LIMIT 1
)
LIMIT 1`;

export async function selectFeedHead(store: Store): Promise<FeedBlock | null> {
  const [row] = await store.query(HEAD_SQL, headRow, {});
  return row === undefined ? null : { mcSeqno: row.mc_seqno, utime: row.utime };
}
