/**
 * Pools re-read from the chain (ProcessorCore + CoreLookups.poolState): a pool first seen with an unknown
 * state takes the chain's state as of its last transaction's lt; transactions up to that lt are skipped and
 * the later ones applied and checked on top.
 * - the real mainnet traces (every pool there is first seen active) with a lookup that answers a state as of
 *   the pool's last recorded transaction: one read per unknown pool, a state row at that lt, the pool tracked
 *   and its transactions skipped; a null answer leaves it unknown; a read older than the batch is not used;
 * - a devnet market whose processor starts mid-run, its lookup answering from the devnet's ChainState (the
 *   production `chainStateLookups`): every pool then equals ChainState at the end, with no mismatch;
 * - a devnet payout tampered by one unit: a mismatch, the pool read again, then followed to ChainState exactly;
 * - the lt read before and after the get-methods must agree (`poolStateAsOfLastTransaction`).
 */
import { type Address, Cell } from "@ton/core";
import test from "ava";
import { poolState } from "../../../dex/amm/index.ts";
import type { ChainState, LastTransaction } from "../../../dex/chain-state.ts";
import { decodeBody, encodeBody, STONFI_V2_OP } from "../../../dex/codecs/index.ts";
import { applyLibraryPatches } from "../../../infra/library-patches/index.ts";
import { Devnet } from "../../../ingest/devnet/devnet.ts";
import {
  type ChainPoolState,
  type CoreLookups,
  type CoreResult,
  ProcessorCore,
} from "../../../processors/core/index.ts";
import { chainStateLookups, poolStateAsOfLastTransaction } from "../../../processors/lookups.ts";
import type { PoolRow, PoolStateRow } from "../../../schemas/facts.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { assertMatchesChain, rawOf, runOf } from "../../helpers/pool-state-run.ts";
import { loadAllTraces } from "../../helpers/traces.ts";

applyLibraryPatches(["parse", "build"]);

const traces = loadAllTraces();
const DEEP = 64;

const baseLookups = (masters: Map<string, string>): CoreLookups => ({
  walletMaster: async (wallet) => masters.get(wallet) ?? null,
  jetton: async () => null,
  router: async () => null,
  poolType: async () => undefined,
});

/** The lt of each account's last transaction in `txs`. */
function lastLts(txs: readonly RawTransaction[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const tx of txs) {
    const lt = BigInt(tx.lt);
    if ((out.get(tx.account) ?? -1n) < lt) out.set(tx.account, lt);
  }
  return out;
}

const HASH = "ab".repeat(32);
const answerAt =
  (lt: bigint) =>
  (dex: "v1" | "v2"): ChainPoolState => ({
    state: poolState({ type: dex === "v1" ? "v1_constant_product" : "v2_constant_product", reserve0: 1000n }),
    lt,
    txHash: HASH,
    utime: 1_700_000_000,
    mcSeqno: 42,
    info: { router: null, token0Wallet: null, token1Wallet: null },
  });

test("mainnet traces: every pool first seen active is read once and tracked from its last transaction's lt", async (t) => {
  let resynced = 0;
  for (const trace of traces) {
    const last = lastLts(trace.txs);
    const calls: string[] = [];
    const lookups: CoreLookups = {
      ...baseLookups(trace.masters),
      poolState: async (pool, dex) => {
        calls.push(pool);
        return answerAt(last.get(pool)!)(dex);
      },
    };
    const core = new ProcessorCore({ windowBlocks: DEEP, lookups });
    const r: CoreResult = await core.process(trace.txs);
    const unknown = [...new Set(r.poolReports.filter((x) => x.kind === "unknown_pool").map((x) => x.pool))];
    t.deepEqual(calls.sort(), [...unknown].sort(), `${trace.name}: one read per unknown pool`);
    t.deepEqual(
      r.poolReports.filter((x) => x.kind !== "unknown_pool"),
      [],
      trace.name,
    );
    t.deepEqual(
      (r.poolResyncs ?? []).map((x) => [x.pool, x.reason, x.outcome, x.lt]).sort(),
      unknown.map((p) => [p, "unknown_pool", "resynced", last.get(p)]).sort(),
      trace.name,
    );
    t.deepEqual(core.tracker.needsResync(), [], trace.name);
    const states = (r.rows.pool_states ?? []) as PoolStateRow[];
    const poolRows = (r.rows.pools ?? []) as PoolRow[];
    for (const pool of unknown) {
      const lt = last.get(pool)!;
      const tracked = core.tracker.get(pool)!;
      t.like(tracked, { lt, status: "live" }, pool);
      t.is(tracked.state.reserve0, 1000n);
      t.like(states.find((s) => s.pool === pool && s.lt === lt)!, {
        tx_hash: HASH,
        mc_seqno: 42,
        utime: 1_700_000_000,
        reserve0: 1000n,
      });
      // the identity the pool revealed stays (the read named none), and the row now has a curve
      const row = poolRows.filter((p) => p.pool === pool).at(-1)!;
      t.not(row.router, null, pool);
      t.is(row.router, tracked.router);
      t.not(row.pool_type, null);
      // every transaction up to the read's lt is skipped
      for (const tx of trace.txs.filter((x) => x.account === pool)) {
        t.is(core.tracker.apply(tx).status, "duplicate");
      }
      resynced++;
    }
  }
  t.log(`${resynced} pools read`);
  t.true(resynced >= 8);
});

test("mainnet traces: a lookup answering null, or a read older than the batch, leaves the pool unknown", async (t) => {
  const trace = traces.find((x) => x.txs.length > 0)!;
  for (const answer of ["null", "behind"] as const) {
    const lookups: CoreLookups = {
      ...baseLookups(trace.masters),
      poolState: async (pool, dex) => {
        if (answer === "null") return null;
        const first = trace.txs.filter((x) => x.account === pool).map((x) => BigInt(x.lt));
        return answerAt(first.reduce((a, b) => (a < b ? a : b)) - 1n)(dex);
      },
    };
    const core = new ProcessorCore({ windowBlocks: DEEP, lookups });
    const r = await core.process(trace.txs);
    const unknown = new Set(r.poolReports.map((x) => x.pool));
    t.true(unknown.size > 0);
    const outcome = answer === "null" ? "unavailable" : "behind";
    t.deepEqual(new Set((r.poolResyncs ?? []).map((x) => x.outcome)), new Set([outcome]));
    t.deepEqual(new Set(core.tracker.needsResync()), unknown);
    t.deepEqual(r.rows.pool_states ?? [], []);
    for (const pool of unknown) t.is(core.tracker.get(pool), undefined);
    // asked again at the pool's next transaction (here: the same ones again), once per batch
    const again = await core.process(trace.txs);
    t.deepEqual((again.poolResyncs ?? []).map((x) => x.pool).sort(), [...unknown].sort());
    t.deepEqual(new Set((again.poolResyncs ?? []).map((x) => x.reason)), new Set(["unknown_pool"]));
  }
});

test("the state is used only when the last transaction's lt is the same before and after the read", async (t) => {
  const devnet = new Devnet({ seed: 5 });
  const deployed = async () => {
    for (const p of devnet.pools) {
      if (p.router !== "v1" && (await devnet.state.getV2PoolData(p.address)) !== null) return p;
    }
    return undefined;
  };
  for (let i = 0; i < 40 && (await deployed()) === undefined; i++) await devnet.nextBlock();
  const pool = (await deployed())!;
  const address = rawOf(pool.address);
  const lastTxOf = (lts: bigint[]) => {
    const calls = { n: 0 };
    const chain: ChainState = {
      ...devnet.state,
      getLastTransaction: async (): Promise<LastTransaction> => {
        const lt = lts[Math.min(calls.n++, lts.length - 1)]!;
        return { lt, hash: HASH, utime: 1, mcSeqno: 1 };
      },
    };
    return { chain, calls };
  };
  const same = lastTxOf([7n, 7n]);
  t.like(await poolStateAsOfLastTransaction(same.chain, address, "v2"), { lt: 7n });
  t.is(same.calls.n, 2);
  const once = lastTxOf([7n, 8n, 8n, 8n]);
  t.like(await poolStateAsOfLastTransaction(once.chain, address, "v2"), { lt: 8n }, "retried once");
  const twice = lastTxOf([7n, 8n, 9n, 10n, 11n]);
  t.is(await poolStateAsOfLastTransaction(twice.chain, address, "v2"), null, "then gives up");
  t.is(twice.calls.n, 4);
  t.is(await poolStateAsOfLastTransaction(devnet.state, address, "v2"), null, "no lt: no state");
  // a chain state that cannot tell a last transaction (the devnet's, none in a replay) offers no pool reads
  t.is(chainStateLookups(devnet.state).poolState, undefined);
  t.is(chainStateLookups(null).poolState, undefined);
  t.not(chainStateLookups(same.chain).poolState, undefined);
});

/** The devnet's ChainState plus each account's last transaction, read from the devnet chain now. */
function withLastTransaction(devnet: Devnet): ChainState {
  return {
    ...devnet.state,
    getLastTransaction: async (a: Address) => {
      const account = devnet.world.chain.account(a);
      if (account === undefined || account.lastTxLt === 0n) return null;
      const hash = account.lastTxHash.toString(16).padStart(64, "0");
      return { lt: account.lastTxLt, hash, utime: devnet.world.chain.utime, mcSeqno: 0 };
    },
  };
}

test("devnet: a processor that starts mid-run reads each pool once, then follows it to ChainState exactly", async (t) => {
  const devnet = new Devnet({ seed: 2 });
  const state = withLastTransaction(devnet);
  const core = new ProcessorCore({ windowBlocks: 8, lookups: chainStateLookups(state) });
  const txs: RawTransaction[] = [];
  const results: CoreResult[] = [];
  const START = 30;
  for (let i = 0; i < 70 || devnet.pending > 0; i++) {
    const block = i < 70 ? await devnet.nextBlock() : devnet.drainBlock();
    txs.push(...block.transactions);
    if (i >= START) results.push(await core.process(block.transactions));
  }
  const reports = results.flatMap((r) => r.poolReports);
  const resyncs = results.flatMap((r) => r.poolResyncs ?? []);
  t.true(resyncs.length > 0);
  t.deepEqual(
    reports.filter((r) => r.kind !== "unknown_pool"),
    [],
    "no mismatch",
  );
  t.deepEqual(new Set(resyncs.map((r) => r.outcome)), new Set(["resynced"]));
  t.is(new Set(resyncs.map((r) => r.pool)).size, resyncs.length, "each pool read once");
  t.deepEqual(core.tracker.needsResync(), []);
  // transactions after the reads were applied on top (the state rows after each pool's read)
  const applied = results.flatMap((r) => (r.rows.pool_states ?? []) as PoolStateRow[]);
  const readAt = new Map(resyncs.map((r) => [r.pool, r.lt!]));
  t.true(
    applied.some((s) => s.lt > readAt.get(s.pool)!),
    "later transactions change the state",
  );
  t.log(`${resyncs.length} pools read; ${applied.length} state rows`);
  await assertMatchesChain(t, runOf(devnet, txs), core.tracker);
});

/** A copy of `tx` whose first v2 `pay_to` asks for one more unit of its non-zero side. */
function tamperPayTo(tx: RawTransaction): RawTransaction {
  const out_msgs = [...tx.out_msgs];
  const i = out_msgs.findIndex((m) => m.opcode === STONFI_V2_OP.pay_to);
  const body = decodeBody(Cell.fromBase64(out_msgs[i]!.body_boc), { dex: "v2" });
  if (body.kind !== "stonfi.v2.pay_to") throw new Error(body.kind);
  const more =
    body.amount0Out > 0n ? { amount0Out: body.amount0Out + 1n } : { amount1Out: body.amount1Out + 1n };
  const boc = encodeBody({ ...body, ...more })
    .toBoc()
    .toString("base64");
  out_msgs[i] = { ...out_msgs[i]!, body_boc: boc };
  return { ...tx, out_msgs };
}

test("devnet: a payout the tracked state does not predict is a mismatch; the pool is read again and followed exactly", async (t) => {
  const devnet = new Devnet({ seed: 2 });
  const core = new ProcessorCore({
    windowBlocks: 8,
    lookups: chainStateLookups(withLastTransaction(devnet)),
  });
  const txs: RawTransaction[] = [];
  const results: CoreResult[] = [];
  let tampered: RawTransaction | undefined;
  for (let i = 0; i < 60 || devnet.pending > 0; i++) {
    const block = i < 60 ? await devnet.nextBlock() : devnet.drainBlock();
    txs.push(...block.transactions);
    const target =
      i >= 30 && tampered === undefined
        ? block.transactions.find(
            (tx) =>
              tx.in_msg?.opcode === STONFI_V2_OP.swap &&
              tx.out_msgs.some((m) => m.opcode === STONFI_V2_OP.pay_to),
          )
        : undefined;
    if (target !== undefined) tampered = target;
    const batch = block.transactions.map((tx) => (tx === target ? tamperPayTo(tx) : tx));
    results.push(await core.process(batch));
  }
  t.not(tampered, undefined);
  const reports = results.flatMap((r) => r.poolReports);
  t.deepEqual(
    reports.map((r) => [r.kind, r.pool, r.lt]),
    [["mismatch", tampered!.account, BigInt(tampered!.lt)]],
  );
  const resyncs = results.flatMap((r) => r.poolResyncs ?? []);
  t.deepEqual(
    resyncs.map((r) => [r.pool, r.reason, r.outcome]),
    [[tampered!.account, "mismatch", "resynced"]],
  );
  t.true(resyncs[0]!.lt! >= BigInt(tampered!.lt));
  t.deepEqual(core.tracker.needsResync(), []);
  await assertMatchesChain(t, runOf(devnet, txs), core.tracker);
});
