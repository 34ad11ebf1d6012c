/**
 * `SOURCE=mainnet`: follows TON's masterchain through toncenter's index API v3 (wire.ts) and yields, per
 * masterchain block, every shard transaction it commits (v3's transactionsByMasterchainBlock includes the
 * gap shard blocks), as RawTransactions.
 *
 * Order and completeness: blocks are fetched up to `concurrency` at a time but yielded strictly in seqno
 * order, each exactly once; a block is fetched only once the API's head (masterchainInfo `last`) has reached
 * it, all of its pages are read, and a block that answers no transaction at all is "not there yet" (a
 * load-balanced replica behind the head: every real masterchain block has at least its tick-tock
 * transactions) and is asked again. Retryable failures (429, 5xx, timeouts, network) are retried without
 * end, with back-off and a log line; anything else stops the source, except a single transaction v3 answers
 * in a shape the mapping cannot take: that one travels in its block as a RejectedRecord (stored as malformed). The consumer's cursor (stored with
 * the facts) is the resume point, so the cursor only ever covers blocks this generator yielded.
 */
import type { ChainState } from "../../dex/chain-state.ts";
import { errorMessage, isRetryable, NonRetryableError, RetryableError } from "../../infra/errors.ts";
import type { Logger } from "../../infra/log.ts";
import { backoffDelayMs, sleep as realSleep } from "../../infra/retry.ts";
import { type ToncenterClient, ToncenterHttpError } from "../../infra/toncenter/client.ts";
import {
  formatZodError,
  type RawTransaction,
  type RejectedRecord,
  rejectedRecord,
} from "../../schemas/raw-transaction.ts";
import type { Source } from "../source.ts";
import { rawTransactionFromV3 } from "./map.ts";
import { type FetchedBlock, StonfiTraceFilter } from "./stonfi-filter.ts";
import {
  V3_MAX_LIMIT,
  V3_PATHS,
  v3Blocks,
  v3MasterchainInfo,
  v3Transaction,
  v3TransactionsPage,
} from "./wire.ts";

/** Where to begin when there is no cursor; with a cursor, the later of the two wins. */
export type StartPoint = { seqno: number } | { unixTime: number } | "head";

export type MainnetSourceOptions = {
  readonly client: ToncenterClient;
  readonly start: StartPoint;
  /** Last block to yield (a backfill); null follows the chain forever. */
  readonly to?: number | null;
  /** Blocks fetched in parallel (yielded in order). */
  readonly concurrency: number;
  /** How often the head is polled once the source has caught up. */
  readonly pollMs: number;
  /** Page size of transactionsByMasterchainBlock (lowered by itself if the server's maximum is smaller). */
  readonly pageLimit?: number;
  /** "stonfi": only the transactions of traces touching STON.fi (stonfi-filter.ts); "all": everything. */
  readonly filter: "stonfi" | "all";
  /** Blocks the STON.fi filter looks ahead (and behind, on a resume). */
  readonly lookaheadBlocks: number;
  readonly chainState?: ChainState | null;
  readonly logger?: Logger;
  /** Called with the head each time it is read (lag metric). */
  readonly onHead?: (seqno: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
};

/** Outer retry of a whole block after the client's own retries gave up: 1 s doubling, capped at 30 s. */
const BLOCK_RETRY = {
  retries: Number.POSITIVE_INFINITY,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 2,
};

export type MainnetSource = Source & { readonly name: "mainnet" };

export function createMainnetSource(options: MainnetSourceOptions): MainnetSource {
  const { client } = options;
  const to = options.to ?? null;
  const sleep = options.sleep ?? realSleep;
  let head: number | null = null;
  let pageLimit = Math.min(options.pageLimit ?? V3_MAX_LIMIT, V3_MAX_LIMIT);

  /** The API's first indexed masterchain block (a self-hosted indexer starts somewhere). */
  let firstIndexed = 1;
  const readHead = async (): Promise<number> => {
    const info = await client.get(V3_PATHS.masterchainInfo, {}, v3MasterchainInfo);
    firstIndexed = info.first.seqno;
    head = Math.max(head ?? 0, info.last.seqno);
    options.onHead?.(head);
    return head;
  };

  const firstAtTime = async (unixTime: number): Promise<number> => {
    const answer = await client.get(
      V3_PATHS.blocks,
      { workchain: -1, start_utime: unixTime, sort: "asc", limit: 1 },
      v3Blocks,
    );
    const block = answer.blocks[0];
    if (block === undefined)
      throw new NonRetryableError(`no masterchain block at or after unix time ${unixTime}`);
    return block.seqno;
  };

  const firstBlock = async (after: number): Promise<number> => {
    const start = options.start;
    const from =
      start === "head"
        ? null
        : "seqno" in start
          ? start.seqno
          : await patiently(() => firstAtTime(start.unixTime));
    if (after > 0) return Math.max(after + 1, from ?? 0);
    return from ?? (await patiently(readHead));
  };

  /** Retries retryable failures without end (the client already backed off); others propagate. */
  const patiently = async <T>(fn: () => Promise<T>, what = "toncenter", signal?: AbortSignal): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (!isRetryable(error) || signal?.aborted) throw error;
        const delayMs = backoffDelayMs(BLOCK_RETRY, Math.min(attempt, 20), Math.random);
        options.logger?.warn(
          { what, attempt, delayMs, err: errorMessage(error) },
          "chain API unavailable, retrying",
        );
        await sleep(delayMs);
      }
    }
  };

  /** Every page of one block; a 422 naming a smaller maximum page size lowers it and starts the block again. */
  const readBlock = async (seqno: number): Promise<FetchedBlock | null> => {
    for (;;) {
      const limit = pageLimit;
      try {
        const byHash = new Map<string, { tx: RawTransaction; traceId: string | null }>();
        const rejected = new Map<string, RejectedRecord>();
        for (let offset = 0; ; ) {
          const page = await client.get(
            V3_PATHS.transactionsByMasterchainBlock,
            { seqno, limit, offset, sort: "asc" },
            v3TransactionsPage,
          );
          if (page.transactions.length === 0 && offset > 0) {
            // After full pages, an empty one is the end of a block whose size is a multiple of the page
            // size — or a load-balanced replica that does not have the block yet. One that has it answers
            // the block's last transaction alone at `offset - 1`; anything else reads the block again.
            const last = await client.get(
              V3_PATHS.transactionsByMasterchainBlock,
              { seqno, limit, offset: offset - 1, sort: "asc" },
              v3TransactionsPage,
            );
            if (last.transactions.length !== 1)
              throw new RetryableError(
                `block ${seqno}: an empty page at offset ${offset} is not the block's end`,
              );
            break;
          }
          for (const [i, item] of page.transactions.entries()) {
            const mapped = mapOne(item, seqno, `toncenter:block ${seqno}[${offset + i}]`);
            if ("version" in mapped) rejected.set(mapped.raw, mapped);
            else byHash.set(mapped.tx.hash, mapped);
          }
          offset += page.transactions.length;
          if (page.transactions.length < limit) break;
        }
        if (byHash.size === 0 && rejected.size === 0) return null;
        return blockOf(seqno, [...byHash.values()], [...rejected.values()]);
      } catch (error) {
        const max = smallerMaxLimit(error, limit);
        if (max === null) throw error;
        options.logger?.info(
          { from: limit, to: max },
          "toncenter page limit lowered to the server's maximum",
        );
        pageLimit = max;
      }
    }
  };

  const fetchBlock = async (seqno: number, signal: AbortSignal): Promise<FetchedBlock> => {
    for (let waits = 1; ; waits++) {
      const block = await patiently(() => readBlock(seqno), `block ${seqno}`, signal);
      if (block !== null) return block;
      if (signal.aborted) throw new Error("stopped");
      if (waits % 10 === 0)
        options.logger?.warn({ seqno, waits }, "masterchain block still has no transactions");
      await sleep(options.pollMs);
    }
  };

  return {
    name: "mainnet",
    head: () => head,
    chainState: options.chainState ?? null,
    async *blocks(after: number, signal?: AbortSignal) {
      const stop = new AbortController();
      const abort = () => stop.abort();
      signal?.addEventListener("abort", abort, { once: true });
      const inflight = new Map<number, Promise<FetchedBlock>>();
      try {
        const first = await firstBlock(after);
        if (head === null) await patiently(readHead);
        if (first < firstIndexed) {
          throw new NonRetryableError(
            `masterchain block ${first} is before the first block the API has indexed (${firstIndexed})`,
          );
        }
        const filter = options.filter === "stonfi" ? new StonfiTraceFilter(options.lookaheadBlocks) : null;
        // The STON.fi traces still open before the first block are learnt first (nothing is yielded), so
        // their later transactions are kept on a resume or a start in the middle of the chain.
        if (filter !== null && (to === null || first <= to)) {
          for (let s = Math.max(firstIndexed, first - options.lookaheadBlocks); s < first; s++) {
            filter.learn(await fetchBlock(s, stop.signal));
          }
        }
        let next = first;
        let scheduled = first;
        for (;;) {
          if (stop.signal.aborted) return;
          if (to !== null && next > to) break;
          const known = head ?? (await patiently(readHead));
          const last = to === null ? known : Math.min(known, to);
          while (inflight.size < options.concurrency && scheduled <= last) {
            const promise = fetchBlock(scheduled, stop.signal);
            promise.catch(() => undefined); // awaited in order below; never an unhandled rejection
            inflight.set(scheduled++, promise);
          }
          const pending = inflight.get(next);
          if (pending === undefined) {
            // Caught up with the head: wait for the chain to move.
            await sleep(options.pollMs);
            if (stop.signal.aborted) return;
            await patiently(readHead, "head", stop.signal).catch((error: unknown) => {
              if (!stop.signal.aborted) throw error;
            });
            continue;
          }
          let fetched: FetchedBlock;
          try {
            fetched = await pending;
          } catch (error) {
            if (stop.signal.aborted) return; // stopping: what was not yielded is not published
            throw error;
          }
          inflight.delete(next++);
          if (filter === null) yield fetched.block;
          else for (const block of filter.push(fetched)) yield block;
        }
        if (filter !== null) for (const block of filter.flush()) yield block;
      } finally {
        stop.abort();
        signal?.removeEventListener("abort", abort);
      }
    },
  };
}

/**
 * One transaction of a page: mapped, or — when v3 answered it in a shape the mapping cannot take — a
 * RejectedRecord that travels in the block and is stored as malformed (never a crash, never a silent drop).
 * A transaction of another masterchain block means the API itself is inconsistent: that stops the source.
 */
function mapOne(
  item: unknown,
  seqno: number,
  origin: string,
): { tx: RawTransaction; traceId: string | null } | RejectedRecord {
  const parsed = v3Transaction.safeParse(item);
  const reject = (reason: string) => rejectedRecord(reason, JSON.stringify(item), origin, seqno);
  if (!parsed.success) return reject(`toncenter transaction: ${formatZodError(parsed.error).join("; ")}`);
  if (parsed.data.mc_block_seqno !== seqno) {
    throw new NonRetryableError(
      `toncenter block ${seqno}: transaction ${parsed.data.hash} has mc_block_seqno ${parsed.data.mc_block_seqno}`,
    );
  }
  try {
    return rawTransactionFromV3(parsed.data);
  } catch (error) {
    return reject(errorMessage(error));
  }
}

/** A block's transactions in (lt, account) order, v3's own order, with their trace ids beside them. */
function blockOf(
  seqno: number,
  items: { tx: RawTransaction; traceId: string | null }[],
  rejected: RejectedRecord[],
): FetchedBlock {
  items.sort((a, b) => {
    const x = BigInt(a.tx.lt);
    const y = BigInt(b.tx.lt);
    return x < y ? -1 : x > y ? 1 : a.tx.account < b.tx.account ? -1 : a.tx.account > b.tx.account ? 1 : 0;
  });
  const transactions = items.map((i) => i.tx);
  const utime = transactions.reduce((m, tx) => Math.max(m, tx.now), 0);
  return { block: { mc_seqno: seqno, utime, transactions, rejected }, traceIds: items.map((i) => i.traceId) };
}

/** ton-index-go answers `limit is not allowed: N > MAX` (422) when N exceeds its configured maximum. */
function smallerMaxLimit(error: unknown, limit: number): number | null {
  if (!(error instanceof ToncenterHttpError) || error.status !== 422) return null;
  const match = /limit is not allowed: \d+ > (\d+)/.exec(error.apiMessage);
  const max = match ? Number(match[1]) : Number.NaN;
  return max >= 1 && max < limit ? max : null;
}
