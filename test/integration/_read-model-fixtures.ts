/**
 * The fact rows of one small DEX, mirroring the API fixtures (test/unit/api/fixtures.ts: routers, assets,
 * pools, the recorded trace, WALLET's transaction) plus consistent histories: pool states, WALLET's swaps
 * and liquidity operations with the transactions that sent them, referral vaults, UInt256 values, and rows
 * the read model must leave out (older versions, pTON and LP assets, a pool with an unknown master or no
 * state, a constant-sum router, a router-level refusal). read-model-clickhouse.test.ts writes out what the
 * memory read model must hold to answer the same.
 */
import { beginCell } from "@ton/core";
import type { AssetRecord, KnownPoolRecord as PoolRecord } from "../../api/read-model.ts";
import type { PoolState } from "../../dex/amm/index.ts";
import { poolStateColumns } from "../../dex/pool-state-row.ts";
import { transactionsRows } from "../../processors/core/transaction-rows.ts";
import type {
  AssetRow,
  FactRows,
  LiquidityRow,
  PoolRow,
  PoolStateRow,
  ReferralFeeRow,
  RouterRow,
  SwapRow,
  VaultWithdrawalRow,
} from "../../schemas/facts.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import * as F from "../unit/api/fixtures.ts";

export const { WALLET, OTHER_WALLET, TON, USDT, USDC, STON, NOT, ROUTERS, ASSETS, TRACE, TRACE_ROOT } = F;
export const { R_V1, R_CPI, R_STABLE, P_V1, P_CPI, P_STABLE, P_WCPI, P_WSTABLE, raw } = F;

export const T0 = 1_726_000_000;
export const lt = (n: number) => 45_000_000_000_000n + BigInt(n) * 10n;
const hx = (label: string, n: number) => `${label}${n.toString(16)}`.padEnd(64, "0");
const poolTx = (n: number) => hx("a", n);
const walletTxHash = (n: number) => hx("b", n);
export const routerOf = (p: PoolRecord): F.KnownRouterRecord => ROUTERS.find((r) => r.address === p.router)!;
const masterOf = (p: PoolRecord, token: string) => (token === TON ? routerOf(p).ptonMaster : token);

/** A v2 constant-product pool with UInt256-sized numbers (the store must keep them exactly). */
export const P_BIG: PoolRecord = {
  ...P_CPI,
  address: raw("pool big STON/USDC"),
  token0: STON,
  token1: USDC,
  token0Wallet: F.routerWallet(R_CPI, STON),
  token1Wallet: F.routerWallet(R_CPI, USDC),
  state: { ...P_CPI.state, reserve0: 2n ** 200n + 1n, reserve1: 2n ** 255n, lpSupply: 2n ** 256n - 1n },
};
export const ALL_POOLS = [...F.POOLS, P_BIG];
export const P_UNKNOWN = { ...P_BIG, address: raw("pool with an unknown master") };
export const P_NO_STATE = { ...P_BIG, address: raw("pool without a state") };

/** `s` minus the deltas: the state before an operation that added them. */
const minus = (s: PoolState, d0: bigint, d1: bigint, lp = 0n): PoolState => ({
  ...s,
  reserve0: s.reserve0 - d0,
  reserve1: s.reserve1 - d1,
  lpSupply: s.lpSupply - lp,
});
// P_CPI (USDT/TON): swap 2 (1 TON in, 2.993 USDT base out) at lt(2), WALLET's mint at lt(5).
const S_CPI_1 = minus(P_CPI.state, 2_990_000n, 1_000_000_000n, 1_000_000n);
/** Pool state histories `[lt, state]`, oldest first; the last one is the fixture's current state. */
export const HISTORY = new Map<PoolRecord, [bigint, PoolState][]>([
  [
    P_V1,
    [
      [1000n, minus(P_V1.state, 1_000_000_000n, -2_993_000n)],
      [lt(1), P_V1.state],
    ],
  ],
  [
    P_CPI,
    [
      [1000n, minus(S_CPI_1, -2_993_000n, 1_000_000_000n)],
      [lt(2), S_CPI_1],
      [lt(5), P_CPI.state],
    ],
  ],
  [P_STABLE, [[lt(8), P_STABLE.state]]],
  [
    P_WCPI,
    [
      [500n, minus(P_WCPI.state, -7n, -9n, -1000n)],
      [lt(9), P_WCPI.state],
    ],
  ],
  [P_WSTABLE, [[1000n, P_WSTABLE.state]]],
  [P_BIG, [[1000n, P_BIG.state]]],
]);

function stateRow(pool: string, at: bigint, s: PoolState): PoolStateRow {
  return {
    pool,
    lt: at,
    tx_hash: hx("c", Number(at % 100_000n)),
    mc_seqno: 1,
    utime: T0,
    ...poolStateColumns(s),
  };
}

/** WALLET's transactions: an external message in, a jetton transfer carrying a query id out. */
function walletTx(n: number, queryId: bigint): RawTransaction {
  const out = F.WALLET_TX.out_msgs[0]!;
  const transfer = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(queryId, 64).endCell();
  return {
    ...F.WALLET_TX,
    hash: walletTxHash(n),
    lt: (lt(n) - 5n).toString(),
    now: T0 + n * 100 - 5,
    in_msg: { ...out, hash: hx("d", n), source: null, destination: WALLET, value: null, created_lt: null },
    out_msgs: [{ ...out, hash: hx("e", n), body_boc: transfer.toBoc().toString("base64") }],
  };
}
export const WALLET_TXS = [walletTx(1, 101n), walletTx(2, 42n), walletTx(4, 104n), walletTx(5, 105n)];
export const TXS = [...TRACE.txs, F.WALLET_TX, ...WALLET_TXS].sort((a, b) =>
  BigInt(a.lt) === BigInt(b.lt) ? (a.hash < b.hash ? -1 : 1) : BigInt(a.lt) < BigInt(b.lt) ? -1 : 1,
);

type Prefix = "offer" | "ask" | "asset0" | "asset1" | "asset";
/** The classifier's asset reference for `asset` behind router `r`: TON is its pTON. */
function ref<P extends Prefix>(p: P, r: F.KnownRouterRecord, asset: string) {
  return {
    [`${p}_kind`]: asset === TON ? "ton" : "jetton",
    [`${p}_master`]: asset === TON ? r.ptonMaster : asset,
    [`${p}_router_wallet`]: F.routerWallet(r, asset),
  } as Record<`${P}_kind`, "jetton" | "ton"> & Record<`${P}_master` | `${P}_router_wallet`, string>;
}
const noPayout = {
  payout_to: null,
  payout_amount: null,
  payout_router_wallet: null,
  payout_receiver_wallet: null,
  payout_delivered: null,
  payout_tx_hash: null,
};
const anchor = (n: number, tx = poolTx(n)) => ({
  tx_hash: tx,
  lt: lt(n),
  mc_seqno: 1,
  utime: T0 + n * 100,
  tx_hashes: [walletTxHash(n), tx],
});

export function swap(
  n: number,
  pool: PoolRecord,
  offer: string,
  ask: string,
  o: Partial<SwapRow> = {},
): SwapRow {
  const r = routerOf(pool);
  const out = o.amount_out === undefined ? 2_990_000n : o.amount_out;
  return {
    id: `${poolTx(n)}:swap`,
    ...anchor(n),
    dex: r.majorVersion === 1 ? "v1" : "v2",
    router: r.address,
    pool: pool.address,
    query_id: BigInt(100 + n),
    sender: WALLET,
    sender_wallet: null,
    receiver: WALLET,
    ...ref("offer", r, offer),
    ...ref("ask", r, ask),
    amount_in: 1_000_000_000n,
    amount_out: out,
    min_out: 0n,
    protocol_fee: 3000n,
    referral_fee: null,
    referrer: null,
    exit_code: 3_326_308_581,
    exit_name: "swap_ok",
    success: true,
    ...noPayout,
    payout_to: WALLET,
    payout_amount: out,
    continues_as_cross_swap: false,
    route_id: null,
    route_sender: null,
    route_receiver: null,
    maker: null,
    reserve0_after: null,
    reserve1_after: null,
    volume_usd: null,
    untracked_volume_usd: null,
    lp_fee_usd: null,
    ...o,
  };
}

function liq(
  n: number,
  pool: PoolRecord,
  kind: LiquidityRow["kind"],
  o: Partial<LiquidityRow>,
): LiquidityRow {
  const r = routerOf(pool);
  return {
    id: `${poolTx(n)}:${kind}`,
    ...anchor(n),
    kind,
    dex: "v2",
    router: null,
    pool: pool.address,
    owner: WALLET,
    receiver: null,
    lp_account: null,
    withdraw_kind: null,
    amount0: 0n,
    amount1: 0n,
    ...ref("asset0", r, pool.token0),
    ...ref("asset1", r, pool.token1),
    lp_amount: null,
    min_lp_out: null,
    query_id: BigInt(n),
    exit_code: null,
    exit_name: null,
    success: true,
    outcome: null,
    maker: null,
    reserve0_after: null,
    reserve1_after: null,
    ...o,
  };
}

export const LA_STABLE = raw("lp account W stable");
export const LA_WSTABLE = raw("lp account W wstable");
const refund = { amount_out: null, payout_amount: 1_000_000_000n, success: false };
export const SWAPS: SwapRow[] = [
  swap(1, P_V1, TON, USDT),
  swap(2, P_CPI, TON, USDT, { query_id: 42n, referral_fee: 1000n, referrer: OTHER_WALLET }),
  swap(3, P_CPI, TON, USDT, { ...refund, tx_hashes: [poolTx(3)], exit_name: "swap_refund_slippage" }),
  // A cross-swap route under one query id: its status is the leg that did not continue.
  swap(11, P_CPI, TON, USDT, { query_id: 44n, continues_as_cross_swap: true }),
  swap(12, P_CPI, USDT, TON, { query_id: 44n, amount_in: 2_990_000n, amount_out: 990_000_000n }),
  swap(13, P_CPI, TON, USDT, { ...refund, pool: null, exit_name: "swap_refund_no_liq" }),
  swap(14, P_BIG, STON, USDC, { sender: OTHER_WALLET, amount_in: 2n ** 128n + 5n, amount_out: 2n ** 200n }),
  // A route across routers (classifier `route`): hop 1 pays router 2, whose hop credits router 1.
  ...(() => {
    const route = { route_id: `${poolTx(18)}:route`, route_sender: WALLET, route_receiver: WALLET };
    return [
      swap(18, P_CPI, TON, USDT, { ...route, query_id: 46n, receiver: R_STABLE.address }),
      swap(19, P_STABLE, USDT, USDC, {
        ...route,
        query_id: 46n,
        sender: R_CPI.address,
        amount_in: 2_990_000n,
        amount_out: 2_980_000n,
      }),
    ];
  })(),
];
const stored = (amount0: bigint, amount1: bigint, lp_account: string) =>
  ({ amount0, amount1, lp_account, exit_name: "ok", outcome: "stored" }) as const;
export const LIQUIDITY: LiquidityRow[] = [
  liq(5, P_CPI, "mint", { receiver: WALLET, amount0: 2_990_000n, amount1: 10n ** 9n, lp_amount: 10n ** 6n }),
  liq(6, P_STABLE, "provide", stored(5_000_000n, 0n, LA_STABLE)),
  liq(7, P_STABLE, "provide", stored(0n, 4_900_000n, LA_STABLE)),
  liq(8, P_STABLE, "mint", {
    receiver: WALLET,
    amount0: 5_000_000n,
    amount1: 4_900_000n,
    lp_amount: 9_900_000n,
  }),
  liq(0, P_WCPI, "mint", { receiver: WALLET, lt: 500n, utime: T0 - 5000, lp_amount: 5000n }),
  liq(9, P_WCPI, "withdraw", { withdraw_kind: "burn", lp_amount: 1000n, amount0: 7n, amount1: 9n }),
  liq(10, P_WSTABLE, "provide", stored(7n, 0n, LA_WSTABLE)),
  liq(15, P_WSTABLE, "withdraw", { withdraw_kind: "lp_refund", amount0: 7n }),
  liq(16, P_WSTABLE, "provide", stored(9n, 0n, LA_WSTABLE)),
  liq(17, P_WSTABLE, "provide", { ...stored(1n, 0n, LA_WSTABLE), success: null }),
];

export const VAULT_USDT = raw("fee vault of W for USDT");
export const VAULT_TON = raw("fee vault of W for TON");
export const VAULT_OTHER = raw("fee vault of X for STON");
function fee(n: number, asset: string, o: Partial<ReferralFeeRow>): ReferralFeeRow {
  return {
    id: `${hx("f", n)}:fee`,
    ...anchor(n, hx("f", n)),
    kind: "vault_deposit",
    dex: "v2",
    router: R_CPI.address,
    pool: P_CPI.address,
    vault: VAULT_USDT,
    referrer: WALLET,
    ...ref("asset", R_CPI, asset),
    amount: 10_000n,
    query_id: BigInt(n),
    msg_hash: null,
    success: true,
    ...noPayout,
    amount_usd: null,
    ...o,
  };
}
function withdrawal(
  n: number,
  vault: string,
  asset: string,
  amount: bigint,
  ok: boolean,
): VaultWithdrawalRow {
  const {
    kind: _,
    pool: __,
    referrer: ___,
    msg_hash: ____,
    ...rest
  } = fee(n, asset, { amount, success: ok });
  return { ...rest, vault, owner: WALLET };
}

const V2_TYPES = {
  ConstantProduct: "v2_constant_product",
  StableSwap: "v2_stableswap",
  WeightedConstProduct: "v2_weighted_const_product",
  WeightedStableSwap: "v2_weighted_stableswap",
} as const;
const routerRow = (r: F.KnownRouterRecord, version = 2n): RouterRow => ({
  address: r.address,
  dex: r.majorVersion === 1 ? "v1" : "v2",
  pool_type: r.majorVersion === 1 ? "v1_constant_product" : V2_TYPES[r.routerType],
  major: r.majorVersion,
  minor: r.minorVersion,
  development: "release",
  pton_master: r.ptonMaster,
  pton_wallet: r.ptonWallet,
  is_locked: !r.poolCreationEnabled,
  admin: null,
  version,
});
export const STON_IMAGE = "https://example.org/ston.png";
const assetRow = (
  a: AssetRecord,
  kind: AssetRow["kind"] = a.address === TON ? "ton" : "jetton",
): AssetRow => ({
  address: a.address,
  kind,
  symbol: a.symbol,
  name: a.displayName ?? null,
  decimals: a.decimals,
  image: a.address === STON ? STON_IMAGE : null,
  description: null,
  metadata_uri: null,
  total_supply: null,
  version: 2n,
});
const poolRow = (p: PoolRecord, version = 2n): PoolRow => ({
  pool: p.address,
  router: p.router,
  dex: p.state.type.startsWith("v1") ? "v1" : "v2",
  pool_type: p.state.type,
  token0_wallet: p.token0Wallet,
  token1_wallet: p.token1Wallet,
  token0_master: masterOf(p, p.token0),
  token1_master: masterOf(p, p.token1),
  created_lt: 900n,
  created_utime: T0,
  version,
});

export const FACTS: FactRows = {
  routers: [
    // An older version (locked, another pTON wallet) that FINAL must hide.
    routerRow({ ...R_CPI, poolCreationEnabled: false, ptonWallet: raw("old pTON wallet") }, 1n),
    ...ROUTERS.map((r) => routerRow(r)),
    { ...routerRow(R_CPI), address: raw("constant-sum router"), pool_type: "v2_constant_sum" },
    { ...routerRow(R_CPI), address: raw("router with unknown pTON"), pton_master: null },
  ],
  assets: [
    { ...assetRow(ASSETS[1]!), symbol: "OLD USDT", version: 1n },
    ...ASSETS.map((a) => assetRow(a)),
    assetRow({ ...ASSETS[0]!, address: R_V1.ptonMaster }, "pton"),
    assetRow({ ...ASSETS[0]!, address: R_CPI.ptonMaster }, "pton"),
    assetRow({ ...ASSETS[0]!, address: P_CPI.address, symbol: "LP" }, "lp"),
  ],
  pools: [
    { ...poolRow(P_V1, 1n), token0_wallet: P_V1.token1Wallet, token1_wallet: P_V1.token0Wallet },
    ...ALL_POOLS.map((p) => poolRow(p)),
    { ...poolRow(P_UNKNOWN), token1_master: null },
    poolRow(P_NO_STATE),
  ],
  pool_states: [
    ...[...HISTORY].flatMap(([p, states]) => states.map(([at, s]) => stateRow(p.address, at, s))),
    stateRow(P_UNKNOWN.address, 1000n, P_BIG.state),
  ],
  swaps: SWAPS,
  liquidity: LIQUIDITY,
  referral_fees: [
    fee(20, USDT, {}),
    fee(21, USDT, { amount: 5_345n }),
    fee(22, USDT, { amount: 99n, success: null }),
    fee(23, TON, { vault: VAULT_TON, amount: 2n ** 130n }),
    fee(24, USDT, { kind: "direct", dex: "v1", vault: null, router: R_V1.address, amount: 77n }),
    fee(25, STON, { vault: VAULT_OTHER, referrer: OTHER_WALLET, amount: 2n ** 200n }),
  ],
  vault_withdrawals: [
    withdrawal(26, VAULT_TON, TON, 2n ** 130n, true),
    withdrawal(27, VAULT_USDT, USDT, 3_000n, true),
    withdrawal(28, VAULT_USDT, USDT, 500n, false),
  ],
  ...transactionsRows(TXS),
  // Every fact above is committed by masterchain block 1 (the export feed's only block).
  blocks: [{ mc_seqno: 1, utime: T0 + 3_000, tx_count: TXS.length, shard_blocks: [] }],
};
