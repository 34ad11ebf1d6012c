/**
 * The mainnet source against the local toncenter v3 stand-in serving the recorded mainnet traces at their
 * real mc_block_seqnos: the same transactions as the replay mapping, every block once and in order under
 * injected faults, the start points, page-limit discovery and the STON.fi filter.
 */
import test from "ava";
import { ToncenterClient } from "../../../../infra/toncenter/client.ts";
import { createMainnetSource, type MainnetSourceOptions } from "../../../../ingest/mainnet/source.ts";
import type { SourceBlock } from "../../../../ingest/source.ts";
import type { RawTransaction, RejectedRecord } from "../../../../schemas/raw-transaction.ts";
import { prng } from "../../../helpers/prng.ts";
import { type Fault, type StandinOptions, startStandin } from "../../../helpers/toncenter/blocks.ts";
import { loadAllTraces, loadTrace } from "../../../helpers/traces.ts";

const traces = loadAllTraces();
const fastRetry = { retries: 3, initialDelayMs: 1, maxDelayMs: 4, factor: 2 };

async function setup(
  t: { teardown(fn: () => unknown): void },
  standin: Omit<StandinOptions, "traces"> & { traces?: StandinOptions["traces"] },
  source: Partial<MainnetSourceOptions> = {},
) {
  const server = await startStandin({ traces: traces.map((x) => x.file), ...standin });
  t.teardown(() => server.close());
  const client = new ToncenterClient({
    url: server.url,
    requestsPerSecond: 10_000,
    burst: 50,
    timeoutMs: 150,
    retry: fastRetry,
  });
  const mainnet = createMainnetSource({
    client,
    start: "head",
    concurrency: 4,
    pollMs: 5,
    filter: "all",
    lookaheadBlocks: 16,
    sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
    ...source,
  });
  return { server, mainnet };
}

async function collect(blocks: AsyncIterable<SourceBlock>): Promise<SourceBlock[]> {
  const out: SourceBlock[] = [];
  for await (const b of blocks) out.push(b);
  return out;
}

/** The fields the recorded traces hold, as the replay mapping gives them. */
const comparable = (tx: RawTransaction) => ({
  mc_seqno: tx.mc_seqno,
  block_seqno: tx.block_seqno,
  hash: tx.hash,
  lt: tx.lt,
  now: tx.now,
  account: tx.account,
  aborted: tx.aborted,
  compute: tx.compute,
  in_msg: tx.in_msg,
  out_msgs: tx.out_msgs,
  orig_status: tx.orig_status,
  end_status: tx.end_status,
});

const ELECTOR = `-1:${"3".repeat(64)}`;

test("every trace: the source yields the replay mapping's transactions, bodies and StateInits included", async (t) => {
  for (const trace of traces) {
    const { mc_seqno_start: from, mc_seqno_end: to } = trace.file.trace as {
      mc_seqno_start: number;
      mc_seqno_end: number;
    };
    const { mainnet } = await setup(t, {}, { start: { seqno: from }, to });
    const blocks = await collect(mainnet.blocks(0));
    t.deepEqual(
      blocks.map((b) => b.mc_seqno),
      Array.from({ length: to - from + 1 }, (_, i) => from + i),
      trace.name,
    );
    const txs = blocks.flatMap((b) => b.transactions).filter((tx) => tx.account !== ELECTOR);
    const expected = [...trace.txs].sort(
      (a, b) => a.mc_seqno - b.mc_seqno || Number(BigInt(a.lt) - BigInt(b.lt)),
    );
    t.deepEqual(txs.map(comparable), expected.map(comparable), trace.name);
    for (const tx of txs) {
      t.regex(tx.shard ?? "", /^0:8000000000000000$/);
      t.regex(tx.prev_trans_lt ?? "", /^\d+$/);
    }
    t.true(
      txs.some(
        (tx) => tx.in_msg?.init_boc !== undefined || tx.out_msgs.some((m) => m.init_boc !== undefined),
      ) || !trace.file.transactions.some((x) => x.out_msgs.some((m) => m.init_state_boc !== undefined)),
      `${trace.name}: StateInits carried`,
    );
  }
});

test("under 429 bursts, 5xx, timeouts, cut connections, empty replicas and 3-item pages: every block once, in order, complete", async (t) => {
  const trace = loadTrace("mixed-dedust-coffee-stonfi-v2.json");
  const { mc_seqno_start: from, mc_seqno_end: to } = trace.file.trace as {
    mc_seqno_start: number;
    mc_seqno_end: number;
  };
  const random = prng(7);
  let burst = 0;
  // Each kind at least once early on, then at random.
  const forced: Record<number, Fault> = {
    2: { kind: "timeout" },
    4: { kind: "reset" },
    6: { kind: "empty" },
    8: { kind: "5xx", status: 500 },
    10: { kind: "429", retryAfterSeconds: 0 },
  };
  const faults = ({ n }: { n: number }): Fault | null => {
    if (forced[n]) return forced[n];
    if (burst > 0) {
      burst--;
      return { kind: "429" };
    }
    const r = random();
    if (r < 0.05) {
      burst = 4;
      return { kind: "429" };
    }
    if (r < 0.1) return { kind: "5xx", status: 502 };
    if (r < 0.13) return { kind: "timeout" };
    if (r < 0.16) return { kind: "reset" };
    if (r < 0.22) return { kind: "empty" };
    return null;
  };
  const { mainnet, server } = await setup(t, { faults }, { start: { seqno: from }, to, pageLimit: 3 });
  const blocks = await collect(mainnet.blocks(0));
  t.deepEqual(
    blocks.map((b) => b.mc_seqno),
    Array.from({ length: to - from + 1 }, (_, i) => from + i),
  );
  const hashes = blocks.flatMap((b) =>
    b.transactions.filter((x) => x.account !== ELECTOR).map((x) => x.hash),
  );
  t.deepEqual(new Set(hashes).size, hashes.length, "no duplicate");
  t.deepEqual([...hashes].sort(), trace.txs.map((x) => x.hash).sort());
  for (const kind of ["429", "5xx", "timeout", "reset", "empty"])
    t.true((server.stats.faults.get(kind) ?? 0) > 0, kind);
});

test("start points: head, --from-time, and a stored cursor (which wins over an earlier --from-seqno)", async (t) => {
  const trace = loadTrace("v1-jetton-to-ton.json");
  const info = trace.file.trace as { mc_seqno_start: number; mc_seqno_end: number; start_utime: number };
  const { mainnet: atHead } = await setup(t, { head: info.mc_seqno_end }, { to: info.mc_seqno_end });
  t.deepEqual(
    (await collect(atHead.blocks(0))).map((b) => b.mc_seqno),
    [info.mc_seqno_end],
  );
  const { mainnet: byTime } = await setup(
    t,
    {},
    { start: { unixTime: info.start_utime }, to: info.mc_seqno_start + 1 },
  );
  t.deepEqual(
    (await collect(byTime.blocks(0))).map((b) => b.mc_seqno),
    [info.mc_seqno_start, info.mc_seqno_start + 1],
  );
  const { mainnet: resumed } = await setup(t, {}, { start: { seqno: 1 }, to: info.mc_seqno_start + 2 });
  t.deepEqual(
    (await collect(resumed.blocks(info.mc_seqno_start))).map((b) => b.mc_seqno),
    [info.mc_seqno_start + 1, info.mc_seqno_start + 2],
  );
});

test("a server with a smaller maximum page size (422) is read with that size", async (t) => {
  const trace = loadTrace("v2-jetton-to-jetton-two-routers-referral.json");
  const from = (trace.file.trace as { mc_seqno_start: number }).mc_seqno_start;
  const { mainnet, server } = await setup(t, { maxLimit: 2 }, { start: { seqno: from }, to: from + 3 });
  const blocks = await collect(mainnet.blocks(0));
  t.is(blocks.length, 4);
  t.deepEqual(
    blocks
      .flatMap((b) => b.transactions.map((x) => x.hash))
      .filter((h) => trace.txs.some((x) => x.hash === h)),
    trace.txs.filter((x) => x.mc_seqno <= from + 3).map((x) => x.hash),
  );
  t.true((server.stats.byPath.get("/api/v3/transactionsByMasterchainBlock") ?? 0) > 4);
});

test("following: waits at the head and yields new blocks as the head moves", async (t) => {
  const trace = loadTrace("v1-jetton-to-jetton.json");
  const from = (trace.file.trace as { mc_seqno_start: number }).mc_seqno_start;
  const { mainnet, server } = await setup(t, { head: from }, { start: { seqno: from } });
  const seen: number[] = [];
  const abort = new AbortController();
  setTimeout(() => server.setHead(from + 2), 100);
  for await (const b of mainnet.blocks(0, abort.signal)) {
    seen.push(b.mc_seqno);
    if (b.mc_seqno === from + 2) break;
  }
  t.deepEqual(seen, [from, from + 1, from + 2]);
  t.is(mainnet.head(), from + 2);
});

test("STON.fi filter: the traces' transactions are kept, the made-up masterchain ticks dropped", async (t) => {
  const trace = loadTrace("v1-ton-to-jetton-failed-refund.json");
  const { mc_seqno_start: from, mc_seqno_end: to } = trace.file.trace as {
    mc_seqno_start: number;
    mc_seqno_end: number;
  };
  const { mainnet } = await setup(
    t,
    {},
    { start: { seqno: from }, to, filter: "stonfi", lookaheadBlocks: 8 },
  );
  const blocks = await collect(mainnet.blocks(0));
  t.is(blocks.length, to - from + 1);
  t.deepEqual(
    blocks.flatMap((b) => b.transactions.map((x) => x.hash)),
    [...trace.txs]
      .sort((a, b) => a.mc_seqno - b.mc_seqno || Number(BigInt(a.lt) - BigInt(b.lt)))
      .map((x) => x.hash),
  );
});

test("a transaction v3 answers in a shape the mapping cannot take travels as a rejected record; the block goes on", async (t) => {
  const trace = loadTrace("v1-jetton-to-ton.json");
  const from = (trace.file.trace as { mc_seqno_start: number }).mc_seqno_start;
  const odd = { account: "0:XYZ", hash: "not base64!", lt: "1" };
  const { mainnet } = await setup(
    t,
    {
      mount: (req, res) => {
        if (!req.url?.includes(`seqno=${from + 1}&`)) return false;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ transactions: [odd], address_book: {} }));
        return true;
      },
    },
    { start: { seqno: from }, to: from + 2 },
  );
  const blocks = (await collect(mainnet.blocks(0))) as (SourceBlock & { rejected: RejectedRecord[] })[];
  t.deepEqual(
    blocks.map((b) => [b.mc_seqno, b.transactions.length > 0, b.rejected.length]),
    [
      [from, true, 0],
      [from + 1, false, 1],
      [from + 2, true, 0],
    ],
  );
  const rejected = blocks[1]!.rejected[0]!;
  t.is(rejected.mc_seqno, from + 1);
  t.is(rejected.origin, `toncenter:block ${from + 1}[0]`);
  t.is(rejected.raw, JSON.stringify(odd));
  t.regex(rejected.reason, /^toncenter transaction: \/hash: expected base64/);
});

test("a replica without the block answering a later page empty does not end the block early", async (t) => {
  const trace = loadTrace("mixed-dedust-coffee-stonfi-v2.json");
  const { mc_seqno_start: from, mc_seqno_end: to } = trace.file.trace as {
    mc_seqno_start: number;
    mc_seqno_end: number;
  };
  // Every block's first answer past its first page comes from a replica that lacks the block.
  const lagged = new Set<string>();
  const faults = ({ path, query }: { path: string; query: URLSearchParams }): Fault | null => {
    if (path !== "/api/v3/transactionsByMasterchainBlock" || query.get("offset") === "0") return null;
    const seqno = query.get("seqno")!;
    if (lagged.has(seqno)) return null;
    lagged.add(seqno);
    return { kind: "empty" };
  };
  const { mainnet, server } = await setup(t, { faults }, { start: { seqno: from }, to, pageLimit: 3 });
  const blocks = await collect(mainnet.blocks(0));
  const hashes = blocks.flatMap((b) =>
    b.transactions.filter((x) => x.account !== ELECTOR).map((x) => x.hash),
  );
  t.deepEqual(new Set(hashes).size, hashes.length, "no duplicate");
  t.deepEqual([...hashes].sort(), trace.txs.map((x) => x.hash).sort(), "every transaction of every block");
  t.true((server.stats.faults.get("empty") ?? 0) > 0);
});
