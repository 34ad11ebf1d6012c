/**
 * PoolTracker against the real devnet: a seeded market run plus an admin phase (fee changes, protocol
 * fee collection on v1 — router and public — and v2, a v2 pool locked while the market trades, a WStable
 * rate change, a v1 pool gas reset, LpAccount refunds on v1 and v2). The tracker reads only the pools' own
 * transactions; at the end every pool must equal what ChainState reads, field by field.
 * The other seed (plain market) is in pool-state-market.test.ts.
 */
import { Cell } from "@ton/core";
import test from "ava";
import {
  decodeBody,
  encodeBody,
  encodeStonfiV2CollectFees,
  encodeStonfiV2SetRate,
} from "../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../dex/exit-codes.ts";
import { applyLibraryPatches } from "../../../infra/library-patches/index.ts";
import { v1CollectFeesBody, v1ResetPoolGasBody } from "../../../ingest/devnet/contracts/stonfi-v1/index.ts";
import { v2UpdatePoolStatusBody } from "../../../ingest/devnet/contracts/stonfi-v2/router-admin.ts";
import { Devnet } from "../../../ingest/devnet/devnet.ts";
import { adminMessages } from "../../../ingest/devnet/sim/admin.ts";
import type { PoolHandle } from "../../../ingest/devnet/sim/pools.ts";
import type { UserMessage } from "../../../ingest/devnet/sim/types.ts";
import { type Actor, send } from "../../../ingest/devnet/sim/world.ts";
import { PoolTracker } from "../../../processors/core/pool-state.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { assertMatchesChain, poolTxs, type Run, rawOf, runOf } from "../../helpers/pool-state-run.ts";

applyLibraryPatches(["parse", "build"]);

const TON = 1_000_000_000n;

async function blocks(devnet: Devnet, txs: RawTransaction[], n: number): Promise<void> {
  for (let i = 0; i < n; i++) txs.push(...(await devnet.nextBlock()).transactions);
}

/**
 * An LP deposits both sides asking for far more LP than they are worth: the pool hands them back to its
 * LpAccount (the failed-mint path, §2.7, §3.8); a few blocks later it asks for them back (refund_me).
 */
async function failedMints(devnet: Devnet, lp: Actor, targets: PoolHandle[], queryId: bigint) {
  const deposits: UserMessage[] = [];
  for (const p of targets) {
    const deadline = devnet.world.chain.utime + 3600;
    const common = { user: lp.address, router: p.router, amount: 10_000n, minLpOut: 10n ** 30n, deadline };
    deposits.push(
      await devnet.actions.provide({ ...common, send: p.token0, other: p.token1, queryId: queryId++ }),
    );
    deposits.push(
      await devnet.actions.provide({ ...common, send: p.token1, other: p.token0, queryId: queryId++ }),
    );
  }
  send(devnet.world, lp, deposits);
  return async () => {
    const refunds: UserMessage[] = [];
    for (const p of targets) {
      const lpAccount = await devnet.state.getLpAccountAddress(p.address, lp.address);
      refunds.push(await devnet.actions.refund({ router: p.router, lpAccount, queryId: queryId++ }));
    }
    send(devnet.world, lp, refunds);
  };
}

/** A burn into a locked v2 pool: the pool throws (93) and the transaction fails (§3.8). */
async function burnWhileLocked(devnet: Devnet, p: PoolHandle): Promise<void> {
  const lp = devnet.world.lps[0]!;
  const wallet = await devnet.state.getJettonWalletAddress(p.address, lp.address);
  const balance = (await devnet.state.getJettonWalletData(wallet))!.balance;
  const burn = {
    user: lp.address,
    router: p.router,
    pool: p.address,
    lpAmount: balance / 100n,
    queryId: 99n,
  };
  send(devnet.world, lp, [await devnet.actions.burn(burn)]);
}

/** The admin ops the market does not do, interleaved with market blocks. */
async function governance(devnet: Devnet, txs: RawTransaction[]): Promise<void> {
  const w = devnet.world;
  const admin = (msgs: UserMessage[]) => {
    for (let i = 0; i < msgs.length; i += 4) send(w, w.admin, msgs.slice(i, i + 4));
  };
  const router = (p: PoolHandle) => devnet.actions.handle(p.router).address;
  const of = (key: string) => devnet.pools.filter((p) => p.router === key);
  let q = 77_000_000n;
  const chosen = [
    of("v1")[0]!,
    of("v1")[1]!,
    ...["cpi_v2_1", "cpi_v2_2", "stable_v2_2", "wcpi_v2_2", "wstable_v2_2"].map((k) => of(k)[0]!),
  ];
  const am = adminMessages(w, devnet.actions);
  // fee changes also set the protocol-fee address (the admin), which collection needs
  admin(chosen.map((p) => am.setFees(p, { lp: 25, protocol: 15, ref: 12 })));
  const locked = of("cpi_v2_2")[1]!;
  const toggle = () => ({
    to: router(locked),
    value: TON / 2n,
    body: v2UpdatePoolStatusBody({
      queryId: q++,
      wallet0: locked.wallet0,
      wallet1: locked.wallet1,
      excesses: w.admin.address,
    }),
  });
  admin([toggle()]);
  const refund = await failedMints(devnet, w.lps[1]!, [of("v1")[3]!, of("cpi_v2_1")[2]!], 88_000_000n);
  await blocks(devnet, txs, 5);
  await burnWhileLocked(devnet, locked);
  await blocks(devnet, txs, 20);
  await refund();
  const [v1a, v1b] = chosen;
  const ws = of("wstable_v2_2")[1]!;
  const rate = (await devnet.state.getV2PoolData(ws.address))!.rate!;
  admin([
    { to: router(v1a!), value: TON / 2n, body: v1CollectFeesBody(q++, v1a!.wallet0, v1a!.wallet1) },
    // the public, rewarded collection needs more than 1 TON above its gas (§2.8)
    {
      to: v1b!.address,
      value: 3n * TON,
      body: encodeBody({ kind: "stonfi.v1.collect_fees_pool", queryId: q++ }),
    },
    { to: router(v1a!), value: TON / 2n, body: v1ResetPoolGasBody(q++, v1a!.wallet0, v1a!.wallet1) },
    toggle(),
    ...chosen.slice(2).map((p) => ({
      to: p.address,
      value: TON / 2n,
      body: encodeStonfiV2CollectFees({
        kind: "stonfi.v2.collect_fees",
        queryId: q++,
        payload0: null,
        payload1: null,
      }),
    })),
    {
      to: ws.address,
      value: TON / 2n,
      body: encodeStonfiV2SetRate({
        kind: "stonfi.v2.set_rate",
        queryId: q++,
        newRate: (rate * 1001n) / 1000n,
      }),
    },
  ]);
}

async function devnetRun(seed: number): Promise<Run> {
  const devnet = new Devnet({ seed });
  const txs: RawTransaction[] = [];
  await blocks(devnet, txs, 30);
  await governance(devnet, txs);
  await blocks(devnet, txs, 15);
  while (devnet.pending > 0) txs.push(...devnet.drainBlock().transactions);
  return runOf(devnet, txs);
}

const EXIT_NAME = new Map<number, string>(Object.entries(STONFI_EXIT_CODE).map(([k, v]) => [v, k]));

/** Which contract paths the run exercised, read from the pools' committed and failed transactions. */
function paths(run: Run): Set<string> {
  const seen = new Set<string>();
  for (const tx of run.txs) {
    const type = run.types.get(tx.account);
    if (type === undefined || tx.in_msg === null) continue;
    const dex = type.startsWith("v1") ? "v1" : "v2";
    if (tx.aborted || !tx.compute.success) seen.add(`${dex} failed tx`);
    const inBody = decodeBody(Cell.fromBase64(tx.in_msg.body_boc), { dex });
    seen.add(`${dex} ${inBody.kind.replace(/^stonfi\.v[12]\./, "")}`);
    if (inBody.kind === "stonfi.v2.cb_add_liquidity" && (inBody.totAm0 === 0n || inBody.totAm1 === 0n)) {
      seen.add("v2 single-sided mint");
    }
    for (const m of tx.out_msgs) {
      const b = decodeBody(Cell.fromBase64(m.body_boc), { dex });
      if (b.kind === "stonfi.v1.pay_to" || b.kind === "stonfi.v2.pay_to") {
        seen.add(`${dex} pay_to ${EXIT_NAME.get(b.exitCode) ?? b.exitCode}`);
      }
      if (b.kind === "stonfi.v2.pay_vault") seen.add("v2 pay_vault");
      if (
        (b.kind === "stonfi.v1.add_liquidity" || b.kind === "stonfi.v2.add_liquidity") &&
        b.minLpOut === 0n
      ) {
        seen.add(`${dex} mint refused`);
      }
    }
    if (
      inBody.kind === "stonfi.v1.collect_fees_pool" &&
      tx.in_msg.source !== rawOf(run.devnet.world.routers.get("v1")!.address)
    ) {
      seen.add("v1 public collect_fees");
    }
  }
  return seen;
}

const EXPECTED_PATHS = [
  ...["swap", "provide_lp", "cb_add_liquidity", "cb_refund_me", "burn_notification", "set_fees_pool"].map(
    (k) => `v1 ${k}`,
  ),
  ...["collect_fees_pool", "reset_gas", "public collect_fees", "mint refused"].map((k) => `v1 ${k}`),
  ...["swap_ok", "swap_ok_ref", "swap_refund_no_liq", "burn_ok", "refund_ok", "ok"].map(
    (k) => `v1 pay_to ${k}`,
  ),
  ...["swap", "provide_lp", "cb_add_liquidity", "cb_refund_me", "burn_notification_ext", "collect_fees"].map(
    (k) => `v2 ${k}`,
  ),
  ...["internal_set_fees", "internal_set_params", "internal_update_status", "set_rate"].map((k) => `v2 ${k}`),
  ...["swap_ok", "swap_refund_slippage", "swap_pool_locked", "burn_ok", "refund_ok", "ok"].map(
    (k) => `v2 pay_to ${k}`,
  ),
  ...["pay_vault", "single-sided mint", "mint refused", "failed tx"].map((k) => `v2 ${k}`),
];

const runP = devnetRun(3);

test("every pool equals ChainState after a market and admin run, with every op kind seen", async (t) => {
  const run = await runP;
  const tracker = new PoolTracker((a) => run.types.get(a));
  const started = performance.now();
  let n = 0;
  const reports = [];
  for (const list of poolTxs(run)) {
    for (const tx of list) {
      const r = tracker.apply(tx);
      n++;
      if (r.report) reports.push(r.report);
    }
  }
  const ms = performance.now() - started;
  t.log(
    `${n} pool txs in ${ms.toFixed(0)} ms (${Math.round((n / ms) * 1000)} tx/s)`,
    run.devnet.market?.counts,
  );
  t.deepEqual(reports, []);
  t.deepEqual(tracker.needsResync(), []);
  await assertMatchesChain(t, run, tracker);
  const seen = paths(run);
  t.deepEqual(
    EXPECTED_PATHS.filter((k) => !seen.has(k)),
    [],
    "contract paths the run should exercise",
  );
  const counts = run.devnet.market!.counts;
  for (const k of ["swap", "swap_referral", "provide", "provide_single", "burn", "fee_change"] as const)
    t.true(counts[k] > 0, k);
});
