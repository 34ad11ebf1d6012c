/**
 * The API under test: the in-memory read model filled with the fixtures (plus a wallet's operations, LP
 * position, fee vault and swap), the fake chain, a fixed clock, served on an ephemeral port.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiListener } from "../../../api/app.ts";
import type { ApiDeps } from "../../../api/deps.ts";
import { handleClientError } from "../../../api/errors.ts";
import { friendly } from "../../../api/mappers/common.ts";
import type { OperationRecord } from "../../../api/read-model.ts";
import { type MemoryData, MemoryReadModel } from "../../../api/read-model-memory.ts";
import type { StatsReadModel } from "../../../api/read-model-stats.ts";
import { fakeChain } from "./fixture-chain.ts";
import {
  ASSETS,
  P_CPI,
  P_V1,
  POOLS,
  R_CPI,
  ROUTERS,
  raw,
  TON,
  TRACE,
  TRACE_ROOT,
  USDT,
  WALLET,
  WALLET_TX,
} from "./fixtures.ts";

export const T0 = 1_726_000_000;
/** "Now" for the API: one minute after the recorded trace, so its transactions are within the lookup window. */
export const NOW_MS = (TRACE_ROOT.now + 60) * 1000;
export const SWAP_QUERY_ID = 42n;

const hash = (n: number) => n.toString(16).padStart(64, "0");

function operation(type: OperationRecord["type"], n: number, pool = P_V1): OperationRecord {
  return {
    type,
    poolTxHash: hash(n),
    poolTxLt: 45_000_000_000_000n + BigInt(n),
    poolTxTime: T0 + n * 100,
    pool: pool.address,
    router: pool.router,
    dexVersion: pool === P_V1 ? 1 : 2,
    destinationWallet: WALLET,
    success: true,
    exitCode: type === "Swap" ? "swap_ok" : "ok",
    asset0: pool.token0,
    asset1: pool.token1,
    amount0: 1_000_000_000n,
    amount1: 2_990_000n,
    delta0: 1_000_000_000n,
    delta1: -2_990_000n,
    reserve0: pool.state.reserve0,
    reserve1: pool.state.reserve1,
    lpTokenDelta: type === "AddLiquidity" ? 5000n : 0n,
    lpTokenSupply: pool.state.lpSupply,
    feeAsset: type === "Swap" ? pool.token1 : null,
    lpFee: 2_000_000n,
    protocolFee: 3000n,
    referralFee: 0n,
    referral: null,
    wallet: WALLET,
    walletTxHash: hash(1000 + n),
    walletTxLt: 44_999_999_999_000n + BigInt(n),
    walletTxTime: T0 + n * 100 - 5,
  };
}

export function memoryData(): MemoryData {
  return {
    routers: ROUTERS,
    assets: ASSETS,
    pools: POOLS,
    operations: [operation("Swap", 1), operation("AddLiquidity", 2, P_CPI), operation("Swap", 3, P_CPI)],
    lpPositions: [
      {
        wallet: WALLET,
        pool: P_CPI.address,
        lpWallet: null,
        lpBalance: 1_000_000n,
        lpAccount: null,
        lpAccountAmount0: 0n,
        lpAccountAmount1: 0n,
      },
    ],
    feeVaults: [
      {
        owner: WALLET,
        vault: raw("fee vault of W for USDT"),
        router: R_CPI.address,
        asset: USDT,
        balance: 12_345n,
      },
    ],
    transactions: [...TRACE.txs, WALLET_TX],
    walletSeqnos: { [TRACE_ROOT.account]: 7 },
    // The export feed: one block with the first swap (TON in, USDT out) and the pool's reserves after it.
    feedHead: { mcSeqno: 1, utime: T0 + 100 },
    feedEvents: [
      {
        block: { mcSeqno: 1, utime: T0 + 100 },
        txHash: hash(1),
        lt: 45_000_000_000_001n,
        id: `${hash(1)}:swap`,
        pool: P_V1.address,
        asset0: TON,
        asset1: USDT,
        kind: "swap",
        swapIn: 0,
        amount0: 1_000_000_000n,
        amount1: 2_990_000n,
        reserve0: P_V1.state.reserve0,
        reserve1: P_V1.state.reserve1,
        maker: WALLET,
        decimals0: 9,
        decimals1: 6,
      },
    ],
    swaps: [
      {
        router: R_CPI.address,
        wallet: WALLET,
        queryId: SWAP_QUERY_ID,
        exitCode: "swap_ok",
        coins: 2_990_000n,
        lt: 45_000_000_000_003n,
        txHash: hash(3),
        balanceDeltas: new Map([
          [TON, -1_000_000_000n],
          [USDT, 2_990_000n],
        ]),
      },
    ],
  };
}

export const silentLogger = { error: () => {}, warn: () => {}, info: () => {} };

/**
 * Statistics of a store without rollup rows: zero counts, empty lists. The routes' shapes and validation
 * are tested over it; the figures themselves over ClickHouse (test/integration/stats-devnet.test.ts).
 */
export const EMPTY_STATS: StatsReadModel = {
  dexTotals: async () => ({
    trades: 0,
    not_executed: 0,
    unique_wallets: 0,
    volume_usd: 0,
    untracked_volume_usd: 0,
    lp_fee_usd: 0,
    volume_usd_unknown: 0,
  }),
  dexWallets: async () => 0,
  poolStats: async () => [],
  poolSides: async () => [],
  operations: async () => [],
  referralAccruals: async () => [],
  referrerAssets: async () => [],
  withdrawals: async () => [],
  candles: async () => [],
  lastClose: async () => null,
};

export function testDeps(overrides: Partial<ApiDeps> = {}): ApiDeps {
  return {
    data: new MemoryReadModel(memoryData()),
    stats: EMPTY_STATS,
    chain: fakeChain(),
    clock: () => NOW_MS,
    logger: silentLogger,
    ...overrides,
  };
}

export type RunningApi = { baseURL: string; server: Server; close: () => Promise<void> };

export async function startApi(deps: ApiDeps = testDeps()): Promise<RunningApi> {
  // As a server mounts it: behind the response memo when `deps.responseMemo` is set.
  const server = createServer(apiListener(deps).listener);
  server.on("clientError", handleClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** Raw JSON request (status and parsed body) for the schema checks and error tests. */
export async function request(
  api: RunningApi,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(`${api.baseURL}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

export const f = friendly;
