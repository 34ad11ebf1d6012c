/**
 * `/v1/stats/*` on the devnet equal figures recomputed here from the ground truth (what the contracts
 * executed, ingest/devnet/chain/truth.ts), over a run spanning several days of chain time (30-minute
 * blocks), for windows that cut minutes, hours and days at odd seconds (so every rollup level and the raw
 * edges are read). Independent of the processor: a trade is a truth `swap` the pool executed (an output),
 * its wallet the account whose external message started the trace (walked up the message edges of the
 * devnet's own transactions), its volumes the truth amounts. Every body is parsed with its route's schema,
 * and the official client's stats methods are called unchanged.
 */

import { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import type { ApiDeps } from "../../api/deps.ts";
import { poolStats } from "../../api/queries/stats.ts";
import type { DexReadModel, PoolRecord, RawAddress } from "../../api/read-model.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { ClickHouseStatsReadModel } from "../../api/read-model-stats.ts";
import type { PoolStatsListView } from "../../api/views.ts";
import { ratio, toDecimalString } from "../../dex/amm/index.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { assetSpec } from "../../ingest/devnet/sim/catalog.ts";
import { ohlcvResponse } from "../../schemas/api/ohlcv.ts";
import {
  dexStatsResponse,
  feeAccrualsResponse,
  feeStatsResponse,
  feeWithdrawalsResponse,
  poolStatsResponse,
} from "../../schemas/api/stats.ts";
import { operationsResponse } from "../../schemas/api/wallets.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { type ApiDevnet, apiTime, fr, rawOf, startApiDevnet } from "../helpers/api-devnet.ts";

const test = anyTest as TestFn<{ net: ApiDevnet; roots: Map<string, string> }>;

const BLOCK_SECONDS = 1800;

test.before(async (t) => {
  const net = await startApiDevnet({
    seed: 16,
    marketBlocks: 170,
    actionsPerBlock: 5,
    blockSeconds: BLOCK_SECONDS,
  });
  t.context = { net, roots: traceRoots(net.blocks.flatMap((b) => b.transactions)) };
});

test.after.always(async (t) => {
  await t.context.net?.close();
});

/** Transaction hash → account of its trace's root (the transaction processing an external message). */
function traceRoots(txs: readonly RawTransaction[]): Map<string, string> {
  const bySentMsg = new Map<string, RawTransaction>();
  for (const tx of txs) for (const m of tx.out_msgs) bySentMsg.set(m.hash, tx);
  const roots = new Map<string, string>();
  for (const tx of txs) {
    let top = tx;
    for (let i = 0; i < 100; i++) {
      const parent = top.in_msg && top.in_msg.source !== null ? bySentMsg.get(top.in_msg.hash) : undefined;
      if (parent === undefined) break;
      top = parent;
    }
    roots.set(tx.hash, top.account.toUpperCase());
  }
  return roots;
}

const addr = (v: unknown): string | null => (v instanceof Address ? rawOf(v) : null);
const big = (v: unknown): bigint | null => (typeof v === "bigint" ? v : null);
const inWindow = (r: TruthRecord, since: number, until: number) => r.now >= since && r.now <= until;

type PoolTruth = {
  trades: number;
  wallets: Set<string>;
  volume: Map<string, bigint>;
  referral: Map<string, bigint>;
  /** The pool's last executed swap in the window, by chain order (mc_seqno, lt). */
  last: TruthRecord | null;
};

const chainOrder = (a: TruthRecord, b: TruthRecord) =>
  a.mc_seqno - b.mc_seqno || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0);

function truthOf(net: ApiDevnet, roots: Map<string, string>, since: number, until: number) {
  const pools = new Map<string, PoolTruth>();
  const wallets = new Set<string>();
  let trades = 0;
  let swapOps = 0;
  const add = (m: Map<string, bigint>, k: string | null, v: bigint | null) => {
    if (k !== null && v !== null) m.set(k, (m.get(k) ?? 0n) + v);
  };
  for (const r of net.truth) {
    if (r.type !== "swap" || !inWindow(r, since, until)) continue;
    const pool = addr(r.fields.pool);
    if (pool === null) continue;
    swapOps++;
    const out = big(r.fields.amount_out);
    if (out === null || out <= 0n) continue;
    const p = pools.get(pool) ?? {
      trades: 0,
      wallets: new Set(),
      volume: new Map(),
      referral: new Map(),
      last: null,
    };
    pools.set(pool, p);
    const wallet = roots.get(r.tx_hash);
    if (wallet === undefined) throw new Error(`no trace root for ${r.tx_hash}`);
    p.trades++;
    if (p.last === null || chainOrder(p.last, r) < 0) p.last = r;
    p.wallets.add(wallet);
    wallets.add(wallet);
    trades++;
    add(p.volume, addr(r.fields["offer.router_wallet"]), big(r.fields.amount_in));
    add(p.volume, addr(r.fields["ask.router_wallet"]), out);
    add(p.referral, addr(r.fields["ask.router_wallet"]), big(r.fields.referral_fee));
  }
  return { pools, wallets, trades, swapOps };
}

/** The exact decimal of y/x in whole units, as the candles print it (18 digits, half-up). */
const wholePrice = (x: bigint, y: bigint, dx: number, dy: number) =>
  toDecimalString(ratio(y * 10n ** BigInt(dx), x * 10n ** BigInt(dy)), 18, "half-up");

/** The last trade's token1 per token0 in whole units (18 digits, half-up), as `last_price` states it. */
function lastPriceOf(net: ApiDevnet, pool: string, last: TruthRecord | null): string | null {
  const spec = net.devnet.pools.find((p) => rawOf(p.address) === pool);
  if (last === null || spec === undefined) return null;
  const inIs0 = addr(last.fields["offer.router_wallet"]) === rawOf(spec.wallet0);
  const [a0, a1] = inIs0
    ? [big(last.fields.amount_in)!, big(last.fields.amount_out)!]
    : [big(last.fields.amount_out)!, big(last.fields.amount_in)!];
  return wholePrice(a0, a1, assetSpec(spec.token0).decimals, assetSpec(spec.token1).decimals);
}

async function get<T>(net: ApiDevnet, path: string, schema: { parse(v: unknown): T }): Promise<T> {
  const res = await fetch(`${net.api.baseURL}${path}`);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return schema.parse(body);
}

/** Chain-time bounds of the run, windows cutting minutes, hours and days at odd seconds, and windows on whole ones. */
function windows(net: ApiDevnet) {
  const times = net.truth.map((r) => r.now);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const oneLeg = net.truth.find((r) => r.type === "swap" && big(r.fields.amount_out) !== null)!;
  /** The first midnight after the run's first record. */
  const day = Math.ceil(first / 86_400) * 86_400;
  return [
    { name: "whole run", since: first, until: last },
    { name: "days cut at odd seconds", since: first + 3 * 3600 + 17, until: last - 5 * 3600 - 41 },
    { name: "under a minute", since: oneLeg.now - 7, until: oneLeg.now + 20 },
    { name: "hours inside one day", since: first + 86_400 + 123, until: first + 86_400 + 5 * 3600 + 3599 },
    // Windows on whole minutes, hours and days, which have no part read from the facts (each statement
    // reads only the parts its window has).
    { name: "whole days", since: day, until: Math.floor(last / 86_400) * 86_400 - 1 },
    {
      name: "whole hours and days",
      since: day + 2 * 3600,
      until: Math.floor(last / 86_400) * 86_400 - 3600 - 1,
    },
    {
      name: "whole hours across midnight",
      since: day + 86_400 - 3 * 3600,
      until: day + 86_400 + 5 * 3600 - 1,
    },
    { name: "whole minutes", since: day + 3 * 3600 + 7 * 60, until: day + 3 * 3600 + 50 * 60 - 1 },
  ];
}

test.serial("the run spans several days of chain time", (t) => {
  const { net } = t.context;
  const times = net.truth.map((r) => r.now);
  const days = (Math.max(...times) - Math.min(...times)) / 86_400;
  t.true(days > 3, `${days.toFixed(2)} days`);
  t.log(`${net.truth.length} truth records over ${days.toFixed(2)} days, ${net.blocks.length} blocks`);
});

test.serial("/v1/stats/dex and /v1/stats/pool equal the ground truth in every window", async (t) => {
  const { net, roots } = t.context;
  const model = new ClickHouseReadModel(net.pipeline.store);
  for (const w of windows(net)) {
    const truth = truthOf(net, roots, w.since, w.until);
    // Every window holds trades, so each part it is read from has something to add up.
    t.true(truth.trades > 0, `${w.name}: no trade in the window`);
    const q = `since=${apiTime(w.since)}&until=${apiTime(w.until)}`;
    const dex = await get(net, `/v1/stats/dex?${q}`, dexStatsResponse);
    t.deepEqual(
      { trades: dex.stats.trades, unique_wallets: dex.stats.unique_wallets },
      { trades: truth.trades, unique_wallets: truth.wallets.size },
      w.name,
    );
    t.is(dex.since, apiTime(w.since));
    const pool = await get(net, `/v1/stats/pool?${q}&unique_wallets=true`, poolStatsResponse);
    t.is(pool.unique_wallets_count, truth.wallets.size, w.name);
    // Without unique_wallets=true: the same list, without each pool's distinct wallets.
    const plain = await get(net, `/v1/stats/pool?${q}`, poolStatsResponse);
    t.deepEqual(
      plain,
      { ...pool, stats: pool.stats.map(({ unique_wallets: _, ...rest }) => rest) },
      `${w.name}: without unique_wallets`,
    );
    const traded = pool.stats.filter((s) => s.trades > 0);
    t.is(traded.length, truth.pools.size, w.name);
    for (const s of traded) {
      const raw = rawOf(Address.parse(s.pool_address));
      const p = truth.pools.get(raw);
      const record = await model.getPool(raw);
      if (p === undefined || record?.token0Wallet == null || record.token1Wallet == null) {
        t.fail(`${w.name}: pool ${s.pool_address} not in the truth or without token wallets`);
        continue;
      }
      const w0 = record.token0Wallet.toUpperCase();
      const w1 = record.token1Wallet.toUpperCase();
      t.deepEqual(
        {
          trades: s.trades,
          unique_wallets: s.unique_wallets,
          base: s.base_volume_units,
          quote: s.quote_volume_units,
          referral: [s.referral_fee_base_units, s.referral_fee_quote_units],
          last_price: s.last_price,
        },
        {
          trades: p.trades,
          unique_wallets: p.wallets.size,
          base: String(p.volume.get(w0) ?? 0n),
          quote: String(p.volume.get(w1) ?? 0n),
          referral: [String(p.referral.get(w0) ?? 0n), String(p.referral.get(w1) ?? 0n)],
          last_price: lastPriceOf(net, raw, p.last),
        },
        `${w.name}: ${s.pool_address}`,
      );
    }
    const one = traded[0];
    if (one !== undefined) {
      const single = await get(
        net,
        `/v1/stats/pool?${q}&pool_address=${one.pool_address}`,
        poolStatsResponse,
      );
      t.deepEqual(single.stats, [one]);
      t.is(single.unique_wallets_count, one.unique_wallets ?? -1);
    }
    const ops = await get(net, `/v1/stats/operations?${q}`, operationsResponse);
    t.is(ops.operations.filter((o) => o.operation.operation_type === "Swap").length, truth.swapOps, w.name);
  }
});

test.serial(
  "/v1/stats/pool of pools whose records lack their router and token1's wallet: both read from the rollups",
  async (t) => {
    const { net } = t.context;
    const store = new ClickHouseReadModel(net.pipeline.store);
    const stats = new ClickHouseStatsReadModel(net.pipeline.store);
    // The same pools, less what a record may not know yet (a router not revealed, one wallet not seen).
    const lacking = (p: PoolRecord): PoolRecord => ({ ...p, router: null, token1Wallet: null });
    const partial: DexReadModel = Object.assign(Object.create(store) as DexReadModel, {
      listPools: async () => (await store.listPools()).map(lacking),
      getPool: async (a: RawAddress) => {
        const p = await store.getPool(a);
        return p === null ? null : lacking(p);
      },
    });
    const deps = (data: DexReadModel) => ({ data, stats, clock: () => Date.now() }) as unknown as ApiDeps;
    const figures = (v: PoolStatsListView) =>
      v.pools.map((p) => ({
        pool: p.pool,
        router: p.router,
        base: [p.baseVolume, p.protocolFeeBase, p.referralFeeBase],
        quote: [p.quoteVolume, p.protocolFeeQuote, p.referralFeeQuote],
        last: p.last,
      }));
    let pools = 0;
    for (const w of windows(net)) {
      const full = figures(await poolStats(deps(store), { since: w.since, until: w.until }));
      t.true(
        full.every((p) => p.router !== null),
        `${w.name}: every record names its router`,
      );
      t.deepEqual(figures(await poolStats(deps(partial), { since: w.since, until: w.until })), full, w.name);
      pools += full.length;
    }
    t.true(pools > 0);
  },
);

test.serial("/v1/stats/dex without parameters: from the launch to the newest indexed block", async (t) => {
  const { net, roots } = t.context;
  const dex = await get(net, "/v1/stats/dex", dexStatsResponse);
  const truth = truthOf(net, roots, 0, 2 ** 32);
  t.is(dex.since, "2022-11-18T00:00:00");
  t.deepEqual([dex.stats.trades, dex.stats.unique_wallets], [truth.trades, truth.wallets.size]);
});

test.serial(
  "referral fees: accruals (v1 direct, v2 vault) and withdrawals equal the ground truth",
  async (t) => {
    const { net } = t.context;
    const model = new ClickHouseReadModel(net.pipeline.store);
    // Router wallet → asset (TON for the pTON side), as the pools name them: how the API names fee assets.
    const assetOfWallet = new Map<string, string>();
    for (const p of await model.listPools()) {
      if (p.token0Wallet && p.token0) assetOfWallet.set(p.token0Wallet.toUpperCase(), p.token0);
      if (p.token1Wallet && p.token1) assetOfWallet.set(p.token1Wallet.toUpperCase(), p.token1);
    }
    const referrers = new Set(
      net.truth.flatMap((r) =>
        r.type === "referral_payment" || r.type === "vault_deposit" ? [addr(r.fields.referrer)!] : [],
      ),
    );
    t.true(referrers.size >= 2, `${referrers.size} referrers`);
    // Each accrual's and withdrawal's USD value as the processor stored it with its fact (priced at its own
    // transaction: test/unit/processors/swap-usd.test.ts), by anchoring transaction: the stats must add up
    // exactly those of the window, whatever rollup levels the window is read from.
    const usdOfTx = new Map<string, number | null>();
    for (const table of ["referral_fees", "vault_withdrawals"]) {
      const rows = await net.pipeline.store.query(
        `SELECT tx_hash, amount_usd FROM ${table} FINAL WHERE success = true`,
        z.object({ tx_hash: z.string(), amount_usd: z.number().nullable() }),
      );
      for (const r of rows) usdOfTx.set(r.tx_hash, r.amount_usd);
    }
    let checked = 0;
    for (const w of windows(net)) {
      for (const referrer of referrers) {
        const inW = net.truth.filter((r) => inWindow(r, w.since, w.until));
        const accruals = inW.filter(
          (r) =>
            (r.type === "referral_payment" || r.type === "vault_deposit") &&
            addr(r.fields.referrer) === referrer,
        );
        const withdrawals = inW.filter(
          (r) => r.type === "vault_withdrawal" && addr(r.fields.owner) === referrer,
        );
        const perAsset = new Map<
          string,
          { accrued: bigint; withdrawn: bigint; accruedUsd: number; withdrawnUsd: number }
        >();
        const bump = (r: TruthRecord, key: "accrued" | "withdrawn") => {
          const asset = assetOfWallet.get(addr(r.fields["asset.router_wallet"])!)!;
          const v = perAsset.get(asset) ?? { accrued: 0n, withdrawn: 0n, accruedUsd: 0, withdrawnUsd: 0 };
          v[key] += big(r.fields.amount)!;
          const usd = usdOfTx.get(r.tx_hash.toUpperCase()) ?? usdOfTx.get(r.tx_hash);
          if (typeof usd !== "number") throw new Error(`${r.tx_hash}: no USD value stored (${usd})`);
          v[`${key}Usd`] += usd;
          perAsset.set(asset, v);
        };
        for (const r of accruals) bump(r, "accrued");
        for (const r of withdrawals) bump(r, "withdrawn");
        const q = `since=${apiTime(w.since)}&until=${apiTime(w.until)}&referrer_address=${fr(Address.parseRaw(referrer))}`;
        const fees = await get(net, `/v1/stats/fees?${q}`, feeStatsResponse);
        const got = Object.fromEntries(
          fees.assets_fee_stats.map((a) => [a.asset_address, { accrued: a.accrued, withdrawn: a.withdrawn }]),
        );
        const want = Object.fromEntries(
          [...perAsset].map(([a, v]) => [
            fr(Address.parseRaw(a)),
            { accrued: String(v.accrued), withdrawn: String(v.withdrawn) },
          ]),
        );
        t.deepEqual(got, want, `${w.name}: fees of ${referrer}`);
        const near = (text: string | null | undefined, usd: number) =>
          text != null && Math.abs(Number(text) - usd) <= 1e-6 + 1e-9 * usd;
        for (const a of fees.assets_fee_stats) {
          const v = perAsset.get(rawOf(Address.parse(a.asset_address)))!;
          t.true(near(a.accrued_usd, v.accruedUsd), `${w.name}: ${a.accrued_usd} ≉ ${v.accruedUsd}`);
          t.true(near(a.withdrawn_usd, v.withdrawnUsd), `${w.name}: ${a.withdrawn_usd} ≉ ${v.withdrawnUsd}`);
        }
        const sum = (k: "accruedUsd" | "withdrawnUsd") =>
          [...perAsset.values()].reduce((s, v) => s + v[k], 0);
        t.true(near(fees.total_accrued_usd, sum("accruedUsd")), `${w.name}: total accrued`);
        t.true(near(fees.total_withdrawn_usd, sum("withdrawnUsd")), `${w.name}: total withdrawn`);
        // fee_accruals lists the swaps that paid the fee, at their pool transaction's time (a v2 deposit
        // reaches the vault a few blocks later, which /v1/stats/fees counts at its own time).
        const paidBy = inW.filter(
          (r) =>
            r.type === "swap" &&
            addr(r.fields.referrer) === referrer &&
            (big(r.fields.referral_fee) ?? 0n) > 0n &&
            (big(r.fields.amount_out) ?? 0n) > 0n,
        );
        const acc = await get(net, `/v1/stats/fee_accruals?${q}`, feeAccrualsResponse);
        t.deepEqual(
          acc.operations.map((o) => [o.pool_tx_hash, o.dex_version, o.referral_fee_amount]).sort(),
          paidBy
            .map((r) => [r.tx_hash, r.fields.dex === "v1" ? 1 : 2, String(big(r.fields.referral_fee))])
            .sort(),
          `${w.name}: accruals of ${referrer}`,
        );
        const wd = await get(net, `/v1/stats/fee_withdrawals?${q}`, feeWithdrawalsResponse);
        t.deepEqual(
          wd.withdrawals.map((x) => [x.vault_tx_hash, x.amount, x.success]),
          withdrawals.map((r) => [r.tx_hash, String(big(r.fields.amount)), true]),
          `${w.name}: withdrawals of ${referrer}`,
        );
        checked += accruals.length + withdrawals.length;
      }
    }
    t.true(checked > 0);
    t.log(`${checked} accruals and withdrawals checked over ${referrers.size} referrers`);
  },
);

test.serial("the official client's stats methods work unchanged", async (t) => {
  const { net } = t.context;
  const [since, until] = [new Date(net.truth[0]!.now * 1000), new Date(net.truth.at(-1)!.now * 1000)];
  const ops = await net.client.getOperations({ since, until });
  t.true(ops.length > 0);
  t.truthy(ops[0]?.operation.poolAddress);
  const referrer = net.truth.find((r) => r.type === "vault_deposit")!;
  const referrerAddress = fr(referrer.fields.referrer as Address);
  const fees = await net.client.getAssetsFeeStats({ since, until, referrerAddress });
  t.true(fees.assetsFeeStats.length > 0);
  const accruals = await net.client.getAccrualsFeeStats({ since, until, referrerAddress });
  t.true(accruals.length > 0);
  t.is(accruals[0]?.referralAddress, referrerAddress);
  const withdrawals = await net.client.getWithdrawalsFeeStats({ since, until, referrerAddress });
  t.true(Array.isArray(withdrawals));
});

test.serial("bad windows are 400 naming the field", async (t) => {
  const { net } = t.context;
  const cases: [string, string][] = [
    ["/v1/stats/pool?since=2024-01-02T00:00:00&until=2024-01-01T00:00:00", "until"],
    ["/v1/stats/dex?since=2023-02-30T00:00:00", "since"],
    ["/v1/stats/operations?since=2024-01-01T00:00:00", "until"],
    [
      "/v1/stats/fees?since=2024-01-01T00:00:00&until=2024-01-02T00:00:00&referrer_address=x",
      "referrer_address",
    ],
    ["/v1/stats/dex?until=2200-01-01T00:00:00", "until"],
  ];
  for (const [path, field] of cases) {
    const res = await fetch(`${net.api.baseURL}${path}`);
    t.is(res.status, 400, path);
    t.regex(JSON.stringify(await res.json()), new RegExp(field), path);
  }
});

test.serial(
  "candles: O/H/L/C and volume of 4-hour intervals equal the pool's trades in chain order",
  async (t) => {
    const { net } = t.context;
    const executed = net.truth.filter((r) => r.type === "swap" && (big(r.fields.amount_out) ?? 0n) > 0n);
    // The busiest pool, and one swap of its trades in the token0 → token1 direction and back.
    const counts = new Map<string, number>();
    for (const r of executed) counts.set(addr(r.fields.pool)!, (counts.get(addr(r.fields.pool)!) ?? 0) + 1);
    const busiest = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const pool = net.devnet.pools.find((p) => rawOf(p.address) === busiest)!;
    const d0 = assetSpec(pool.token0).decimals;
    const d1 = assetSpec(pool.token1).decimals;
    const w0 = rawOf(pool.wallet0);
    const step = 4 * 3600;
    type Acc = { open: string; close: string; hi: number; lo: number; vol: bigint; n: number };
    const want = new Map<number, Acc>();
    const trades = executed
      .filter((r) => addr(r.fields.pool) === busiest)
      .sort((a, b) => a.mc_seqno - b.mc_seqno || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    for (const r of trades) {
      const inIs0 = addr(r.fields["offer.router_wallet"]) === w0;
      const a0 = inIs0 ? big(r.fields.amount_in)! : big(r.fields.amount_out)!;
      const a1 = inIs0 ? big(r.fields.amount_out)! : big(r.fields.amount_in)!;
      const price = wholePrice(a0, a1, d0, d1);
      const start = Math.floor(r.now / step) * step;
      const acc = want.get(start);
      const f = Number(price);
      if (acc === undefined) want.set(start, { open: price, close: price, hi: f, lo: f, vol: a1, n: 1 });
      else {
        acc.close = price;
        acc.hi = Math.max(acc.hi, f);
        acc.lo = Math.min(acc.lo, f);
        acc.vol += a1;
        acc.n++;
      }
    }
    const res = await get(
      net,
      `/v1/pools/${fr(pool.address)}/ohlcv?timeframe=hour&aggregate=4&limit=1000`,
      ohlcvResponse,
    );
    t.is(res.ohlcv_list.length, want.size);
    for (const [ts, o, h, l, c, v] of res.ohlcv_list) {
      const w = want.get(ts);
      if (w === undefined) {
        t.fail(`no trades in the interval at ${ts}`);
        continue;
      }
      t.deepEqual(
        [o, c, v],
        [w.open, w.close, toDecimalString(ratio(w.vol, 10n ** BigInt(d1)), d1, "floor")],
        `${ts}`,
      );
      t.true(
        Math.abs(Number(h) / w.hi - 1) < 1e-9 && Math.abs(Number(l) / w.lo - 1) < 1e-9,
        `${ts}: ${h}/${l} vs ${w.hi}/${w.lo}`,
      );
    }
    t.log(`${trades.length} trades of ${pool.token0}/${pool.token1} in ${want.size} 4-hour candles`);
    // `limit` newest intervals with trades, before an instant just after the last one: the newest of the list.
    const after = (res.ohlcv_list.at(-1)?.[0] ?? 0) + 4 * 3600;
    for (let limit = 1; limit <= res.ohlcv_list.length; limit++) {
      const some = await get(
        net,
        `/v1/pools/${fr(pool.address)}/ohlcv?timeframe=hour&aggregate=4&limit=${limit}&before_timestamp=${after}`,
        ohlcvResponse,
      );
      t.deepEqual(some.ohlcv_list, res.ohlcv_list.slice(-limit), `limit ${limit}`);
    }
    // With the empty intervals: every interval from the first trade on, gaps at the previous close.
    const filled = await get(
      net,
      `/v1/pools/${fr(pool.address)}/ohlcv?timeframe=hour&aggregate=4&limit=1000&include_empty_intervals=true`,
      ohlcvResponse,
    );
    const starts = filled.ohlcv_list.map((c) => c[0]);
    t.is(starts[0], Math.min(...want.keys()));
    for (let i = 1; i < starts.length; i++) t.is(starts[i]! - starts[i - 1]!, step);
    for (let i = 1; i < filled.ohlcv_list.length; i++) {
      const [ts, o, h, l, c, v] = filled.ohlcv_list[i]!;
      if (want.has(ts)) continue;
      const prevClose = filled.ohlcv_list[i - 1]![4];
      t.deepEqual([o, c, v], [prevClose, prevClose, "0"], `gap at ${ts}`);
      t.true(h !== null && l !== null);
    }
    // token=quote describes token1 in token0: open is the inverse trade price.
    const inverse = await get(
      net,
      `/v1/pools/${fr(pool.address)}/ohlcv?timeframe=day&limit=1000&token=quote`,
      ohlcvResponse,
    );
    const firstTrade = trades[0]!;
    const inIs0 = addr(firstTrade.fields["offer.router_wallet"]) === w0;
    const a0 = inIs0 ? big(firstTrade.fields.amount_in)! : big(firstTrade.fields.amount_out)!;
    const a1 = inIs0 ? big(firstTrade.fields.amount_out)! : big(firstTrade.fields.amount_in)!;
    t.is(inverse.ohlcv_list[0]?.[1], wholePrice(a1, a0, d1, d0));
    const bad = await fetch(
      `${net.api.baseURL}/v1/pools/${fr(pool.address)}/ohlcv?timeframe=hour&aggregate=5`,
    );
    t.is(bad.status, 400);
    t.regex(await bad.text(), /aggregate/);
  },
);
