/**
 * An in-memory DEX for the API tests: v1 and v2 routers, five pools of different types, a wallet with
 * operations, an LP position and a fee vault, the recorded mainnet traces as stored transactions, and a
 * fake ChainState answering get-methods from tables. Addresses are derived from labels (sha256).
 */
import { createHash } from "node:crypto";
import { beginCell } from "@ton/core";
import { TON_RAW } from "../../../api/mappers/common.ts";
import type { AssetRecord, KnownPoolRecord, RawAddress, RouterRecord } from "../../../api/read-model.ts";
import { dexVersionOf, type PoolState, poolState } from "../../../dex/amm/index.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { loadTrace } from "../../helpers/traces.ts";

export const raw = (label: string): RawAddress =>
  `0:${createHash("sha256").update(label).digest("hex").toUpperCase()}`;

export const TON = TON_RAW;
export const USDT = raw("USDT");
export const USDC = raw("USDC");
export const STON = raw("STON");
export const TSTON = raw("tsTON");
export const NOT = raw("NOT");
export const WALLET = raw("wallet W");
export const OTHER_WALLET = raw("wallet X");

function asset(
  address: RawAddress,
  symbol: string,
  decimals: number,
  extra: Partial<AssetRecord> = {},
): AssetRecord {
  return {
    address,
    kind: address === TON ? "Ton" : "Jetton",
    symbol,
    displayName: `${symbol} token`,
    decimals,
    priority: 10,
    deprecated: false,
    community: false,
    blacklisted: false,
    defaultSymbol: true,
    taxable: false,
    tags: ["asset:liquidity:high"],
    dexPriceUsd: "1.0",
    popularityIndex: 1,
    ...extra,
  };
}

export const ASSETS: AssetRecord[] = [
  asset(TON, "TON", 9, {
    tags: ["asset:essential", "asset:popular"],
    popularityIndex: 100,
    dexPriceUsd: "3.1",
  }),
  asset(USDT, "USDT", 6, { tags: ["asset:essential", "asset:liquidity:very_high"], popularityIndex: 90 }),
  asset(USDC, "USDC", 6, { popularityIndex: 20 }),
  asset(STON, "STON", 9, { tags: ["asset:popular"], popularityIndex: 50 }),
  asset(TSTON, "tsTON", 9, { popularityIndex: 10 }),
  asset(NOT, "NOT", 9, { tags: ["asset:liquidity:no"], community: true, popularityIndex: 5 }),
];

/** A fixture router: everything about it known (its get-methods read, its pTON seen). */
export type KnownRouterRecord = RouterRecord & {
  minorVersion: number;
  routerType: NonNullable<RouterRecord["routerType"]>;
  poolCreationEnabled: boolean;
  ptonMaster: RawAddress;
  ptonVersion: string;
  ptonWallet: RawAddress;
};

function router(
  label: string,
  major: number,
  minor: number,
  routerType: KnownRouterRecord["routerType"],
): KnownRouterRecord {
  return {
    address: raw(`router ${label}`),
    majorVersion: major,
    minorVersion: minor,
    routerType,
    poolCreationEnabled: true,
    ptonMaster: raw(major === 1 ? "pTON v1" : "pTON v2.1"),
    ptonVersion: major === 1 ? "v1" : "v2_1",
    ptonWallet: raw(`pton wallet of ${label}`),
  };
}

export const R_V1 = router("v1", 1, 0, "ConstantProduct");
export const R_CPI = router("v2.2 cpi", 2, 2, "ConstantProduct");
export const R_STABLE = router("v2.2 stable", 2, 2, "StableSwap");
export const R_WCPI = router("v2.1 wcpi", 2, 1, "WeightedConstProduct");
export const R_WSTABLE = router("v2.2 wstable", 2, 2, "WeightedStableSwap");
export const ROUTERS = [R_V1, R_CPI, R_STABLE, R_WCPI, R_WSTABLE];

/** The router's wallet for an asset: its pTON wallet for TON. */
export const routerWallet = (r: KnownRouterRecord, a: RawAddress): RawAddress =>
  a === TON ? r.ptonWallet : raw(`wallet of ${r.address} for ${a}`);

function pool(
  label: string,
  r: KnownRouterRecord,
  token0: RawAddress,
  token1: RawAddress,
  state: PoolState,
): KnownPoolRecord {
  return {
    address: raw(`pool ${label}`),
    router: r.address,
    dex: dexVersionOf(state.type),
    token0,
    token1,
    token0Wallet: routerWallet(r, token0),
    token1Wallet: routerWallet(r, token1),
    state,
    stateLt: 1000n,
    protocolFeeAddress: raw("protocol fee address"),
    deprecated: false,
    stats: { lpTotalSupplyUsd: "1000000", volume24hUsd: "5000", apy1d: "0.01", popularityIndex: 10 },
  };
}

export const P_V1 = pool(
  "v1 TON/USDT",
  R_V1,
  TON,
  USDT,
  poolState({
    type: "v1_constant_product",
    reserve0: 1_000_000_000_000_000n,
    reserve1: 3_000_000_000_000n,
    lpSupply: 54_772_255_750_516n,
    lpFeeBps: 20n,
    protocolFeeBps: 10n,
    refFeeBps: 10n,
  }),
);
export const P_CPI = pool(
  "v2 USDT/TON",
  R_CPI,
  USDT,
  TON,
  poolState({
    type: "v2_constant_product",
    reserve0: 6_100_000_000_000n,
    reserve1: 2_000_000_000_000_000n,
    lpSupply: 100_000_000_000_000n,
    lpFeeBps: 20n,
    protocolFeeBps: 10n,
  }),
);
export const P_STABLE = pool(
  "v2 USDT/USDC",
  R_STABLE,
  USDT,
  USDC,
  poolState({
    type: "v2_stableswap",
    reserve0: 5_000_000_000_000n,
    reserve1: 4_900_000_000_000n,
    lpSupply: 9_900_000_000_000n,
    lpFeeBps: 5n,
    protocolFeeBps: 5n,
    amp: 100n,
  }),
);
export const P_WCPI = pool(
  "v2 STON/USDT",
  R_WCPI,
  STON,
  USDT,
  poolState({
    type: "v2_weighted_const_product",
    reserve0: 1_000_000_000_000_000n,
    reserve1: 250_000_000_000n,
    lpSupply: 10_000_000_000_000n,
    lpFeeBps: 25n,
    protocolFeeBps: 5n,
    w0: 800_000_000_000_000_000n,
  }),
);
// Parameters of test/vectors/amm v2_weighted_stableswap/swap/0000.
export const P_WSTABLE = pool(
  "v2 tsTON/TON",
  R_WSTABLE,
  TSTON,
  TON,
  poolState({
    type: "v2_weighted_stableswap",
    reserve0: 482_767_445n,
    reserve1: 91_822_368_039n,
    lpSupply: 6_657_991_439n,
    lpFeeBps: 82n,
    protocolFeeBps: 69n,
    amp: 1_000_000_000_000_000_000_000n,
    rate: 8_259_726_603_575_184n,
    w0: 496_569_923_947_108_330n,
  }),
);
export const POOLS = [P_V1, P_CPI, P_STABLE, P_WCPI, P_WSTABLE];

/** A live v2 pool the store has not seen: only the fake chain knows it (the chain-fallback path). */
export const CHAIN_ONLY_POOL = raw("pool only on chain: v2 TON/STON");
export const CHAIN_ONLY_STATE = poolState({
  type: "v2_constant_product",
  reserve0: 300_000_000_000_000n,
  reserve1: 900_000_000_000_000n,
  lpSupply: 500_000_000_000_000n,
  lpFeeBps: 30n,
  protocolFeeBps: 10n,
});

export const TRACE = loadTrace("v2-jetton-to-jetton.json");
export const TRACE_ROOT = TRACE.txs.find((t) => t.in_msg?.source === null) ?? TRACE.txs[0]!;

/** A jetton transfer from WALLET with a query id small enough for the TS client's `queryId: number`. */
export const WALLET_QUERY_ID = 777n;
export const WALLET_TX: RawTransaction = {
  version: "raw-tx.v1",
  mc_seqno: 1,
  shard: null,
  block_seqno: null,
  hash: "ab".repeat(32),
  lt: "46000000000001",
  now: TRACE_ROOT.now,
  account: WALLET,
  aborted: false,
  compute: { success: true, exit_code: 0 },
  action: { success: true, result_code: 0 },
  in_msg: null,
  out_msgs: [
    {
      hash: "cd".repeat(32),
      source: WALLET,
      destination: raw("wallet W's USDT wallet"),
      value: "100000000",
      fwd_fee: "1000",
      bounce: true,
      bounced: false,
      created_lt: "46000000000002",
      created_at: TRACE_ROOT.now,
      opcode: 0x0f8a7ea5,
      body_boc: beginCell()
        .storeUint(0x0f8a7ea5, 32)
        .storeUint(WALLET_QUERY_ID, 64)
        .endCell()
        .toBoc()
        .toString("base64"),
    },
  ],
};
