/**
 * The DexScreener feed over the recorded mainnet traces, replayed through the real CLI
 * (test/helpers/replayed-traces.ts), checked by the rule validator (test/helpers/dexscreener-validator.ts)
 * with oracles from the trace files: each transaction's lt and the wallet whose external message started its
 * trace (the maker).
 *
 * Without chain access the replay knows no jetton's decimals, so the feed withholds every event (decimals
 * are never invented): the first test checks exactly that. The second stores the metadata a chain read would
 * add (9 decimals, a name and a symbol for every jetton; a stand-in for chain state, not a claim about these
 * jettons), so the SQL, the mapping and every rule run over the real operations.
 */
import anyTest, { type TestFn } from "ava";
import { selectFeedEvents } from "../../api/queries/sql/feed.ts";
import { cachedReadModel } from "../../api/read-model-cached.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { validateFeed } from "../helpers/dexscreener-validator.ts";
import { addChainMetadata, type ReplayedTraces, replayTraces, rootOf } from "../helpers/replayed-traces.ts";
import { f, type RunningApi, request } from "../unit/api/harness.ts";

const test = anyTest as TestFn<ReplayedTraces>;

test.before(async (t) => {
  t.context = await replayTraces();
});
test.after.always(async (t) => {
  await t.context.close?.();
});

function oracles(t: { context: ReplayedTraces }) {
  const lts = new Map<string, bigint>();
  const makers = new Map<string, string>();
  for (const trace of t.context.traces) {
    const user = f(rootOf(trace).account);
    for (const tx of trace.txs) {
      lts.set(tx.hash, BigInt(tx.lt));
      makers.set(tx.hash, user);
    }
  }
  // A trace's transactions were committed within seconds of their own time (gen_utime is not recorded).
  const times = new Map<number, number>();
  for (const trace of t.context.traces) for (const tx of trace.txs) times.set(tx.mc_seqno, tx.now);
  return {
    lt: (h: string) => lts.get(h),
    maker: (h: string) => makers.get(h),
    blockTime: (n: number) => times.get(n),
  };
}

/** The blocks of the traces (far apart on mainnet), as disjoint ascending ranges. */
function traceRanges(t: { context: ReplayedTraces }): [number, number][] {
  const spans = t.context.traces
    .map((trace) => {
      const seqnos = trace.txs.map((tx) => tx.mc_seqno);
      return [Math.min(...seqnos), Math.max(...seqnos)] as [number, number];
    })
    .sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of spans) {
    const last = out.at(-1);
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

const getter = (api: RunningApi) => async (path: string) => {
  const r = await request(api, "GET", path);
  return { status: r.status, text: r.text };
};

test.serial(
  "without chain metadata no event is served (decimals are never invented), and the feed keeps the rules",
  async (t) => {
    const report = await validateFeed(
      getter(t.context.api),
      "/export/dexscreener/v1",
      {
        decimals: (id) => (id === f(`0:${"0".repeat(64)}`) ? 9 : undefined),
        ...oracles(t),
      },
      { ranges: traceRanges(t) },
    );
    t.deepEqual(report.violations, []);
    t.is(report.events.length, 0);
    t.true(report.latest > 0);
  },
);

test.serial("with the chain's metadata, the real operations keep every rule (0 violations)", async (t) => {
  t.true((await addChainMetadata(t.context.store)) > 0);
  const pools = new Set<string>();
  const first = await validateFeed(
    getter(t.context.api),
    "/export/dexscreener/v1",
    {
      decimals: () => 9,
      ...oracles(t),
    },
    { ranges: traceRanges(t) },
  );
  for (const e of first.events) pools.add(e.pairId as string);
  const report = await validateFeed(
    getter(t.context.api),
    "/export/aggregator_b/v1",
    {
      decimals: () => 9,
      ...oracles(t),
      notMakers: pools,
    },
    { ranges: traceRanges(t) },
  );
  t.deepEqual(first.violations, []);
  t.deepEqual(report.violations, []);
  t.log(report.latest, report.counts);
  t.true((report.counts.swap ?? 0) > 0);
});

test.serial(
  "the API's reference lists give the same events as the store alone, range by range",
  async (t) => {
    // Real pools whose tokens the replay could not all learn take the store path (and the operation's own
    // assets) even with the lists; the rest are answered by the lists.
    const model = cachedReadModel(new ClickHouseReadModel(t.context.store), { ttlMs: 60_000 });
    const pools = await model.listPools();
    t.true(pools.length > 0);
    let n = 0;
    for (const [lo, hi] of traceRanges(t)) {
      const withLists = await model.getFeedEvents(lo, hi);
      t.deepEqual(withLists, await selectFeedEvents(t.context.store, lo, hi));
      n += withLists.length;
    }
    t.true(n > 0);
  },
);

test.serial(
  "the makers the processor stored equal the walk up the stored traces (an aggregator is not the maker)",
  async (t) => {
    let n = 0;
    for (const [lo, hi] of traceRanges(t)) {
      const fast = await selectFeedEvents(t.context.store, lo, hi);
      t.deepEqual(fast, await selectFeedEvents(t.context.store, lo, hi, { stored: false }));
      n += fast.length;
    }
    t.true(n > 0);
  },
);
