/**
 * SOURCE=mainnet end to end against the local toncenter v3 stand-in (test/helpers/toncenter/blocks.ts),
 * which serves the recorded mainnet traces at their real mc_block_seqnos with injected faults: `tondex
 * backfill` over each trace's range (one of them killed half-way and run again), then `tondex start`
 * following on from the cursor, end with the same operations as `tondex replay` of the same files.
 * The stand-in is a recording, not the chain (its header lists what it makes up). It also answers get-methods
 * and account states (test/helpers/toncenter/chain-state.ts), so the run adds what the replay cannot know: asset
 * metadata, and the state of every pool the traces meet already active (its data cell, with made-up reserves
 * and the pool's identity as the traces show it, as of the pool's last recorded transaction).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Address, beginCell } from "@ton/core";
import test from "ava";
import { MAINNET_PRICING, MAINNET_USDT } from "../../dex/pricing/index.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { selectFacts } from "../../infra/store/facts-reader.ts";
import { poolDataCell as v1DataCell } from "../../ingest/devnet/contracts/stonfi-v1/storage.ts";
import { poolDataCell as v2DataCell } from "../../ingest/devnet/contracts/stonfi-v2/storage.ts";
import type { FactTableName, PoolRow, PoolStateRow } from "../../schemas/facts.ts";
import { mainnetChainData, onchainContent, traceJettonWallets } from "../helpers/mainnet-chain-data.ts";
import { prng } from "../helpers/prng.ts";
import { type Fault, startStandin } from "../helpers/toncenter/blocks.ts";
import { chainStateHandlers, type GetMethodAnswer } from "../helpers/toncenter/chain-state.ts";
import { loadAllTraces } from "../helpers/traces.ts";

const exec = promisify(execFile);
const TONDEX = join(import.meta.dirname, "../../bin/tondex.mjs");
const OPERATION_TABLES: FactTableName[] = [
  "swaps",
  "swap_routes",
  "liquidity",
  "referral_fees",
  "vault_withdrawals",
  "routers",
];

/** get_jetton_data (TEP-74): supply, mintable, admin addr_none, on-chain content with this symbol, wallet code. */
const text = (s: string) => ({ type: "slice" as const, cell: beginCell().storeStringTail(s).endCell() });

const standInJettonData = (symbol: string) => ({
  stack: [
    { type: "int" as const, value: 10n ** 15n },
    { type: "int" as const, value: -1n },
    { type: "slice" as const, cell: beginCell().storeAddress(null).endCell() },
    { type: "cell" as const, cell: onchainContent({ symbol, decimals: "9" }) },
    { type: "cell" as const, cell: beginCell().endCell() },
  ],
});

type TraceInfo = { mc_seqno_start: number; mc_seqno_end: number };

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

async function readFacts<T>(dataDir: string, table: FactTableName): Promise<T[]> {
  const store: Store = await openStore({ clickhouseUrl: null, dataDir: join(dataDir, "clickhouse") });
  try {
    return (await selectFacts(store, table, {})) as T[];
  } finally {
    await store.close();
  }
}

/** What the stand-in says of a pool the replay knows no state of: its data cell, as of its last transaction. */
type ChainPool = { pool: string; type: PoolRow["pool_type"]; reserve0: bigint; reserve1: bigint; lt: bigint };

async function operations(dataDir: string): Promise<Record<string, string[]>> {
  const store: Store = await openStore({ clickhouseUrl: null, dataDir: join(dataDir, "clickhouse") });
  try {
    const out: Record<string, string[]> = {};
    for (const table of OPERATION_TABLES) {
      const rows = await selectFacts(store, table, {});
      out[table] = rows
        .map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v)))
        .sort();
    }
    return out;
  } finally {
    await store.close();
  }
}

test("backfill (with faults and a restart) then start: the same operations as replay of the same files", async (t) => {
  const traces = loadAllTraces();
  const dir = await mkdtemp(join(tmpdir(), "tondex-mainnet-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const quiet = { ...process.env, LOG_LEVEL: "warn", BATCH_MAX_MS: "5" };

  // The reference: tondex replay of the trace files, one process per file in chain order, as the backfills
  // below run one process per range (a restarted processor knows what its stored pool rows say of wallets'
  // masters, nothing more of what an earlier process learnt).
  const replayDir = join(dir, "replay");
  const inChainOrder = [...traces].sort(
    (a, b) => (a.file.trace as TraceInfo).mc_seqno_start - (b.file.trace as TraceInfo).mc_seqno_start,
  );
  for (const trace of inChainOrder) {
    await exec(process.execPath, [TONDEX, "replay", trace.path, "--data-dir", replayDir], { env: quiet });
  }
  const expected = await operations(replayDir);
  t.true(expected.swaps!.length >= traces.length, "the replay found the swaps");
  const replayPools = await readFacts<PoolRow>(replayDir, "pools");
  const replayStates = await readFacts<PoolStateRow>(replayDir, "pool_states");

  // The stand-in: 429 bursts with the real body, 5xx, timeouts, cut connections, empty replicas.
  const random = prng(15);
  let burst = 0;
  let startBurst = 0;
  const faults = (): Fault | null => {
    if (startBurst > 0) {
      startBurst--;
      return { kind: "429", retryAfterSeconds: 0 };
    }
    if (burst > 0) {
      burst--;
      return { kind: "429" };
    }
    const r = random();
    if (r < 0.02) {
      burst = 2;
      return { kind: "429" };
    }
    if (r < 0.04) return { kind: "5xx", status: 502 };
    if (r < 0.05) return { kind: "timeout" };
    if (r < 0.06) return { kind: "reset" };
    if (r < 0.09) return { kind: "empty" };
    return null;
  };
  const started = performance.now();
  const ranges = traces
    .map((x) => x.file.trace as TraceInfo)
    .sort((a, b) => a.mc_seqno_start - b.mc_seqno_start);
  const last = ranges.at(-1)!.mc_seqno_end;
  // Get-method answers too (test/helpers/mainnet-chain-data.ts): the router wallets' masters from the
  // traces' interfaces, and for each master a get_jetton_data whose on-chain content is the stand-in's own.
  const chain = mainnetChainData();
  const masters = [...new Set(traceJettonWallets().map((w) => w.jetton))];
  for (const [i, master] of masters.entries()) {
    const account = chain.accounts.get(master);
    if (account !== undefined) account.methods.get_jetton_data = standInJettonData(`STANDIN-${i}`);
  }
  // Every pool whose state the replay cannot know (met already active) gets an account state: its data cell
  // with made-up reserves and its identity from the replay, as of its last recorded transaction; v2 pools a
  // get_pool_type (constant_product: the stand-in's own claim, the recordings do not say).
  const chainPools: ChainPool[] = [];
  const txs = traces.flatMap((x) => x.file.transactions);
  for (const [i, p] of replayPools.entries()) {
    if (replayStates.some((s) => s.pool === p.pool)) continue;
    const last = txs
      .filter((x) => x.account === p.pool)
      .reduce((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? b : a));
    const [reserve0, reserve1] = [10n ** 12n + BigInt(i), 3n * 10n ** 12n + BigInt(i)];
    const at = (raw: string | null) => Address.parseRaw(raw!);
    const code = beginCell().endCell();
    const common = {
      router: at(p.router),
      token0: at(p.token0_wallet),
      token1: at(p.token1_wallet),
      reserve0,
      reserve1,
    };
    const data =
      p.dex === "v1"
        ? v1DataCell({
            ...common,
            lpFee: 20,
            protocolFee: 10,
            refFee: 10,
            totalSupply: 10n ** 12n,
            collected0: 0n,
            collected1: 0n,
            protocolFeeAddress: new Address(0, Buffer.alloc(32)),
            lpWalletCode: code,
            lpAccountCode: code,
          })
        : v2DataCell({
            ...common,
            type: "constant_product",
            isLocked: false,
            totalSupplyLp: 10n ** 12n,
            collected0: 0n,
            collected1: 0n,
            protocolFeeAddress: null,
            lpFee: 20,
            protocolFee: 10,
            amp: 0n,
            rate: 0n,
            w0: 0n,
            rateSetter: null,
          });
    const lastTransaction = {
      lt: BigInt(last.lt),
      hashHex: Buffer.from(last.hash, "base64").toString("hex"),
      utime: last.now,
      mcSeqno: last.mc_block_seqno,
    };
    const methods: Record<string, GetMethodAnswer> =
      p.dex === "v1" ? {} : { get_pool_type: { stack: [text("constant_product")] } };
    chain.accounts.set(p.pool, { data, lastTransaction, methods });
    chainPools.push({
      pool: p.pool,
      type: p.pool_type ?? "v2_constant_product",
      reserve0,
      reserve1,
      lt: lastTransaction.lt,
    });
  }
  t.true(chainPools.length >= 5, `pools with a chain state: ${chainPools.length}`);

  const standin = await startStandin({
    traces: traces.map((x) => x.file),
    head: last,
    faults,
    routes: chainStateHandlers(chain.accounts),
  });
  t.teardown(() => standin.close());
  const dataDir = join(dir, "mainnet");
  const env = {
    ...quiet,
    TON_API_URL: standin.url,
    TON_API_RPS: "400",
    TON_API_TIMEOUT_MS: "300",
    MAINNET_POLL_MS: "50",
    DATA_DIR: dataDir,
  };

  // One backfill per trace range; the longest one is killed half-way and run again (it resumes).
  const longest = ranges.reduce((a, b) =>
    b.mc_seqno_end - b.mc_seqno_start > a.mc_seqno_end - a.mc_seqno_start ? b : a,
  );
  for (const range of ranges) {
    const args = [
      TONDEX,
      "backfill",
      "--from",
      String(range.mc_seqno_start),
      "--to",
      String(range.mc_seqno_end),
    ];
    if (range === longest) {
      const child: ChildProcess = spawn(process.execPath, args, { env, stdio: "ignore" });
      const before = standin.stats.requests;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (standin.stats.requests - before > 40 || child.exitCode !== null) {
            clearInterval(timer);
            resolve();
          }
        }, 10);
      });
      child.kill("SIGKILL");
      await once(child, "exit").catch(() => undefined);
    }
    const { stdout, stderr } = await exec(process.execPath, args, { env });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      finished: boolean;
      lastMcSeqno: number;
    };
    t.true(result.finished, stderr);
    t.is(result.lastMcSeqno, range.mc_seqno_end);
    t.regex(stderr, /blocks\/s/);
  }
  for (const kind of ["429", "5xx", "timeout", "reset", "empty"]) {
    t.true((standin.stats.faults.get(kind) ?? 0) > 0, `fault ${kind} injected`);
  }

  t.log(`backfills done in ${Math.round(performance.now() - started)} ms`);

  // tondex start follows on from the cursor: exactly the blocks after the last backfill are asked for.
  // Its first two requests meet a 429 and it may ask 20 per second, so the metrics have retries and
  // rate-limit waits to show.
  standin.stats.pages.clear();
  standin.setHead(last + 5);
  startBurst = 2;
  const port = await freePort();
  const server = spawn(process.execPath, [TONDEX, "start"], {
    env: { ...env, SOURCE: "mainnet", PORT: String(port), MAINNET_FILTER: "all", TON_API_RPS: "20" },
    stdio: "ignore",
  });
  t.teardown(() => void server.kill("SIGKILL"));
  let metrics = "";
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 100));
    metrics = await fetch(`http://127.0.0.1:${port}/metrics`)
      .then((r) => r.text())
      .catch(() => "");
    if (/tondex_transactions_processed_total 5\b/.test(metrics) && /tondex_lag_blocks 0\b/.test(metrics))
      break;
  }
  t.deepEqual(
    [...standin.stats.pages.keys()].sort((a, b) => a - b),
    [1, 2, 3, 4, 5].map((i) => last + i),
  );
  t.regex(metrics, /tondex_transactions_processed_total 5\b/);
  t.regex(metrics, new RegExp(`tondex_source_head_mc_seqno ${last + 5}\\b`));
  t.regex(
    metrics,
    /tondex_api_requests_total\{endpoint="\/api\/v3\/transactionsByMasterchainBlock",outcome="200"\} \d+/,
  );
  t.regex(metrics, /tondex_lag_blocks 0\b/, "caught up: no lag");
  t.regex(metrics, /tondex_api_retries_total\{endpoint="[^"]+",reason="429"\} [1-9]/);
  const waited = /^tondex_api_rate_limit_wait_seconds_total (\S+)$/m.exec(metrics)?.[1];
  t.true(Number(waited) > 0, `rate-limit waits: ${waited}`);
  server.kill("SIGTERM");
  await once(server, "exit");

  // What only the chain says shows in the operations too: an operation at a pool's last transaction (the lt
  // its state was read at) carries the reserves after it, and USD values are priced from the pool states the
  // chain gave (the replay knows none); everything else equals the replay.
  const got = await operations(dataDir);
  // The fees' USD values from the chain's pool states, at their own transactions: USD₮ at face value (6
  // decimals); MAJOR at the marginal price of the MAJOR/USD₮ pool's chain state (its only quote pool, deep
  // enough for high confidence); the TON fee unknown, never 0 (no TON/USD pool among the traces').
  const fees = (got.referral_fees ?? []).map(
    (text) =>
      JSON.parse(text) as { pool: string; asset_master: string; amount: string; amount_usd: number | null },
  );
  const backfillPools = new Map((await readFacts<PoolRow>(dataDir, "pools")).map((p) => [p.pool, p]));
  const usdt = fees.filter((f) => f.asset_master === MAINNET_USDT);
  const ton = fees.filter((f) => MAINNET_PRICING.tonAliases.includes(f.asset_master));
  const other = fees.filter((f) => !usdt.includes(f) && !ton.includes(f));
  t.deepEqual([usdt.length, ton.length, other.length], [1, 1, 1]);
  t.is(usdt[0]?.amount_usd, Number(usdt[0]?.amount) / 1e6);
  t.is(ton[0]?.amount_usd, null);
  const charged = chainPools.find((c) => c.pool === other[0]?.pool);
  const quoteIs0 = backfillPools.get(other[0]?.pool ?? "")?.token0_master === MAINNET_USDT;
  t.truthy(charged, "the fee's pool has a chain state");
  const [rq, rx] = quoteIs0 ? [charged!.reserve0, charged!.reserve1] : [charged!.reserve1, charged!.reserve0];
  const want = (Number(other[0]?.amount) * (Number(rq) / 1e6)) / Number(rx);
  t.true(Math.abs((other[0]?.amount_usd ?? 0) - want) <= 1e-9 * want, `${other[0]?.amount_usd} ≉ ${want}`);
  const withoutUsd = (row: Record<string, unknown>) =>
    "volume_usd" in row
      ? { ...row, volume_usd: null, untracked_volume_usd: null, lp_fee_usd: null }
      : "amount_usd" in row
        ? { ...row, amount_usd: null }
        : row;
  for (const [table, rows] of Object.entries(expected)) {
    expected[table] = rows.map((text) => JSON.stringify(withoutUsd(JSON.parse(text))));
  }
  let withReserves = 0;
  for (const [table, rows] of Object.entries(got)) {
    got[table] = rows.map((text) => {
      const row = withoutUsd(JSON.parse(text) as Record<string, unknown>);
      if (row.reserve0_after === null || row.reserve0_after === undefined) return JSON.stringify(row);
      const c = chainPools.find((x) => x.pool === row.pool);
      t.deepEqual(
        [row.reserve0_after, row.reserve1_after],
        [`${c?.reserve0}`, `${c?.reserve1}`],
        `${table} ${row.id}: reserves after, from the chain's state`,
      );
      withReserves++;
      return JSON.stringify({ ...row, reserve0_after: null, reserve1_after: null });
    });
  }
  t.true(withReserves > 0, "operations at the read lts carry the chain's reserves");
  t.deepEqual(got, expected);

  // pools: the replay's identity, and from the chain each pool's type and its state at its last transaction
  const pools = new Map((await readFacts<PoolRow>(dataDir, "pools")).map((p) => [p.pool, p]));
  for (const r of replayPools) {
    const p = pools.get(r.pool);
    t.deepEqual(
      [p?.dex, p?.router, p?.token0_wallet, p?.token1_wallet],
      [r.dex, r.router, r.token0_wallet, r.token1_wallet],
    );
  }
  const states = await readFacts<PoolStateRow>(dataDir, "pool_states");
  for (const c of chainPools) {
    t.is(pools.get(c.pool)?.pool_type, c.type, c.pool);
    const at = states.filter((s) => s.pool === c.pool && s.lt === c.lt);
    t.deepEqual(
      at.map((s) => [s.reserve0, s.reserve1]),
      [[c.reserve0, c.reserve1]],
      `${c.pool}: the chain's state at its last transaction`,
    );
  }

  // plus what only the chain says: asset metadata from the get-method answers
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dataDir, "clickhouse") });
  try {
    const assets = new Map((await selectFacts(store, "assets", {})).map((a) => [a.address, a]));
    for (const [i, master] of masters.entries()) {
      // a read that met an injected fault stays unknown (null), never wrong
      if (assets.has(master))
        t.true([`STANDIN-${i}`, null].includes(assets.get(master)?.symbol ?? null), master);
    }
    t.true(
      masters.some((m) => assets.get(m)?.symbol?.startsWith("STANDIN-")),
      "metadata read from the chain",
    );
  } finally {
    await store.close();
  }
});
