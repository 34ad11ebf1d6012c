/**
 * A pool's state paired with the lt it is as of (`poolStateAsOfLastTransaction`) over toncenter v3: the
 * pool's data cell and its last transaction come from ONE `addressInformation` answer (the indexer's own
 * account state), so the pairing is exact even when `runGetMethod` (a liteserver's newest state) is ahead
 * of the indexer. Pools: the real mainnet data cells of test/vectors/messages/stonfi-getmethods.json (v1,
 * v2 CPI ×2, stableswap, weighted stableswap), served by the toncenter stand-in; the state each must give is
 * what the pool's own get-methods answered on the chain (the vectors' `expected` / independent parse).
 */
import { Address, beginCell, type Cell } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { v2PoolState } from "../../../dex/chain-state.ts";
import { createMemoryCache } from "../../../infra/cache/memory.ts";
import { toncenterChainState } from "../../../infra/toncenter/chain-state.ts";
import { ToncenterClient } from "../../../infra/toncenter/client.ts";
import { poolStateAsOfLastTransaction } from "../../../processors/lookups.ts";
import {
  mainnetChainData,
  V1_POOL,
  V2_POOLS,
  type V2Storage,
  v2PoolDataStack,
} from "../../helpers/mainnet-chain-data.ts";
import { type Account, type StandIn, startToncenterStandIn } from "../../helpers/toncenter/chain-state.ts";

type Ctx = { standIn: StandIn; accounts: Map<string, Account> };
const test = anyTest as TestFn<Ctx>;

const LT = 61_234_567_000_003n;
const LAST = { lt: LT, utime: 1_760_000_123, mcSeqno: 52_000_777 };
const hashOf = (i: number) => `${i}`.padStart(2, "c").repeat(32);

test.beforeEach(async (t) => {
  const { accounts, files } = mainnetChainData();
  // the same lt and time for every pool, but each its own transaction (hash)
  for (const [i, pool] of [V1_POOL.account, ...V2_POOLS.map((p) => p.vector.account)].entries()) {
    (accounts.get(pool) as Account).lastTransaction = { ...LAST, hashHex: hashOf(i) };
  }
  t.context = { standIn: await startToncenterStandIn(accounts, files), accounts };
});
test.afterEach.always((t) => t.context.standIn.close());

function chainOf(standIn: StandIn) {
  return toncenterChainState({
    http: new ToncenterClient({ url: standIn.url, requestsPerSecond: 1000, timeoutMs: 2000 }),
    cache: createMemoryCache({ maxEntries: 1000 }),
    ttlMs: 60_000,
    fixedTtlMs: 3_600_000,
    offchain: { timeoutMs: 1_500, maxBytes: 4096, ttlMs: 60_000, allowPrivateHosts: true },
  });
}

const up = (raw: string | null) => (raw === null ? null : raw.toUpperCase());

test("v2 pools: the real data cells give what get_pool_data says, at the lt of the same answer", async (t) => {
  const chain = chainOf(t.context.standIn);
  const reads = [];
  for (const { vector } of V2_POOLS)
    reads.push(await poolStateAsOfLastTransaction(chain, vector.account, "v2"));
  // per pool: one addressInformation, one transaction read by hash, get_pool_type; never get_pool_data
  const log = [...t.context.standIn.log];
  t.is(log.filter((l) => l.includes("addressInformation")).length, V2_POOLS.length);
  t.is(log.filter((l) => l.includes("/api/v3/transactions")).length, V2_POOLS.length);
  t.false(
    log.some((l) => l.endsWith("get_pool_data")),
    "the snapshot reads run no get_pool_data",
  );
  for (const [i, { vector, type }] of V2_POOLS.entries()) {
    const read = reads[i];
    const want = await chain.getV2PoolData(Address.parseRaw(vector.account));
    t.truthy(read, vector.name);
    t.truthy(want, vector.name);
    t.deepEqual(read!.state, v2PoolState(want!), `${vector.name} (${type})`);
    const s = vector.independently_parsed_storage as unknown as V2Storage;
    t.deepEqual(read!.info, { router: up(s.router), token0Wallet: up(s.token0), token1Wallet: up(s.token1) });
    t.deepEqual(
      [read!.lt, read!.txHash, read!.utime, read!.mcSeqno],
      [LT, hashOf(i + 1), LAST.utime, LAST.mcSeqno],
    );
  }
});

test("v1 pool: reserves, fees and LP supply from the data cell; the router too (get_pool_data has none)", async (t) => {
  const chain = chainOf(t.context.standIn);
  const read = await poolStateAsOfLastTransaction(chain, V1_POOL.account, "v1");
  const e = V1_POOL.expected as Record<string, string>;
  const s = V1_POOL.independently_parsed_storage as Record<string, string>;
  t.truthy(read);
  t.is(read!.state.reserve0, BigInt(e.reserve0 as string));
  t.is(read!.state.reserve1, BigInt(e.reserve1 as string));
  t.is(read!.state.lpSupply, BigInt(s.total_supply_lp as string));
  t.is(read!.state.lpFeeBps, BigInt(e.lp_fee as string));
  t.is(read!.info.router, "0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E");
  t.is(read!.lt, LT);
});

test("runGetMethod ahead of the indexer: the state still pairs with its own lt (the bracket would not)", async (t) => {
  const { vector, type } = V2_POOLS[1]!;
  const pool = t.context.accounts.get(vector.account)!;
  // the liteserver has seen one more swap: get_pool_data answers other reserves at the same indexed lt
  const s = vector.independently_parsed_storage as unknown as V2Storage;
  const ahead = {
    ...s,
    reserve0: `${BigInt(s.reserve0) + 1_000n}`,
    reserve1: `${BigInt(s.reserve1) - 997n}`,
  };
  pool.methods.get_pool_data = { stack: v2PoolDataStack(ahead, type) };
  const chain = chainOf(t.context.standIn);
  const read = await poolStateAsOfLastTransaction(chain, vector.account, "v2");
  t.is(read!.state.reserve0, BigInt(s.reserve0));
  t.is(read!.state.reserve1, BigInt(s.reserve1));
  t.is(read!.lt, LT);
  // the bracketed get-methods (a chain state without account snapshots) pair the newer reserves with LT
  const bracketOnly = { ...chain, getAccountState: undefined, uncached: undefined };
  const old = await poolStateAsOfLastTransaction(bracketOnly, vector.account, "v2");
  t.is(old!.state.reserve0, BigInt(ahead.reserve0));
  t.is(old!.lt, LT);
});

test("a data cell of an unknown layout falls back to the bracketed get-methods", async (t) => {
  const { vector } = V2_POOLS[0]!;
  const pool = t.context.accounts.get(vector.account)!;
  pool.data = beginCell().storeUint(7, 8).endCell() as Cell;
  const chain = chainOf(t.context.standIn);
  const read = await poolStateAsOfLastTransaction(chain, vector.account, "v2");
  const want = await chain.getV2PoolData(Address.parseRaw(vector.account));
  t.deepEqual(read!.state, v2PoolState(want!));
  t.is(read!.lt, LT);
});

test("a last transaction no masterchain block holds yet, or no transaction at all: no pairing (null)", async (t) => {
  const { vector } = V2_POOLS[0]!;
  const pool = t.context.accounts.get(vector.account)!;
  pool.lastTransaction = { ...pool.lastTransaction!, mcSeqno: null };
  const chain = chainOf(t.context.standIn);
  t.is(await poolStateAsOfLastTransaction(chain, vector.account, "v2"), null);
  pool.lastTransaction = undefined;
  t.is(await poolStateAsOfLastTransaction(chain, vector.account, "v2"), null);
});
