/**
 * One valid request per route and alias of the API (api.md §2 rows 1–12, 16–25, 29–31), with the zod
 * schema its response must satisfy. Used by the schema test, the fuzz test and the OpenAPI test.
 */
import { Cell } from "@ton/core";
import type { z } from "zod";
import { assetListResponse, assetResponse, assetV2ListResponse } from "../../../schemas/api/assets.ts";
import {
  eventsResponse,
  assetResponse as feedAssetResponse,
  latestBlockResponse,
  pairResponse,
} from "../../../schemas/api/dexscreener.ts";
import {
  cmcResponse,
  geckoPairsResponse,
  geckoTickersResponse,
  geckoTradesResponse,
} from "../../../schemas/api/markets.ts";
import { ohlcvResponse } from "../../../schemas/api/ohlcv.ts";
import { poolListResponse, poolResponse } from "../../../schemas/api/pools.ts";
import {
  jettonAddressResponse,
  marketsResponse,
  routerListResponse,
  routerResponse,
} from "../../../schemas/api/reference.ts";
import { liquiditySimulateResponse, swapSimulateResponse } from "../../../schemas/api/simulate.ts";
import {
  dexStatsResponse,
  feeAccrualsResponse,
  feeStatsResponse,
  feeWithdrawalsResponse,
  poolStatsResponse,
} from "../../../schemas/api/stats.ts";
import {
  actionTreeResponse,
  swapStatusResponse,
  txQueryResponse,
} from "../../../schemas/api/transactions.ts";
import { dexTvlResponse, poolTvlResponse } from "../../../schemas/api/tvl.ts";
import {
  feeVaultsResponse,
  lastTransactionsResponse,
  operationsResponse,
} from "../../../schemas/api/wallets.ts";
import { P_CPI, P_V1, R_CPI, STON, TON, TRACE_ROOT, USDT, WALLET } from "./fixtures.ts";
import { f, SWAP_QUERY_ID, T0 } from "./harness.ts";

/** The query id of the trace's first outgoing message (the wallet's jetton transfer). */
export function traceQueryId(): bigint {
  const body = TRACE_ROOT.out_msgs[0]?.body_boc ?? "";
  const s = Cell.fromBase64(body).beginParse();
  s.skip(32);
  return s.loadUintBig(64);
}

export type RouteCase = {
  method: "GET" | "POST";
  /** OpenAPI path template, as /openapi.json lists it. */
  template: string;
  path: string;
  body?: unknown;
  schema: z.ZodTypeAny;
};

const w = f(WALLET);
const time = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
const swapQuery = `offer_address=${f(TON)}&ask_address=${f(USDT)}&units=1000000000&slippage_tolerance=0.01`;
const liquidityQuery = `provision_type=Balanced&token_a=${f(TON)}&token_b=${f(USDT)}&token_a_units=1000000000&pool_address=${f(P_CPI.address)}&slippage_tolerance=0.01&wallet_address=${w}`;
const opsQuery = `since=${time(T0)}&until=${time(T0 + 1000)}&op_type=Swap`;
const txQuery = `wallet_address=${f(TRACE_ROOT.account)}&query_id=${traceQueryId()}`;
const catalog = { condition: "asset:popular | asset:essential", search_terms: ["USD"], limit: 10 };

export const ROUTE_CASES: RouteCase[] = [
  { method: "GET", template: "/v1/routers", path: "/v1/routers?dex_v2=true", schema: routerListResponse },
  {
    method: "GET",
    template: "/v1/routers/{address}",
    path: `/v1/routers/${f(R_CPI.address)}`,
    schema: routerResponse,
  },
  { method: "GET", template: "/v1/markets", path: "/v1/markets", schema: marketsResponse },
  { method: "GET", template: "/v1/assets", path: "/v1/assets", schema: assetListResponse },
  { method: "GET", template: "/v1/assets/{address}", path: `/v1/assets/${f(USDT)}`, schema: assetResponse },
  {
    method: "POST",
    template: "/v1/assets/query",
    path: "/v1/assets/query",
    body: { ...catalog, wallet_address: w },
    schema: assetV2ListResponse,
  },
  {
    method: "POST",
    template: "/v1/assets/search",
    path: "/v1/assets/search?search_string=STON&condition=asset:popular",
    schema: assetV2ListResponse,
  },
  {
    method: "GET",
    template: "/v1/jetton/{address}/address",
    path: `/v1/jetton/${f(USDT)}/address?owner_address=${w}`,
    schema: jettonAddressResponse,
  },
  { method: "GET", template: "/v1/pools", path: "/v1/pools", schema: poolListResponse },
  {
    method: "GET",
    template: "/v1/pools/{address}",
    path: `/v1/pools/${f(P_V1.address)}`,
    schema: poolResponse,
  },
  {
    method: "GET",
    template: "/v1/pools/by_market/{asset0}/{asset1}",
    path: `/v1/pools/by_market/${f(TON)}/${f(USDT)}`,
    schema: poolListResponse,
  },
  {
    method: "POST",
    template: "/v1/pools/query",
    path: "/v1/pools/query?condition=asset:popular&search_term=TON&dex_v2=true",
    schema: poolListResponse,
  },
  {
    method: "POST",
    template: "/v1/pools/query",
    path: "/v1/pools/query",
    body: { condition: "!deprecated", search_terms: ["STON"] },
    schema: poolListResponse,
  },
  {
    method: "POST",
    template: "/v1/pool/query",
    path: "/v1/pool/query?condition=asset:essential",
    schema: poolListResponse,
  },
  {
    method: "POST",
    template: "/v1/swap/simulate",
    path: `/v1/swap/simulate?${swapQuery}`,
    schema: swapSimulateResponse,
  },
  {
    method: "POST",
    template: "/v1/reverse_swap/simulate",
    path: `/v1/reverse_swap/simulate?${swapQuery}`,
    schema: swapSimulateResponse,
  },
  {
    method: "POST",
    template: "/v1/liquidity_provision/simulate",
    path: `/v1/liquidity_provision/simulate?${liquidityQuery}`,
    schema: liquiditySimulateResponse,
  },
  {
    method: "GET",
    template: "/v1/swap/status",
    path: `/v1/swap/status?router_address=${f(R_CPI.address)}&owner_address=${w}&query_id=${SWAP_QUERY_ID}`,
    schema: swapStatusResponse,
  },
  {
    method: "GET",
    template: "/v1/transactions/query",
    path: `/v1/transactions/query?${txQuery}`,
    schema: txQueryResponse,
  },
  {
    method: "POST",
    template: "/v1/transaction/query",
    path: "/v1/transaction/query",
    body: { ext_msg_hash: TRACE_ROOT.in_msg?.hash },
    schema: txQueryResponse,
  },
  {
    method: "GET",
    template: "/v1/transactions/{hash}/action_tree",
    path: `/v1/transactions/${TRACE_ROOT.hash}/action_tree`,
    schema: actionTreeResponse,
  },
  {
    method: "POST",
    template: "/v1/transaction/action_tree",
    path: `/v1/transaction/action_tree?hash=${TRACE_ROOT.hash}`,
    schema: actionTreeResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/assets",
    path: `/v1/wallets/${w}/assets`,
    schema: assetListResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/assets/{asset}",
    path: `/v1/wallets/${w}/assets/${f(USDT)}`,
    schema: assetResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/pools",
    path: `/v1/wallets/${w}/pools`,
    schema: poolListResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/pools/{pool}",
    path: `/v1/wallets/${w}/pools/${f(P_CPI.address)}`,
    schema: poolResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/operations",
    path: `/v1/wallets/${w}/operations?${opsQuery}`,
    schema: operationsResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/transactions/last",
    path: `/v1/wallets/${f(TRACE_ROOT.account)}/transactions/last?limit=5`,
    schema: lastTransactionsResponse,
  },
  {
    method: "GET",
    template: "/v1/wallets/{wallet}/fee_vaults",
    path: `/v1/wallets/${w}/fee_vaults`,
    schema: feeVaultsResponse,
  },
  ...statsCases(`since=${time(T0)}&until=${time(T0 + 1000)}`, w),
  ohlcvCase(f(P_CPI.address)),
  ...tvlCases(f(P_CPI.address)),
  ...["/export/dexscreener/v1", "/export/aggregator_b/v1"].flatMap((base): RouteCase[] => [
    {
      method: "GET",
      template: `${base}/latest-block`,
      path: `${base}/latest-block`,
      schema: latestBlockResponse,
    },
    {
      method: "GET",
      template: `${base}/asset/{address}`,
      path: `${base}/asset/${f(USDT)}`,
      schema: feedAssetResponse,
    },
    {
      method: "GET",
      template: `${base}/pair/{address}`,
      path: `${base}/pair/${f(P_V1.address)}`,
      schema: pairResponse,
    },
    {
      method: "GET",
      template: `${base}/events`,
      path: `${base}/events?fromBlock=0&toBlock=1`,
      schema: eventsResponse,
    },
  ]),
  ...["/export/cmc/v1", "/export/aggregator_a/v1"].map(
    (path): RouteCase => ({ method: "GET", template: path, path, schema: cmcResponse }),
  ),
  {
    method: "GET",
    template: "/export/coingecko/v1/pairs",
    path: "/export/coingecko/v1/pairs",
    schema: geckoPairsResponse,
  },
  {
    method: "GET",
    template: "/export/coingecko/v1/tickers",
    path: "/export/coingecko/v1/tickers",
    schema: geckoTickersResponse,
  },
  {
    method: "GET",
    template: "/export/coingecko/v1/historical_trades",
    path: `/export/coingecko/v1/historical_trades?ticker_id=${f(P_CPI.address)}&limit=10`,
    schema: geckoTradesResponse,
  },
];

/** The statistics routes for a window (`since=…&until=…`) and a referrer (also used by the devnet tests). */
export function statsCases(window: string, referrer: string): RouteCase[] {
  const get = (route: string, query: string, schema: z.ZodTypeAny): RouteCase => ({
    method: "GET",
    template: `/v1/stats/${route}`,
    path: `/v1/stats/${route}?${query}`,
    schema,
  });
  const ref = `${window}&referrer_address=${referrer}`;
  return [
    get("dex", window, dexStatsResponse),
    get("pool", window, poolStatsResponse),
    get("operations", window, operationsResponse),
    get("fees", ref, feeStatsResponse),
    get("fee_accruals", ref, feeAccrualsResponse),
    get("fee_withdrawals", ref, feeWithdrawalsResponse),
  ];
}

/** Candles of a pool: 4-hour intervals with the empty ones filled. */
export function ohlcvCase(pool: string): RouteCase {
  return {
    method: "GET",
    template: "/v1/pools/{address}/ohlcv",
    path: `/v1/pools/${pool}/ohlcv?timeframe=hour&aggregate=4&limit=50&include_empty_intervals=true`,
    schema: ohlcvResponse,
  };
}

/** TVL history, DEX-wide and of a pool (tondex extensions): hourly points over the default window. */
export function tvlCases(pool: string): RouteCase[] {
  return [
    { method: "GET", template: "/v1/stats/tvl", path: "/v1/stats/tvl?interval=hour", schema: dexTvlResponse },
    {
      method: "GET",
      template: "/v1/pools/{address}/tvl",
      path: `/v1/pools/${pool}/tvl?interval=hour`,
      schema: poolTvlResponse,
    },
  ];
}

/** Every query/body parameter name the API knows (the fuzz test draws keys from these). */
export const PARAM_NAMES = [
  "dex_v2",
  "owner_address",
  "condition",
  "search_term",
  "search_terms",
  "search_string",
  "unconditional_asset",
  "unconditional_assets",
  "wallet_address",
  "sort_by",
  "limit",
  "offer_address",
  "ask_address",
  "units",
  "slippage_tolerance",
  "referral_address",
  "referral_fee_bps",
  "dex_version",
  "pool_address",
  "provision_type",
  "token_a",
  "token_b",
  "token_a_units",
  "token_b_units",
  "router_address",
  "query_id",
  "ext_msg_hash",
  "min_tx_timestamp",
  "hash",
  "tx_hash",
  "since",
  "until",
  "referrer_address",
  "timeframe",
  "aggregate",
  "before_timestamp",
  "currency",
  "token",
  "include_empty_intervals",
  "op_type",
  "interval",
];

/** Addresses and values a fuzzed request may use, valid and not. */
export const SAMPLE_VALUES = [
  f(TON),
  f(USDT),
  f(STON),
  f(P_CPI.address),
  f(R_CPI.address),
  w,
  TON,
  USDT.toLowerCase(),
  "EQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4TiUt",
  "UQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4TiUt",
  TRACE_ROOT.hash,
  "1000000000",
  "0",
  "-1",
  "1e9",
  "0.01",
  "2",
  "101",
  "true",
  "false",
  "Swap",
  "Initial",
  "Balanced",
  "Arbitrary",
  "asset:popular",
  "!(",
  "2024-08-05T12:00:00",
  "",
  "null",
  "%00",
  "💥",
  "9".repeat(60),
  "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a",
];
