/**
 * processors/core/swap-usd.ts: the processor stores each executed swap leg's USD volume, priced with the
 * pool states before the swap (analytics.md §7.5). On the real mainnet traces, with TON/USD from the real
 * USD₮/pTON v2.2 pool's recorded state (test/vectors/messages/stonfi-getmethods.json), and on the devnet.
 */
import { readFileSync } from "node:fs";
import test from "ava";
import { poolState } from "../../../dex/amm/index.ts";
import { PTON_V1_MASTER, PTON_V2_MASTER } from "../../../dex/classify/known.ts";
import { poolStateColumns } from "../../../dex/pool-state-row.ts";
import { DEFAULT_THRESHOLDS, MAINNET_PRICING, MAINNET_USDT } from "../../../dex/pricing/index.ts";
import { devnetPricingAnchors } from "../../../ingest/devnet/pricing.ts";
import { type CoreLookups, ProcessorCore } from "../../../processors/core/index.ts";
import { PoolTracker } from "../../../processors/core/pool-state.ts";
import { chainStateLookups } from "../../../processors/lookups.ts";
import type {
  PoolRow,
  PoolStateRow,
  ReferralFeeRow,
  RouterRow,
  SwapRow,
  VaultWithdrawalRow,
} from "../../../schemas/facts.ts";
import { runDevnet } from "../../helpers/devnet-run.ts";
import { type LoadedTrace, loadAllTraces } from "../../helpers/traces.ts";

const vectors = JSON.parse(
  readFileSync(new URL("../../vectors/messages/stonfi-getmethods.json", import.meta.url), "utf8"),
) as { name: string; account: string; independently_parsed_storage: Record<string, string> }[];
const cpi = vectors.find((e) => e.name === "stonfi v2 const product")!;
const storage = cpi.independently_parsed_storage;
/** USD per TON in that pool: 3,584,182.740475 USD₮ / 1,257,031.691107454 TON. */
const TON_USD = 3584182.740475 / 1257031.691107454;

const tonUsdState: PoolStateRow = {
  pool: cpi.account,
  lt: 1n,
  tx_hash: "00".repeat(32),
  mc_seqno: 1,
  utime: 1,
  ...poolStateColumns(
    poolState({
      type: "v2_constant_product",
      reserve0: BigInt(storage.reserve0!),
      reserve1: BigInt(storage.reserve1!),
      lpSupply: BigInt(storage.total_supply_lp!),
    }),
  ),
};
const tonUsdPool: PoolRow = {
  pool: cpi.account,
  router: storage.router!,
  dex: "v2",
  pool_type: "v2_constant_product",
  token0_wallet: storage.token0!,
  token1_wallet: storage.token1!,
  token0_master: MAINNET_USDT,
  token1_master: PTON_V2_MASTER,
  created_lt: null,
  created_utime: null,
  version: 1n,
};

const lookupsOf = (trace: LoadedTrace): CoreLookups => ({
  walletMaster: async (wallet) => trace.masters.get(wallet) ?? null,
  jetton: async () => null,
  router: async () => null,
  poolType: async () => undefined,
});

type Priced = { swaps: SwapRow[]; fees: ReferralFeeRow[]; withdrawals: VaultWithdrawalRow[] };

async function rowsOf(trace: LoadedTrace, withTonUsd = true): Promise<Priced> {
  const core = new ProcessorCore(
    { windowBlocks: 64, lookups: lookupsOf(trace), pricing: MAINNET_PRICING },
    (types) => PoolTracker.fromRows(withTonUsd ? [tonUsdState] : [], withTonUsd ? [tonUsdPool] : [], types),
  );
  if (withTonUsd) core.restore({ pools: [tonUsdPool], routers: [] });
  const out: Priced = { swaps: [], fees: [], withdrawals: [] };
  for (const r of [await core.process(trace.txs), await core.process([], true)]) {
    out.swaps.push(...(r.rows.swaps ?? []));
    out.fees.push(...(r.rows.referral_fees ?? []));
    out.withdrawals.push(...(r.rows.vault_withdrawals ?? []));
  }
  return out;
}

const swapsOf = async (trace: LoadedTrace, withTonUsd = true) => (await rowsOf(trace, withTonUsd)).swaps;

const traces = new Map(loadAllTraces().map((t) => [t.name, t]));

const near = (actual: number | null, expected: number) =>
  actual !== null && Math.abs(actual - expected) <= 1e-12 * Math.abs(expected);

/** [trace, offer amount, volume_usd, untracked_volume_usd] of each leg, from the INDEX.md amounts. */
const EXPECTED: [string, bigint, number | null, number | null][] = [
  // TON → NOT: 44.426053349 TON at the pool's TON/USD
  ["mixed-dedust-coffee-stonfi-v2.json", 44426053349n, 44.426053349 * TON_USD, 0],
  // NOT → USD₮: the USD₮ side, 0.092994
  ["v1-jetton-to-jetton.json", 53303435994n, 0.092994, 0],
  // tsTON (an LSD without a rate: no quote) → TON: the TON side, 28.517149387 TON
  ["v1-jetton-to-ton-referral.json", 27051113105n, 28.517149387 * TON_USD, 0],
  ["v1-jetton-to-ton.json", 690431808125n, 0.392421171 * TON_USD, 0],
  // refunded: not executed, nothing known
  ["v1-ton-to-jetton-failed-refund.json", 3400000000n, null, null],
  // STON → USD₮ → jetton across two routers: each leg is valued by its USD₮ side, 37.841924
  ["v2-jetton-to-jetton-two-routers-referral.json", 7205784725n, 37.841924, 0],
  ["v2-jetton-to-jetton-two-routers-referral.json", 37841924n, 37.841924, 0],
  // two unpriced jettons: untracked (0), with no estimate at all
  ["v2-jetton-to-jetton.json", 100000000n, 0, null],
];

test("mainnet traces: each executed leg valued by its quote side at the TON/USD of the real USD₮/pTON pool", async (t) => {
  const rows = new Map<string, SwapRow[]>();
  for (const [name, trace] of traces) rows.set(name, await swapsOf(trace));
  t.is([...rows.values()].flat().length, EXPECTED.length);
  for (const [name, amountIn, volume, untracked] of EXPECTED) {
    const row = rows.get(name)?.find((r) => r.amount_in === amountIn);
    t.truthy(row, `${name}: leg of ${amountIn}`);
    if (volume === null || volume === 0) t.is(row?.volume_usd, volume, name);
    else t.true(near(row?.volume_usd ?? null, volume), `${name}: ${row?.volume_usd} ≉ ${volume}`);
    t.is(row?.untracked_volume_usd, untracked, name);
    // the traces' pools have no known state (active before the recording): their LP fee is not known
    t.is(row?.lp_fee_usd, null, name);
  }
});

test("mainnet traces without any TON/USD pool: TON legs are untracked and unknown, never priced from nothing", async (t) => {
  const [row] = await swapsOf(traces.get("v1-jetton-to-ton.json")!, false);
  t.is(row?.volume_usd, 0);
  t.is(row?.untracked_volume_usd, null);
  const [usdt] = await swapsOf(traces.get("v1-jetton-to-jetton.json")!, false);
  t.is(usdt?.volume_usd, 0.092994);
});

test("mainnet traces: referral fees valued at their own transaction — TON at the real pool's TON/USD, USD₮ at face value, an unpriced jetton null", async (t) => {
  const fees = (await Promise.all([...traces.values()].map((tr) => rowsOf(tr)))).flatMap((r) => r.fees);
  const usd = (master: string, amount: bigint) =>
    fees.find((f) => f.asset_master === master && f.amount === amount)?.amount_usd;
  t.is(fees.length, 3);
  // v1 jetton → TON with a referrer: 0.014272848 TON paid to it (pTON v1, a TON alias)
  t.true(near(usd(PTON_V1_MASTER, 14272848n) ?? null, 0.014272848 * TON_USD));
  // v2 STON → USD₮ → jetton: the first hop's fee in USD₮ (6 decimals), the second's in a jetton nothing prices
  t.is(usd(MAINNET_USDT, 37918n), 0.037918);
  t.is(usd("0:AE3E6D351E576276E439E7168117FD64696FD6014CB90C77B2F2CBAACD4FCC00", 34025114n), null);
  // without any TON/USD pool the TON fee is unknown, never 0
  const [ton] = (await rowsOf(traces.get("v1-jetton-to-ton-referral.json")!, false)).fees;
  t.is(ton?.amount_usd, null);
});

test("devnet: every executed leg has a USD volume; dUSD legs at face value; TON legs near the catalogue's TON/USD", async (t) => {
  const run = await runDevnet({ seed: 7, blocks: 40 });
  const pricing = { ...MAINNET_PRICING, ...devnetPricingAnchors(run.devnet.world), ...DEFAULT_THRESHOLDS };
  const core = new ProcessorCore({ windowBlocks: 16, lookups: chainStateLookups(run.devnet.state), pricing });
  const swaps: SwapRow[] = [];
  const states: PoolStateRow[] = [];
  const amounts: (ReferralFeeRow | VaultWithdrawalRow)[] = [];
  for (const b of [...run.blocks.map((b) => b.transactions), "flush" as const]) {
    const r = b === "flush" ? await core.process([], true) : await core.process(b);
    swaps.push(...(r.rows.swaps ?? []));
    states.push(...(r.rows.pool_states ?? []));
    amounts.push(...(r.rows.referral_fees ?? []), ...(r.rows.vault_withdrawals ?? []));
  }
  const dUsd = pricing.usdAnchors[0]!.address;
  const tonAliases = new Set(pricing.tonAliases);
  const executed = swaps.filter((s) => s.success === true && s.amount_out !== null);
  t.true(executed.length > 50, `${executed.length} executed legs`);
  for (const s of swaps) {
    if (s.success !== true) t.is(s.volume_usd, null);
    else t.not(s.volume_usd, null);
  }
  let tonLegs = 0;
  for (const s of executed) {
    const offerTon = tonAliases.has(s.offer_master ?? "");
    const askTon = tonAliases.has(s.ask_master ?? "");
    if (s.offer_master === dUsd && !askTon) t.true(near(s.volume_usd, Number(s.amount_in) / 1e6));
    if (s.ask_master === dUsd && !offerTon) t.true(near(s.volume_usd, Number(s.amount_out) / 1e6));
    // TON against a non-quote: the implied TON price is near the catalogue's 5.2 USD (the seed moves it)
    if ((offerTon && s.ask_master !== dUsd) || (askTon && s.offer_master !== dUsd)) {
      tonLegs++;
      const tonAmount = Number(offerTon ? s.amount_in : s.amount_out!) / 1e9;
      const implied = (s.volume_usd ?? 0) / tonAmount;
      t.true(implied > 5.2 / 1.5 && implied < 5.2 * 1.5, `implied TON/USD ${implied}`);
    }
    // the LP fee: volume × the pool's LP fee (bps) before the swap
    const before = states
      .filter(
        (p) => p.pool === s.pool && (p.mc_seqno < s.mc_seqno || (p.mc_seqno === s.mc_seqno && p.lt < s.lt)),
      )
      .at(-1);
    t.true(before !== undefined, "the devnet tracks every pool from its deployment");
    t.true(near(s.lp_fee_usd, ((s.volume_usd ?? 0) * before!.lp_fee_bps) / 1e4) || s.lp_fee_usd === 0);
  }
  t.true(tonLegs > 10, `${tonLegs} TON legs`);
  // Referral fees (and withdrawals): dUSD at face value, TON near the catalogue's TON/USD, never unpriced here
  const happened = amounts.filter((a) => a.success === true);
  t.true(happened.length > 20, `${happened.length} accruals and withdrawals`);
  let dUsdFees = 0;
  let tonFees = 0;
  for (const a of amounts) {
    if (a.success !== true) t.is(a.amount_usd, null);
    else if (a.asset_master === dUsd) {
      dUsdFees++;
      t.true(near(a.amount_usd, Number(a.amount) / 1e6), `${a.id}: ${a.amount_usd}`);
    } else if (tonAliases.has(a.asset_master ?? "")) {
      tonFees++;
      const implied = (a.amount_usd ?? 0) / (Number(a.amount) / 1e9);
      t.true(implied > 5.2 / 1.5 && implied < 5.2 * 1.5, `${a.id}: implied TON/USD ${implied}`);
    } else t.true(a.amount_usd !== null && a.amount_usd > 0, `${a.id}: ${a.amount_usd}`);
  }
  t.true(dUsdFees > 3 && tonFees > 10, `${dUsdFees} dUSD and ${tonFees} TON fees`);
});

test("devnet: a processor restarted from its stored rows stores the same USD columns as one that never stopped", async (t) => {
  const run = await runDevnet({ seed: 9, blocks: 50 });
  const pricing = { ...MAINNET_PRICING, ...devnetPricingAnchors(run.devnet.world), ...DEFAULT_THRESHOLDS };
  const lookups = chainStateLookups(run.devnet.state);
  type Rows = {
    swaps: SwapRow[];
    fees: ReferralFeeRow[];
    states: PoolStateRow[];
    pools: PoolRow[];
    routers: RouterRow[];
  };
  const feed = async (core: ProcessorCore, blocks: typeof run.blocks, into: Rows, flush: boolean) => {
    const add = (r: Awaited<ReturnType<ProcessorCore["process"]>>["rows"]) => {
      into.swaps.push(...(r.swaps ?? []));
      into.fees.push(...(r.referral_fees ?? []));
      into.states.push(...(r.pool_states ?? []));
      into.pools.push(...(r.pools ?? []));
      into.routers.push(...(r.routers ?? []));
    };
    for (const b of blocks) add((await core.process(b.transactions)).rows);
    if (flush) add((await core.process([], true)).rows);
  };
  const empty = (): Rows => ({ swaps: [], fees: [], states: [], pools: [], routers: [] });
  const whole = empty();
  await feed(new ProcessorCore({ windowBlocks: 8, lookups, pricing }), run.blocks, whole, true);

  // Stopped after block `stop`; restarted from the stored rows after its cursor (`resumeAfter`).
  const stop = run.blocks[Math.floor((run.blocks.length * 3) / 4)]!.mc_seqno;
  const before = empty();
  const first = new ProcessorCore({ windowBlocks: 8, lookups, pricing });
  await feed(
    first,
    run.blocks.filter((b) => b.mc_seqno <= stop),
    before,
    false,
  );
  const after = first.resumeAfter();
  const last = <R extends { version: bigint }>(rows: R[], key: (r: R) => string) => [
    ...new Map(rows.map((r) => [key(r), r])).values(),
  ];
  const pools = last(before.pools, (p) => p.pool);
  const latest = [...new Map(before.states.map((s) => [s.pool, s])).values()];
  const second = new ProcessorCore({ windowBlocks: 8, lookups, pricing, resumedAfter: after }, (types) =>
    PoolTracker.fromRows(latest, pools, types),
  );
  second.restore({ pools, routers: last(before.routers, (r) => r.address), poolStates: before.states });
  const resumed = empty();
  await feed(
    second,
    run.blocks.filter((b) => b.mc_seqno > after),
    resumed,
    true,
  );
  // the restart re-releases the legs still in the window at the stop (without the stored states, these
  // would be priced with states after them)
  t.true(resumed.swaps.filter((x) => x.mc_seqno <= stop).length > 0);
  // what the store holds: the later write of an id wins (ReplacingMergeTree)
  const stored = new Map([...before.swaps, ...resumed.swaps].map((s) => [s.id, s]));
  t.is(stored.size, whole.swaps.length);
  const usd = (s: SwapRow | undefined) => [s?.volume_usd, s?.untracked_volume_usd, s?.lp_fee_usd];
  let priced = 0;
  for (const s of whole.swaps) {
    t.deepEqual(usd(stored.get(s.id)), usd(s), s.id);
    if (s.volume_usd !== null && s.volume_usd > 0) priced++;
  }
  t.true(priced > 50, `${priced} priced legs`);
  const storedFees = new Map([...before.fees, ...resumed.fees].map((f) => [f.id, f]));
  t.is(storedFees.size, whole.fees.length);
  for (const f of whole.fees) t.is(storedFees.get(f.id)?.amount_usd, f.amount_usd, f.id);
  t.true(whole.fees.filter((f) => f.amount_usd !== null).length > 20);
});
