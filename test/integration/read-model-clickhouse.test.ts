/**
 * The ClickHouse read model against the memory read model on equivalent data: the fixture's fact rows are
 * written (twice: a re-delivered batch) to the real embedded engine, the memory model holds what those facts
 * mean (written out below), and every DexReadModel method must answer both the same, call by call.
 * chdb allows one data path per process (ava runs each file in its own): one temporary path, removed after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cell } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import type {
  PoolRecord as AnyPoolRecord,
  AssetRecord,
  DexReadModel,
  OperationRecord,
  KnownPoolRecord as PoolRecord,
} from "../../api/read-model.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { type MemoryData, MemoryReadModel } from "../../api/read-model-memory.ts";
import { CURVES } from "../../dex/amm/index.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import type { LiquidityRow, SwapRow } from "../../schemas/facts.ts";
import * as X from "./_read-model-fixtures.ts";

const test = anyTest as TestFn<{ dir: string; store: Store; ch: ClickHouseReadModel; mem: MemoryReadModel }>;

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-rm-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  const position = { consumer: "test", partition_id: 0, mc_seqno: 1, next_offset: 1n };
  await writeBatch(store, X.FACTS, position);
  await writeBatch(store, X.FACTS, position); // re-delivered: every fact is stored twice until a merge
  t.context = { dir, store, ch: new ClickHouseReadModel(store), mem: new MemoryReadModel(expected()) };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  if (t.context.dir) rmSync(t.context.dir, { recursive: true, force: true });
});

// ---- what the facts mean, written out from the fixture rows.
const stateAt = (pool: PoolRecord, lt: bigint, strict: boolean) =>
  (X.HISTORY.get(pool) ?? []).filter(([at]) => (strict ? at < lt : at <= lt)).at(-1)?.[1] ?? null;
const OK_NAMES = { mint: "ok", burn: "burn_ok", lp_refund: "refund_ok" } as const;
const LIQUIDITY_TYPES = {
  provide: "SendLiquidity",
  mint: "AddLiquidity",
  withdraw: "WithdrawLiquidity",
} as const;

type Triple = [bigint | null, bigint | null, bigint | null];

/**
 * What an operation alone says of the pool's reserves and LP supply (token0, token1, LP), when no pool state
 * pair brackets it: contracts.md §2.9/§3.9 (a swap adds its input to the offer side and takes output +
 * protocol fee + referral fee from the ask side; a refund, a provide and an LpAccount refund change nothing;
 * a burn takes what it pays out and the LP it burns). A mint's split between reserves and fees is not stated.
 */
function ownDeltas(row: SwapRow | LiquidityRow, offer0: boolean, protocolFee: bigint | null): Triple {
  if ("amount_in" in row) {
    // The pool executed the swap when it paid swap_ok (an output), whatever became of the payout.
    if ((row.amount_out ?? 0n) === 0n) return row.success === false ? [0n, 0n, 0n] : [null, null, null];
    const ask =
      protocolFee === null ? null : -((row.amount_out ?? 0n) + protocolFee + (row.referral_fee ?? 0n));
    return offer0 ? [row.amount_in, ask, 0n] : [ask, row.amount_in, 0n];
  }
  if (row.withdraw_kind === "lp_refund") return [0n, 0n, 0n];
  if (row.kind === "provide") return row.success === null ? [null, null, null] : [0n, 0n, 0n];
  // A refused mint saves nothing; a v1 mint adds both amounts and the LP it mints (§2.9).
  if (row.kind === "mint" && row.success === false) return [0n, 0n, 0n];
  if (row.kind === "mint" && row.dex === "v1" && row.success === true && row.lp_amount !== null)
    return [row.amount0, row.amount1, row.lp_amount];
  if (row.kind === "withdraw" && row.success === true && row.lp_amount !== null)
    return [-row.amount0, -row.amount1, -row.lp_amount];
  return [null, null, null];
}

type PoolAt = ReturnType<typeof stateAt>;

/**
 * Liquidity fees (§3.9.8): a v2 mint pays a protocol fee on its over-supplied side (that side's collected
 * fee growth) and an LP fee that stays in the reserves (not separable: null); nothing else charges a fee.
 */
function mintFees(row: LiquidityRow, after: PoolAt, before: PoolAt) {
  const pool = X.ALL_POOLS.find((p) => p.address === row.pool)!;
  if (row.kind !== "mint" || row.dex === "v1" || row.success === false) {
    return { feeAsset: null, lpFee: 0n, protocolFee: 0n };
  }
  if (row.success === null || after === null || before === null) {
    return { feeAsset: null, lpFee: null, protocolFee: null };
  }
  const d0 = after.collectedProtocolFee0 - before.collectedProtocolFee0;
  const d1 = after.collectedProtocolFee1 - before.collectedProtocolFee1;
  if (d0 > 0n && d1 > 0n) return { feeAsset: null, lpFee: null, protocolFee: null };
  if (d0 > 0n) return { feeAsset: pool.token0, lpFee: null, protocolFee: d0 };
  if (d1 > 0n) return { feeAsset: pool.token1, lpFee: null, protocolFee: d1 };
  return { feeAsset: null, lpFee: null, protocolFee: 0n };
}

function operation(row: SwapRow | LiquidityRow): OperationRecord {
  const pool = X.ALL_POOLS.find((p) => p.address === row.pool)!;
  const a = stateAt(pool, row.lt, false);
  const b = stateAt(pool, row.lt, true);
  const isSwap = "amount_in" in row;
  const offer0 = !isSwap || row.offer_router_wallet === pool.token0Wallet;
  const succeeded = row.success === true;
  const askFee = (s: typeof a) =>
    s === null ? null : offer0 ? s.collectedProtocolFee1 : s.collectedProtocolFee0;
  const feeDiff = a && b ? askFee(a)! - askFee(b)! : null;
  const executed = isSwap && (row.amount_out ?? 0n) > 0n;
  const uncharged = row.success === false ? 0n : null;
  const protocolFee = !isSwap
    ? 0n
    : executed
      ? (row.protocol_fee ?? (feeDiff === null ? null : feeDiff > 0n ? feeDiff : 0n))
      : uncharged;
  const own = ownDeltas(row, offer0, protocolFee);
  const base = {
    poolTxHash: row.tx_hash,
    poolTxLt: row.lt,
    poolTxTime: row.utime,
    pool: pool.address,
    router: pool.router,
    dexVersion: row.dex === "v1" ? 1 : 2,
    success: succeeded,
    asset0: pool.token0,
    asset1: pool.token1,
    delta0: a && b ? a.reserve0 - b.reserve0 : own[0],
    delta1: a && b ? a.reserve1 - b.reserve1 : own[1],
    reserve0: a?.reserve0 ?? null,
    reserve1: a?.reserve1 ?? null,
    lpTokenDelta: a && b ? a.lpSupply - b.lpSupply : own[2],
    lpTokenSupply: a?.lpSupply ?? null,
    // The fixture's pool transactions are not linked to WALLET's transactions by stored messages: the
    // transaction that started them is not known.
    walletTxHash: null,
    walletTxLt: null,
    walletTxTime: null,
  } as const;
  if (isSwap) {
    const out = row.amount_out ?? 0n;
    // The LP fee as the output it cost: base output without the fee minus with it, on the state before.
    const dir = offer0 ? "0to1" : "1to0";
    const baseOut = (fee: bigint) => CURVES[b!.type].baseOut({ ...b!, lpFeeBps: fee }, dir, row.amount_in);
    return {
      ...base,
      type: "Swap",
      // A route's hops are its user's, destined to who got the final output.
      destinationWallet: row.route_receiver ?? row.receiver!,
      exitCode: row.exit_name,
      amount0: offer0 ? row.amount_in : out,
      amount1: offer0 ? out : row.amount_in,
      feeAsset: offer0 ? pool.token1 : pool.token0,
      lpFee: !executed ? uncharged : b ? baseOut(0n) - baseOut(b.lpFeeBps) : null,
      protocolFee,
      referralFee: row.referral_fee ?? 0n,
      referral: row.referrer,
      wallet: row.route_sender ?? row.sender!,
    };
  }
  const okName = row.kind === "mint" ? OK_NAMES.mint : row.withdraw_kind ? OK_NAMES[row.withdraw_kind] : "ok";
  return {
    ...base,
    type: row.withdraw_kind === "lp_refund" ? "RefundLiquidity" : LIQUIDITY_TYPES[row.kind],
    destinationWallet: (row.kind === "mint" ? row.receiver : null) ?? row.owner!,
    exitCode: row.exit_name ?? (row.success === true ? okName : row.success === false ? "failed" : "unknown"),
    amount0: row.amount0,
    amount1: row.amount1,
    ...mintFees(row, a, b),
    referralFee: 0n,
    referral: null,
    wallet: row.owner!,
  };
}

/** Curated catalogue fields have no column: neutral values; the store vouches for "no pool trades it". */
const asset = (a: AssetRecord): AssetRecord => ({
  address: a.address,
  kind: a.kind,
  symbol: a.symbol,
  displayName: a.displayName!,
  ...(a.address === X.STON ? { imageUrl: X.STON_IMAGE } : {}),
  decimals: a.decimals,
  priority: 0,
  deprecated: false,
  community: false,
  blacklisted: false,
  defaultSymbol: false,
  taxable: false,
  tags: X.ALL_POOLS.some((p) => p.token0 === a.address || p.token1 === a.address)
    ? []
    : ["asset:liquidity:no"],
});
const pool = ({ stats: _, ...p }: PoolRecord): AnyPoolRecord => ({
  ...p,
  stateLt: X.HISTORY.get(X.ALL_POOLS.find((q) => q.address === p.address)!)!.at(-1)![0],
  protocolFeeAddress: null,
  deprecated: false,
});
function swapStatus(row: SwapRow, routeFirst?: SwapRow) {
  // A cross-swap route: what the wallet gave is its first leg's offer.
  const first =
    routeFirst ??
    X.SWAPS.find(
      (s) =>
        s.continues_as_cross_swap && s.query_id === row.query_id && s.sender === row.sender && s.lt < row.lt,
    ) ??
    row;
  const offerOf = (r: SwapRow) => (r.offer_kind === "ton" ? X.TON : r.offer_master!);
  const ask = row.ask_kind === "ton" ? X.TON : row.ask_master!;
  const deltas = new Map([[offerOf(first), -first.amount_in]]);
  const add = (asset: string, v: bigint) => deltas.set(asset, (deltas.get(asset) ?? 0n) + v);
  if (row.success === false) add(offerOf(row), row.payout_amount ?? 0n);
  if (row.success) add(ask, row.amount_out ?? 0n);
  const coins = row.payout_amount ?? row.amount_out ?? 0n;
  return {
    router: row.router!,
    wallet: row.route_sender ?? row.sender!,
    queryId: row.query_id,
    exitCode: row.exit_name,
    coins,
    lt: row.lt,
    txHash: row.tx_hash,
    balanceDeltas: deltas,
  };
}
const lp = (p: PoolRecord, lpBalance: bigint, lpAccount: string | null, lpAccountAmount0 = 0n) => ({
  wallet: X.WALLET,
  pool: p.address,
  lpWallet: null,
  lpBalance,
  lpAccount,
  lpAccountAmount0,
  lpAccountAmount1: 0n,
});
const by =
  <T>(key: (x: T) => string | bigint) =>
  (x: T, y: T) =>
    key(x) < key(y) ? -1 : 1;

function rootSeqno(): number {
  const s = Cell.fromBase64(X.TRACE_ROOT.in_msg!.body_boc).beginParse();
  s.skip(512 + 32 + 32);
  return s.loadUint(32);
}

function expected(): MemoryData {
  const vault = (owner: string, v: string, a: string, balance: bigint) => ({
    owner,
    vault: v,
    router: X.R_CPI.address,
    asset: a,
    balance,
  });
  return {
    routers: [
      ...X.ROUTERS,
      // Its pTON master never showed in the facts: unknown (null), and so is its pTON version.
      { ...X.R_CPI, address: X.raw("router with unknown pTON"), ptonMaster: null, ptonVersion: null },
    ].sort(by((r) => r.address)),
    assets: X.ASSETS.map(asset).sort(by((a) => a.address)),
    pools: [
      ...X.ALL_POOLS.map(pool),
      // Listed with what is known: a token whose master is not known is null; a pool without a state row
      // has a null state (never zeros).
      { ...pool(X.P_BIG), address: X.P_UNKNOWN.address, token1: null, stateLt: 1000n },
      { ...pool(X.P_BIG), address: X.P_NO_STATE.address, state: null, stateLt: null },
    ].sort(by((p) => p.address)),
    operations: [...X.SWAPS.filter((s) => s.pool !== null), ...X.LIQUIDITY]
      .map(operation)
      .sort(by((o) => o.poolTxLt)),
    lpPositions: [
      lp(X.P_CPI, 1_000_000n, null),
      lp(X.P_STABLE, 9_900_000n, X.LA_STABLE),
      lp(X.P_WCPI, 4000n, null),
      lp(X.P_WSTABLE, 0n, X.LA_WSTABLE, 9n),
    ].sort(by((p) => p.pool)),
    feeVaults: [
      vault(X.WALLET, X.VAULT_USDT, X.USDT, 12_345n),
      vault(X.WALLET, X.VAULT_TON, X.TON, 0n),
      vault(X.OTHER_WALLET, X.VAULT_OTHER, X.STON, 2n ** 200n),
    ].sort(by((v) => v.vault)),
    transactions: X.TXS,
    // The trace root is a standard wallet's transaction: its external message (signature, subwallet id,
    // valid_until, then msg_seqno) carries 611, and the wallet stores 611 + 1 on accepting it. The other
    // wallet transactions of the fixture carry no wallet external (a bare jetton transfer body).
    walletSeqnos: { [X.TRACE_ROOT.account]: rootSeqno() + 1 },
    swaps: X.SWAPS.flatMap((s) => {
      if (s.route_id === null) return s.continues_as_cross_swap ? [] : [swapStatus(s)];
      // Each router of a route answers with the route's last hop, and what its first hop took.
      const hops = X.SWAPS.filter((h) => h.route_id === s.route_id).sort(by((h) => h.lt));
      return [{ ...swapStatus(hops.at(-1)!, hops[0]), router: s.router! }];
    }),
  };
}

// ---- the same call on both models.
type Call = (m: DexReadModel) => Promise<unknown>;
const W = X.WALLET;
const lower = (a: string) => a.toLowerCase();
const window = { since: 0, until: 2 ** 32 - 1, dexV2: true };
const unknown = X.raw("nobody");
const CALLS: Record<string, Call> = {
  listRouters: (m) => m.listRouters(),
  getRouter: (m) => Promise.all([X.R_CPI.address, lower(X.R_V1.address), unknown].map((a) => m.getRouter(a))),
  listAssets: (m) => m.listAssets(),
  getAssets: (m) => m.getAssets([X.USDT, X.TON, X.NOT, unknown, lower(X.STON), X.USDT]),
  "getAssets([])": (m) => m.getAssets([]),
  listPools: (m) => m.listPools(),
  getPool: (m) =>
    Promise.all(
      [...X.ALL_POOLS.map((p) => p.address), lower(X.P_V1.address), unknown].map((a) => m.getPool(a)),
    ),
  getPoolsByAssets: (m) =>
    Promise.all(
      [
        [X.TON, X.USDT],
        [X.USDT, X.TON],
        [X.USDT, X.USDC],
        [X.TON, X.TON],
        [X.STON, X.NOT],
        [lower(X.STON), X.USDC],
      ].map(([a, b]) => m.getPoolsByAssets(a!, b!)),
    ),
  "getWalletOperations(all)": (m) => m.getWalletOperations(W, window),
  "getWalletOperations(types)": (m) =>
    Promise.all(
      [["Swap"], ["AddLiquidity", "WithdrawLiquidity"], ["SetFees"]].map((types) =>
        m.getWalletOperations(W, { ...window, types: types as never }),
      ),
    ),
  "getWalletOperations(v1 only)": (m) => m.getWalletOperations(lower(W), { ...window, dexV2: false }),
  "getWalletOperations(time window)": (m) =>
    m.getWalletOperations(W, { ...window, since: X.T0 + 200, until: X.T0 + 800 }),
  "getWalletOperations(others)": (m) =>
    Promise.all([X.OTHER_WALLET, X.R_CPI.address, unknown].map((w) => m.getWalletOperations(w, window))),
  getWalletLpPositions: (m) =>
    Promise.all([W, X.OTHER_WALLET, lower(W)].map((w) => m.getWalletLpPositions(w))),
  getFeeVaults: (m) => Promise.all([W, X.OTHER_WALLET, unknown].map((w) => m.getFeeVaults(w))),
  getWalletTransactions: (m) =>
    Promise.all([
      m.getWalletTransactions(W, { limit: 10 }),
      m.getWalletTransactions(W, { limit: 2 }),
      m.getWalletTransactions(lower(W), { limit: 10, since: X.T0 + 300 }),
      m.getWalletTransactions(X.TRACE_ROOT.account, { limit: 5 }),
    ]),
  findTransaction: (m) =>
    Promise.all([
      m.findTransaction({ extMsgHash: X.TRACE_ROOT.in_msg!.hash, since: X.TRACE_ROOT.now }),
      m.findTransaction({ extMsgHash: X.TRACE_ROOT.in_msg!.hash, since: X.TRACE_ROOT.now + 1 }),
      m.findTransaction({ wallet: W, queryId: 777n, since: 0 }),
      m.findTransaction({ wallet: lower(W), queryId: 42n, since: X.T0 }),
      m.findTransaction({ wallet: W, queryId: 104n, since: X.T0 + 1000 }),
      m.findTransaction({ wallet: W, queryId: 9n, since: 0 }),
    ]),
  getTransaction: (m) =>
    Promise.all(X.TXS.map((t) => m.getTransaction(t.hash)).concat([m.getTransaction("f".repeat(64))])),
  getTransactionsByInMsg: (m) =>
    Promise.all([X.TRACE_ROOT, ...X.TXS].map((t) => m.getTransactionsByInMsg(t.out_msgs.map((o) => o.hash)))),
  findSwap: (m) =>
    Promise.all(
      [
        [X.R_CPI, W, 42n],
        [X.R_V1, W, 101n],
        [X.R_CPI, W, 103n],
        [X.R_CPI, W, 44n],
        [X.R_CPI, W, 113n],
        [X.R_CPI, X.OTHER_WALLET, 114n],
        [X.R_V1, W, 42n],
        [X.R_CPI, W, 46n],
        [X.R_STABLE, W, 46n],
        [X.R_STABLE, X.R_CPI.address, 46n],
      ].map(([r, owner, queryId]) =>
        m.findSwap({
          router: (r as typeof X.R_CPI).address,
          owner: owner as string,
          queryId: queryId as bigint,
        }),
      ),
    ),
};

for (const [name, call] of Object.entries(CALLS)) {
  test(`${name}: the ClickHouse model answers as the memory model`, async (t) => {
    const [got, want] = await Promise.all([call(t.context.ch), call(t.context.mem)]);
    t.deepEqual(got, want);
  });
}

test("the expectations are not trivially empty", async (t) => {
  const { mem } = t.context;
  t.is((await mem.getWalletOperations(W, window)).length, 17);
  t.is((await mem.listPools()).length, 8);
  t.is((await mem.getTransactionsByInMsg(X.TRACE_ROOT.out_msgs.map((o) => o.hash))).length, 1);
});

test("every fact is stored twice, and read once", async (t) => {
  const rows = z.object({ n: z.string() });
  for (const table of ["swaps", "liquidity", "transactions", "messages", "pool_states", "pools"]) {
    const [raw] = await t.context.store.query(`SELECT toString(count()) AS n FROM ${table}`, rows);
    const [dedup] = await t.context.store.query(`SELECT toString(count()) AS n FROM ${table} FINAL`, rows);
    t.is(BigInt(raw!.n), 2n * BigInt(dedup!.n), table);
  }
});

test("UInt256 values round-trip exactly", async (t) => {
  const { ch } = t.context;
  t.deepEqual((await ch.getPool(X.P_BIG.address))?.state, X.P_BIG.state);
  const [op] = await ch.getWalletOperations(X.OTHER_WALLET, window);
  t.is(op?.amount0, 2n ** 128n + 5n);
  t.is(op?.amount1, 2n ** 200n);
  t.is(op?.lpTokenSupply, 2n ** 256n - 1n);
  t.deepEqual(
    (await ch.getFeeVaults(X.OTHER_WALLET)).map((v) => v.balance),
    [2n ** 200n],
  );
});
