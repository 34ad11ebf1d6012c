/**
 * A local stand-in for toncenter's index API v3, speaking its wire format (ingest/mainnet/wire.ts cites the
 * ton-index-go models it follows), serving masterchain blocks built from the recorded mainnet traces
 * (test/vectors/mainnet-traces) at their real `mc_block_seqno`s, with injectable faults.
 *
 * What is recorded and what is made up, so nobody mistakes the stand-in for the chain:
 * - recorded: every trace transaction, its messages (bodies, StateInits, hashes), statuses, lt, now, mc and
 *   shard block seqnos, the trace id;
 * - made up (the recordings do not hold them): one masterchain tick transaction per block (every real mc
 *   block has tick-tock transactions, so no served block is empty), shard ids (`8000000000000000`), the
 *   utime of blocks between recorded ones (interpolated), `prev_trans_hash/lt` (a placeholder hash and lt-1)
 *   and each trace's compute `success` (exit code 0 or 1, as the replay source assumes).
 *
 * Endpoints: masterchainInfo, transactionsByMasterchainBlock (limit/offset/sort, 422 over `maxLimit` with
 * ton-index-go's message), blocks (workchain=-1&start_utime&sort=asc&limit=1, for --from-time).
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Cell } from "@ton/core";
import type { TraceFile } from "../../../schemas/trace-file.ts";

/** The public API's answer over its rate limit (infra.md §3.2, docs.ton.org/ecosystem/api/toncenter/rate-limit). */
export const RATE_LIMIT_BODY = { ok: false, result: "Ratelimit exceed", code: 429 } as const;

const ELECTOR = `-1:${"3".repeat(64)}`;
const BASECHAIN_SHARD = "8000000000000000";

export type Fault =
  | { kind: "429"; retryAfterSeconds?: number }
  | { kind: "5xx"; status?: number }
  /** No answer at all: the client's timeout has to fire. */
  | { kind: "timeout" }
  /** The connection is cut before an answer. */
  | { kind: "reset" }
  /** The block answers no transactions (a replica behind the head). */
  | { kind: "empty" };

export type StandinRequest = { path: string; query: URLSearchParams; n: number };

export type StandinOptions = {
  /** Recorded traces to serve. */
  traces: readonly TraceFile[];
  /** Highest block served (masterchainInfo.last); default the highest recorded. */
  head?: number;
  /** Lowest block known (masterchainInfo.first); default the lowest recorded. */
  first?: number;
  /** Added before every answer. */
  latencyMs?: number;
  /** Server-side limit: requests beyond it get 429 with the real body. */
  requestsPerSecond?: number;
  /** ton-index-go's MaxLimit (default 1000). */
  maxLimit?: number;
  /** Further endpoints (e.g. runGetMethod answers), by path: the JSON answer and its status. */
  routes?: Record<
    string,
    (request: { query: URLSearchParams; body: string }) => { status: number; body: unknown }
  >;
  /**
   * Requests this answers itself (returns true) bypass the stand-in: e.g. `chainStateRoutes(...).handle` of
   * test/helpers/toncenter/chain-state.ts for get-method answers. It sees the request before its body is read.
   */
  mount?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Decides a fault per request (n = 0-based request number), or none. */
  faults?: (request: StandinRequest) => Fault | null;
};

export type Standin = {
  url: string;
  /** Requests by path, and the transactions pages served per block seqno. */
  readonly stats: {
    requests: number;
    byPath: Map<string, number>;
    faults: Map<string, number>;
    /** Transaction pages answered per block seqno. */
    pages: Map<number, number>;
  };
  setHead(seqno: number): void;
  close(): Promise<void>;
};

type V3Tx = Record<string, unknown> & { lt: string; account: string; mc_block_seqno: number; now: number };

const b64 = (hex: string) => Buffer.from(hex, "hex").toString("base64");
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const cellHash = (boc: string) => Cell.fromBase64(boc).hash().toString("base64");

type TraceTx = TraceFile["transactions"][number];
type TraceMsg = NonNullable<TraceTx["in_msg"]>;

function v3Message(m: TraceMsg) {
  const init = typeof m.init_state_boc === "string" ? m.init_state_boc : null;
  return {
    hash: m.hash,
    source: m.source,
    destination: m.destination,
    value: m.value,
    value_extra_currencies: {},
    fwd_fee: m.fwd_fee,
    ihr_fee: m.source === null ? null : "0",
    extra_flags: null,
    created_lt: m.created_lt,
    created_at: m.created_at === null ? null : String(m.created_at),
    opcode: m.opcode === null ? null : `0x${m.opcode.slice(2).padStart(8, "0").toLowerCase()}`,
    decoded_opcode: null,
    ihr_disabled: m.source === null ? null : true,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: null,
    message_content: { hash: cellHash(m.body_boc), body: m.body_boc, decoded: null },
    init_state: init === null ? null : { hash: cellHash(init), body: init, decoded: null },
  };
}

function v3TransactionOf(tx: TraceTx, traceId: string | null): V3Tx {
  const exit = tx.compute_exit_code;
  const hashHex = Buffer.from(tx.hash, "base64").toString("hex");
  const extra = tx as TraceTx & { destroyed?: boolean; total_fees?: string };
  return {
    account: tx.account,
    hash: tx.hash,
    lt: tx.lt,
    now: tx.now,
    mc_block_seqno: tx.mc_block_seqno,
    ...(traceId === null ? {} : { trace_id: traceId }),
    prev_trans_hash: b64(sha(`standin:prev:${hashHex}`)),
    prev_trans_lt: (BigInt(tx.lt) - 1n).toString(),
    orig_status: tx.orig_status ?? "active",
    end_status: tx.end_status ?? "active",
    total_fees: extra.total_fees ?? "0",
    total_fees_extra_currencies: {},
    description: {
      type: "ord",
      aborted: tx.aborted,
      destroyed: extra.destroyed ?? false,
      credit_first: true,
      compute_ph:
        exit === null
          ? { skipped: true, reason: "no_state" }
          : { skipped: false, success: exit === 0 || exit === 1, exit_code: exit },
    },
    block_ref: {
      workchain: Number(tx.account.split(":")[0]),
      shard: BASECHAIN_SHARD,
      seqno: tx.block_seqno ?? 0,
    },
    in_msg: tx.in_msg === null ? null : v3Message(tx.in_msg),
    out_msgs: tx.out_msgs.map(v3Message),
    account_state_before: null,
    account_state_after: null,
    emulated: false,
    finality: "finalized",
  };
}

/** The made-up tick transaction of the elector every served block carries. */
function tickOf(seqno: number, utime: number): V3Tx {
  const hash = b64(sha(`standin:tick:${seqno}`));
  return {
    account: ELECTOR,
    hash,
    lt: (BigInt(seqno) * 1_000_000n).toString(),
    now: utime,
    mc_block_seqno: seqno,
    trace_id: hash,
    prev_trans_hash: b64(sha(`standin:tick:${seqno - 1}`)),
    prev_trans_lt: (BigInt(seqno - 1) * 1_000_000n).toString(),
    orig_status: "active",
    end_status: "active",
    total_fees: "0",
    total_fees_extra_currencies: {},
    description: {
      type: "tick_tock",
      is_tock: false,
      aborted: false,
      compute_ph: { skipped: false, success: true, exit_code: 0 },
      action: { success: true, result_code: 0 },
    },
    block_ref: { workchain: -1, shard: BASECHAIN_SHARD, seqno },
    in_msg: null,
    out_msgs: [],
    account_state_before: null,
    account_state_after: null,
    emulated: false,
    finality: "finalized",
  };
}

/** The recorded blocks: seqno → v3 transactions (tick first added later), ordered by lt then account. */
export function recordedBlocks(traces: readonly TraceFile[]): Map<number, V3Tx[]> {
  const blocks = new Map<number, V3Tx[]>();
  for (const trace of traces) {
    const traceId = (trace as { trace?: { trace_id?: string } }).trace?.trace_id ?? null;
    for (const tx of trace.transactions) {
      const list = blocks.get(tx.mc_block_seqno) ?? [];
      list.push(v3TransactionOf(tx, traceId));
      blocks.set(tx.mc_block_seqno, list);
    }
  }
  return blocks;
}

const byLtAccount = (a: V3Tx, b: V3Tx) => {
  const x = BigInt(a.lt);
  const y = BigInt(b.lt);
  return x < y ? -1 : x > y ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
};

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const recorded = recordedBlocks(options.traces);
  const seqnos = [...recorded.keys()].sort((a, b) => a - b);
  const known = seqnos.map((s) => [s, Math.max(...recorded.get(s)!.map((t) => t.now))] as const);
  let head = options.head ?? seqnos.at(-1) ?? 1;
  const first = options.first ?? seqnos[0] ?? 1;
  const maxLimit = options.maxLimit ?? 1000;

  /** A block's utime: the recorded one, else interpolated between its recorded neighbours (3 s/block outside). */
  const utimeOf = (seqno: number): number => {
    let lo = 0;
    let hi = known.length; // first index with known[i].seqno >= seqno
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (known[mid]![0] < seqno) lo = mid + 1;
      else hi = mid;
    }
    const after = known[lo];
    const before = known[lo - 1];
    if (after && after[0] === seqno) return after[1];
    if (before && after) {
      return Math.floor(before[1] + ((after[1] - before[1]) * (seqno - before[0])) / (after[0] - before[0]));
    }
    if (before) return before[1] + 3 * (seqno - before[0]);
    if (after) return after[1] - 3 * (after[0] - seqno);
    return 1_700_000_000 + 3 * seqno;
  };
  /** The first block at or after a unix time (utimes never decrease with seqno). */
  const firstAtOrAfter = (unixTime: number): number | null => {
    let lo = first;
    let hi = head + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (utimeOf(mid) < unixTime) lo = mid + 1;
      else hi = mid;
    }
    return lo <= head ? lo : null;
  };
  const blockTxs = (seqno: number): V3Tx[] =>
    [tickOf(seqno, utimeOf(seqno)), ...(recorded.get(seqno) ?? [])].sort(byLtAccount);
  const blockJson = (seqno: number) => ({
    workchain: -1,
    shard: BASECHAIN_SHARD,
    seqno,
    root_hash: b64(sha(`standin:root:${seqno}`)),
    file_hash: b64(sha(`standin:file:${seqno}`)),
    gen_utime: String(utimeOf(seqno)),
    start_lt: (BigInt(seqno) * 1_000_000n).toString(),
    end_lt: (BigInt(seqno) * 1_000_000n + 1n).toString(),
  });

  const stats = {
    requests: 0,
    byPath: new Map<string, number>(),
    faults: new Map<string, number>(),
    pages: new Map<number, number>(),
  };
  let nextFree = 0;
  const intervalMs = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  const answer = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (options.latencyMs) setTimeout(send, options.latencyMs);
    else send();
  };
  const error = (res: ServerResponse, status: number, message: string) =>
    answer(res, status, { error: message, code: status });

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? "/", "http://standin");
    const n = stats.requests++;
    stats.byPath.set(url.pathname, (stats.byPath.get(url.pathname) ?? 0) + 1);
    if (intervalMs > 0) {
      // A strict server-side limit, a little tolerant of arrival jitter (as a per-second window would be).
      const now = Date.now();
      if (now < nextFree - intervalMs * 0.5) {
        stats.faults.set("rate_limited", (stats.faults.get("rate_limited") ?? 0) + 1);
        return answer(res, 429, RATE_LIMIT_BODY);
      }
      nextFree = Math.max(nextFree, now) + intervalMs;
    }
    const fault = options.faults?.({ path: url.pathname, query: url.searchParams, n }) ?? null;
    if (fault) stats.faults.set(fault.kind, (stats.faults.get(fault.kind) ?? 0) + 1);
    if (fault?.kind === "429") {
      const headers: Record<string, string> =
        fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
      return answer(res, 429, RATE_LIMIT_BODY, headers);
    }
    if (fault?.kind === "5xx") return error(res, fault.status ?? 503, "service unavailable");
    if (fault?.kind === "timeout") return; // never answered; the client gives up
    if (fault?.kind === "reset") return req.socket.destroy();

    switch (url.pathname) {
      case "/api/v3/masterchainInfo":
        return answer(res, 200, { last: blockJson(head), first: blockJson(first) });
      case "/api/v3/transactionsByMasterchainBlock": {
        const seqno = Number(url.searchParams.get("seqno"));
        const limit = Number(url.searchParams.get("limit") ?? "10");
        const offset = Number(url.searchParams.get("offset") ?? "0");
        if (limit > maxLimit) return error(res, 422, `limit is not allowed: ${limit} > ${maxLimit}`);
        if (!Number.isInteger(seqno) || seqno > head || seqno < first || fault?.kind === "empty") {
          return answer(res, 200, { transactions: [], address_book: {} });
        }
        stats.pages.set(seqno, (stats.pages.get(seqno) ?? 0) + 1);
        let txs = blockTxs(seqno);
        if (url.searchParams.get("sort") !== "asc") txs = txs.reverse();
        return answer(res, 200, { transactions: txs.slice(offset, offset + limit), address_book: {} });
      }
      case "/api/v3/blocks": {
        const seqno = firstAtOrAfter(Number(url.searchParams.get("start_utime")));
        return answer(res, 200, { blocks: seqno === null ? [] : [blockJson(seqno)] });
      }
      default: {
        const route = options.routes?.[url.pathname];
        if (route === undefined) return error(res, 404, `no route ${url.pathname}`);
        const out = route({ query: url.searchParams, body });
        return answer(res, out.status, out.body);
      }
    }
  };

  const server: Server = createServer((req, res) => {
    if (options.mount?.(req, res)) return;
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => handle(req, res, body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    setHead: (seqno) => {
      head = seqno;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
