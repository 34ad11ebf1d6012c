/**
 * The API over real devnet data, in one process: a devnet driven block by block by the test, the embedded
 * pipeline (chdb, in-process bus) indexing every block, and `createApp` over the ClickHouse read model, the
 * pipeline's hot cache and the devnet's ChainState, served on an ephemeral port (bin/server.ts wiring).
 *
 * The pipeline reads a `PushSource`: blocks the test pushes as the devnet produces them, never ending until
 * `close()`. So the test decides what happens between blocks: run the market, stop it (drain blocks carry
 * no new user actions), simulate through the API, send its own SDK-built messages, let them settle, and
 * wait until the pipeline has stored and cached every pushed transaction (`settle()`), exactly as a live
 * `tondex start` would see the chain. The clock of the API is the devnet's (its utime is in 2023).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { StonApiClient } from "@ston-fi/api";
import { Address, Cell } from "@ton/core";
import { poolStateCache } from "../../api/pool-state-cache.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { pricedReadModel } from "../../api/read-model-priced.ts";
import { ClickHouseStatsReadModel } from "../../api/read-model-stats.ts";
import { loadConfig, TEST_ENV } from "../../bin/config.ts";
import { type Pipeline, startPipeline } from "../../bin/pipeline.ts";
import { pricingConfigOf } from "../../bin/pricing.ts";
import type { ChainState } from "../../dex/chain-state.ts";
import { applyLibraryPatches } from "../../infra/library-patches/index.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics, type Metrics } from "../../infra/metrics.ts";
import type { DevnetBlock } from "../../ingest/devnet/chain/chain.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { Devnet } from "../../ingest/devnet/devnet.ts";
import { TON_SYMBOL } from "../../ingest/devnet/sim/catalog.ts";
import type { PoolHandle } from "../../ingest/devnet/sim/pools.ts";
import type { Source, SourceBlock } from "../../ingest/source.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { toRawAddress } from "../../schemas/ton.ts";
import { type RunningApi, silentLogger, startApi } from "../unit/api/harness.ts";

/** A live source fed by the test: `blocks()` waits for pushed blocks until `end()`. */
export class PushSource implements Source {
  readonly name = "devnet";
  readonly #queue: SourceBlock[] = [];
  #wake: (() => void) | null = null;
  #ended = false;
  #head: number | null = null;

  constructor(readonly chainState: ChainState) {}

  push(block: SourceBlock): void {
    this.#queue.push(block);
    this.#head = block.mc_seqno;
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  head(): number | null {
    return this.#head;
  }

  async *blocks(after: number, signal?: AbortSignal): AsyncIterable<SourceBlock> {
    const onAbort = () => this.#wake?.();
    signal?.addEventListener("abort", onAbort);
    try {
      for (;;) {
        const block = this.#queue.shift();
        if (block !== undefined) {
          if (block.mc_seqno > after) yield block;
          continue;
        }
        if (this.#ended || signal?.aborted) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = null;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

export type ApiDevnet = {
  devnet: Devnet;
  pipeline: Pipeline;
  api: RunningApi;
  client: StonApiClient;
  /** Every block produced so far, and their ground truth (what the contracts executed). */
  blocks: DevnetBlock[];
  truth: TruthRecord[];
  /** Warnings the pipeline logged (e.g. "pool state check failed"). */
  warnings: { msg?: string }[];
  /** Produces blocks without new market actions until nothing is in flight, then waits for the index. */
  settle(): Promise<DevnetBlock[]>;
  /** Produces `blocks` more market blocks and pushes them to the pipeline, without waiting for the index. */
  market(blocks: number): Promise<DevnetBlock[]>;
  close(): Promise<void>;
};

const PROCESS_TIMEOUT_MS = 120_000;

async function processed(metrics: Metrics): Promise<number> {
  return (await metrics.transactionsProcessed.get()).values[0]?.value ?? 0;
}

/**
 * Bootstraps the devnet (mints, pool parameters, first liquidity), runs `marketBlocks` market blocks,
 * lets everything settle and waits until the pipeline has indexed it all.
 */
export async function startApiDevnet(options: {
  seed: number;
  marketBlocks: number;
  actionsPerBlock?: number;
  /** Serve the catalogue's USD fields as `tondex start` does (bin/server.ts: api/read-model-priced.ts). */
  pricing?: boolean;
  /** Chain seconds per block (Devnet `blockSeconds`); default the devnet's 5. */
  blockSeconds?: number;
}): Promise<ApiDevnet> {
  applyLibraryPatches(["parse", "build"]);
  const dir = await mkdtemp(join(tmpdir(), "tondex-api-devnet-"));
  const devnet = new Devnet({
    seed: options.seed,
    actionsPerBlock: options.actionsPerBlock ?? 24,
    ...(options.blockSeconds !== undefined ? { blockSeconds: options.blockSeconds } : {}),
  });
  const source = new PushSource(devnet.state);
  const warnings: { msg?: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line.trim() !== "") warnings.push(JSON.parse(line));
      done();
    },
  });
  const metrics = createMetrics();
  const config = loadConfig(
    { ...TEST_ENV, DATA_DIR: dir, BATCH_MAX_RECORDS: "5000", BATCH_MAX_MS: "10" },
    [],
  );
  const pipeline = await startPipeline(config, {
    logger: createLogger({ level: "warn", destination: sink }),
    metrics,
    source,
  });
  const api = await startApi({
    data:
      options.pricing === true
        ? pricedReadModel(new ClickHouseReadModel(pipeline.store), {
            pricing: pricingConfigOf(config, devnet.world),
          })
        : new ClickHouseReadModel(pipeline.store),
    stats: new ClickHouseStatsReadModel(pipeline.store),
    cache: poolStateCache(pipeline.poolStates),
    ...(options.pricing === true ? { pricing: pricingConfigOf(config, devnet.world) } : {}),
    chain: devnet.state,
    // "Now" is the devnet's: the transaction lookup windows are relative to it.
    clock: () => (devnet.world.chain.utime + 1) * 1000,
    logger: silentLogger,
    // As `tondex start` serves it: repeated quotes from the memo until the next committed batch.
    responseMemo: { version: pipeline.dataVersion, ttlMs: 1000 },
  });
  const blocks: DevnetBlock[] = [];
  const truth: TruthRecord[] = [];
  let pushed = 0;
  const push = (block: DevnetBlock) => {
    blocks.push(block);
    truth.push(...block.truth);
    pushed += block.transactions.length;
    source.push({ mc_seqno: block.mc_seqno, utime: block.utime, transactions: block.transactions });
    return block;
  };
  const settle = async (): Promise<DevnetBlock[]> => {
    const out: DevnetBlock[] = [];
    for (let i = 0; devnet.pending > 0; i++) {
      if (i > 100) throw new Error("the devnet did not settle within 100 blocks");
      out.push(push(devnet.drainBlock()));
    }
    // A stall, not a slow machine, fails the run: the deadline moves on with every transaction processed.
    let done = await processed(metrics);
    let deadline = Date.now() + PROCESS_TIMEOUT_MS;
    while (done < pushed) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const now = await processed(metrics);
      if (now > done) {
        done = now;
        deadline = Date.now() + PROCESS_TIMEOUT_MS;
      } else if (Date.now() > deadline) {
        throw new Error(
          `the pipeline processed ${now} of ${pushed} transactions and none in ${PROCESS_TIMEOUT_MS / 1000} s`,
        );
      }
    }
    return out;
  };
  while (devnet.market === null) push(await devnet.nextBlock());
  for (let i = 0; i < options.marketBlocks; i++) push(await devnet.nextBlock());
  await settle();
  return {
    devnet,
    pipeline,
    api,
    client: new StonApiClient({ baseURL: api.baseURL }),
    blocks,
    truth,
    warnings,
    settle,
    async market(n) {
      const out: DevnetBlock[] = [];
      for (let i = 0; i < n; i++) out.push(push(await devnet.nextBlock()));
      return out;
    },
    async close() {
      source.end();
      await pipeline.done.catch(() => undefined);
      await api.close();
      await pipeline.store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// ---- helpers over the devnet ----------------------------------------------------------------------

export const TON_ADDRESS = "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c";

/** The API address of a devnet asset: the jetton master, or the zero address for TON. */
export function assetAddress(devnet: Devnet, symbol: string): string {
  return symbol === TON_SYMBOL ? TON_ADDRESS : fr(devnet.actions.master(symbol));
}

/** Bounceable URL-safe form, as every API response writes addresses. */
export const fr = (a: Address): string => a.toString({ bounceable: true, urlSafe: true, testOnly: false });

/** Raw form as the facts store it (`0:HEX`). */
export const rawOf = toRawAddress;

/** `YYYY-MM-DDTHH:MM:SS` of a unix time, as the API takes it. */
export const apiTime = (unix: number): string => new Date(unix * 1000).toISOString().slice(0, 19);

/** The query id of a message body that carries one after its op code (jetton transfer, pTON transfer). */
export function bodyQueryId(bodyBoc: string): bigint | null {
  const s = Cell.fromBase64(bodyBoc).beginParse();
  if (s.remainingBits < 96) return null;
  s.skip(32);
  return s.loadUintBig(64);
}

/** The wallet transaction that sent a message with this query id (the swap's first transaction). */
export function walletTxOf(
  blocks: readonly DevnetBlock[],
  wallet: Address,
  queryId: bigint,
): RawTransaction | undefined {
  const account = rawOf(wallet);
  for (const b of blocks) {
    for (const tx of b.transactions) {
      if (tx.account.toUpperCase() !== account) continue;
      if (tx.out_msgs.some((m) => m.destination !== null && bodyQueryId(m.body_boc) === queryId)) return tx;
    }
  }
  return undefined;
}

/** Truth fields as plain values: addresses raw, everything else as is. */
export function truthField(r: TruthRecord, field: string): unknown {
  const v = r.fields[field];
  return v instanceof Address ? rawOf(v) : v;
}

export const poolLabel = (p: PoolHandle): string => `${p.router} ${p.token0}/${p.token1}`;
