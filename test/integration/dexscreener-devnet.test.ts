/**
 * The DexScreener feed over a devnet run indexed by the real pipeline (test/helpers/api-devnet.ts): swaps,
 * multi-hop routes, provisions, withdrawals and refunds across every router. The rule validator
 * (test/helpers/dexscreener-validator.ts) runs over the whole served history with oracles from the devnet
 * itself: the catalogue's decimals, each transaction's lt, and the wallet whose external message started
 * each trace (the maker). Then the feed is checked against the devnet's transactions: every pool
 * transaction the contracts executed a swap in is a swap event of its pool.
 */
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import { selectFeedEvents, selectFeedHead } from "../../api/queries/sql/feed.ts";
import { cachedReadModel } from "../../api/read-model-cached.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import type { Store } from "../../infra/store/client.ts";
import { ASSETS } from "../../ingest/devnet/sim/catalog.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { type ApiDevnet, assetAddress, startApiDevnet } from "../helpers/api-devnet.ts";
import { validateFeed } from "../helpers/dexscreener-validator.ts";
import { f, request } from "../unit/api/harness.ts";

const test = anyTest as TestFn<{ env: ApiDevnet }>;

const MARKET_BLOCKS = Number(process.env.FEED_DEVNET_BLOCKS ?? 150);

test.before(async (t) => {
  t.context = { env: await startApiDevnet({ seed: 17, marketBlocks: MARKET_BLOCKS }) };
});
test.after.always((t) => t.context.env?.close());

/** The account whose external message started each transaction's trace, by transaction hash. */
function tracesRoots(txs: readonly RawTransaction[]): (hash: string) => RawTransaction | undefined {
  const byOutMsg = new Map<string, RawTransaction>();
  for (const tx of txs) for (const m of tx.out_msgs) byOutMsg.set(m.hash, tx);
  const byHash = new Map(txs.map((tx) => [tx.hash, tx]));
  return (hash) => {
    let tx = byHash.get(hash);
    for (let i = 0; tx !== undefined && i < 100; i++) {
      if (tx.in_msg === null || tx.in_msg.source === null) return tx;
      tx = byOutMsg.get(tx.in_msg.hash);
    }
    return undefined;
  };
}

test("the feed over a devnet run keeps every rule (0 violations)", async (t) => {
  const { env } = t.context;
  const txs = env.blocks.flatMap((b) => b.transactions);
  const lts = new Map(txs.map((tx) => [tx.hash, BigInt(tx.lt)]));
  const rootOf = tracesRoots(txs);
  const blockTimes = new Map(env.blocks.map((b) => [b.mc_seqno, b.utime]));
  const decimals = new Map(ASSETS.map((a) => [assetAddress(env.devnet, a.symbol), a.decimals]));
  const get = async (path: string) => {
    const r = await request(env.api, "GET", path);
    return { status: r.status, text: r.text };
  };
  const pools = new Set<string>();
  for (const base of ["/export/dexscreener/v1", "/export/aggregator_b/v1"]) {
    const report = await validateFeed(get, base, {
      decimals: (id) => decimals.get(id),
      lt: (hash) => lts.get(hash),
      blockTime: (n) => blockTimes.get(n),
      maker: (hash) => {
        const root = rootOf(hash);
        return root === undefined ? undefined : f(root.account);
      },
      notMakers: pools,
    });
    for (const e of report.events) pools.add(e.pairId as string);
    t.deepEqual(report.violations.slice(0, 30), [], base);
    t.is(report.violations.length, 0);
    t.log(base, report.latest, report.counts, `${env.blocks.length} blocks, ${txs.length} transactions`);
    t.true((report.counts.swap ?? 0) > 100);
    t.true((report.counts.join ?? 0) > 0);
    t.true((report.counts.exit ?? 0) > 0);
  }
});

test("with the API's reference lists the feed reads only its events from the store, and answers the same", async (t) => {
  const { env } = t.context;
  const head = await selectFeedHead(env.pipeline.store);
  if (head === null) return t.fail("no head");
  const queries: string[] = [];
  const store: Store = {
    ...env.pipeline.store,
    query: (sql, schema, params) => {
      queries.push(sql);
      return env.pipeline.store.query(sql, schema, params);
    },
  };
  const model = cachedReadModel(new ClickHouseReadModel(store), { ttlMs: 60_000 });
  t.true((await model.listPools()).length > 10, "the lists are read, as on the API's first request");
  queries.length = 0;
  const withLists = await model.getFeedEvents(0, head.mcSeqno);
  t.is(queries.length, 1, "one query: every pool's tokens and every asset are known to the lists");
  t.true(withLists.length > 1000);
  t.deepEqual(withLists, await selectFeedEvents(env.pipeline.store, 0, head.mcSeqno));
});

test("maker and reserves stored by the processor: every event carries them, and the answers equal the lookups' (trace walk, pool_states)", async (t) => {
  const { env } = t.context;
  const head = await selectFeedHead(env.pipeline.store);
  if (head === null) return t.fail("no head");
  const fast = await selectFeedEvents(env.pipeline.store, 0, head.mcSeqno);
  const looked = await selectFeedEvents(env.pipeline.store, 0, head.mcSeqno, { stored: false });
  t.true(fast.length > 1000);
  t.deepEqual(fast, looked);
  const [missing] = await env.pipeline.store.query(
    `SELECT countIf(maker IS NULL) AS makers, countIf(reserve0_after IS NULL) AS reserves FROM swaps FINAL
     WHERE pool IS NOT NULL AND ifNull(amount_out > 0, false)`,
    z.object({ makers: z.coerce.number(), reserves: z.coerce.number() }),
  );
  t.deepEqual(missing, { makers: 0, reserves: 0 });
});
