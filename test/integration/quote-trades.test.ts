/**
 * The trades behind the API's VWAP clamp (api/read-model.ts `getQuoteTrades`) read from ClickHouse's
 * `swaps` against the memory read model holding what the same swap rows mean, for single instants, hour
 * boundaries (read from the priced pairs of migration 021), boundaries with gaps between their windows, other
 * instants and windows longer than their step (read from the legs); and against sums worked out by hand. The rows are written twice (a re-delivered batch), and one trade is written again
 * with other contents (a batch retried after its pricing changed): both must count once, as last written; a
 * leg written priced and then unpriced must count nowhere.
 * chdb allows one data path per process (ava runs each file in its own): one temporary path, removed after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import anyTest, { type TestFn } from "ava";
import type { QuoteTradesAt, QuoteTradesQuery } from "../../api/read-model.ts";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { MemoryReadModel } from "../../api/read-model-memory.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { writeBatch } from "../../infra/store/facts-writer.ts";
import { migrate } from "../../infra/store/migrate.ts";
import type { SwapRow } from "../../schemas/facts.ts";
import { TSTON } from "../unit/api/fixtures.ts";
import * as X from "./_read-model-fixtures.ts";

const test = anyTest as TestFn<{ dir: string; store: Store; ch: ClickHouseReadModel; mem: MemoryReadModel }>;

const H = Math.ceil(X.T0 / 3_600) * 3_600; // an hour boundary
const PTON = X.routerOf(X.P_WSTABLE).ptonMaster!;
const QUOTES = [X.USDT, ...new Set(X.ROUTERS.flatMap((r) => (r.ptonMaster === null ? [] : [r.ptonMaster])))];

/** A swap leg at `utime` worth `usd` (null: not priced). */
const leg = (
  n: number,
  utime: number,
  pool: (typeof X.ALL_POOLS)[number],
  offer: string,
  ask: string,
  amounts: [bigint, bigint | null],
  usd: number | null,
): SwapRow =>
  X.swap(n, pool, offer, ask, {
    utime,
    amount_in: amounts[0],
    amount_out: amounts[1],
    ...(amounts[1] === null ? { success: false, payout_amount: amounts[0] } : {}),
    volume_usd: usd,
    untracked_volume_usd: usd === null ? null : 0,
    lp_fee_usd: usd === null ? null : usd * 0.002,
  });

const E9 = 10n ** 9n;
const ROWS: SwapRow[] = [
  // STON against USD₮ (STON the token): in (H − 1 h, H], at H − 1 h exactly, after H
  leg(201, H - 10, X.P_WCPI, X.STON, X.USDT, [2n * E9, 500_000n], 0.5),
  leg(202, H - 3_600, X.P_WCPI, X.USDT, X.STON, [1_250_000n, 3n * E9], 1.25),
  leg(203, H + 1, X.P_WCPI, X.STON, X.USDT, [8n * E9, 2_000_000n], 2),
  // neither side a quote; both sides quotes; untracked (0 USD); refunded (no output, no USD)
  leg(204, H - 5, X.P_BIG, X.STON, X.USDC, [E9, 1_000_000n], 4),
  leg(205, H - 5, X.P_CPI, X.TON, X.USDT, [E9, 3_000_000n], 3),
  leg(206, H - 7, X.P_WCPI, X.STON, X.USDT, [E9, 250_000n], 0),
  leg(207, H - 8, X.P_WCPI, X.STON, X.USDT, [E9, null], null),
  // tsTON for TON (TON the quote, through its pTON master)
  leg(208, H - 20, X.P_WSTABLE, TSTON, X.TON, [E9, 1_100_000_000n], 5),
];
/** Written first with 0.75 USD, then again (a retried batch) with 0.25 USD. */
const RETRIED = leg(209, H - 30, X.P_STABLE, X.USDC, X.USDT, [1_000_000n, 999_000n], 0.25);
/** Written first priced (1.5 USD), then again unpriced: its pair has no other leg in its hour. */
const UNPRICED = leg(210, H - 3_650, X.P_WSTABLE, TSTON, X.TON, [E9, 1_100_000_000n], null);

test.before(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), `tondex-qt-${Math.random().toString(36).slice(2)}-`));
  const store = await openStore({ clickhouseUrl: null, dataDir: dir });
  await migrate(store);
  const position = { consumer: "test", partition_id: 0, mc_seqno: 1, next_offset: 1n };
  await writeBatch(
    store,
    { swaps: [...ROWS, { ...RETRIED, volume_usd: 0.75 }, { ...UNPRICED, volume_usd: 1.5 }] },
    position,
  );
  await writeBatch(store, { swaps: [...ROWS, RETRIED, UNPRICED] }, position);
  const mem = new MemoryReadModel({
    swapUsd: [...ROWS, RETRIED, UNPRICED].flatMap((r) =>
      r.volume_usd === null || r.amount_out === null
        ? []
        : [
            {
              pool: r.pool!,
              utime: r.utime,
              volumeUsd: r.volume_usd,
              lpFeeUsd: r.lp_fee_usd ?? 0,
              offer: r.offer_master!,
              ask: r.ask_master!,
              amountIn: r.amount_in,
              amountOut: r.amount_out,
            },
          ],
    ),
  });
  t.context = { dir, store, ch: new ClickHouseReadModel(store), mem };
});

test.after.always(async (t) => {
  await t.context.store?.close();
  if (t.context.dir) rmSync(t.context.dir, { recursive: true, force: true });
});

const sorted = (rows: readonly QuoteTradesAt[]) =>
  [...rows].sort(
    (a, b) => a.at - b.at || (a.token < b.token ? -1 : a.token > b.token ? 1 : a.quote < b.quote ? -1 : 1),
  );

const QUERIES: Record<string, QuoteTradesQuery> = {
  // hour boundaries with a one-hour window: read from the priced pairs (migration 021); others from the legs
  "one instant": { first: H, last: H, step: 1, windowSeconds: 3_600, quotes: QUOTES },
  "one instant between hours": { first: H - 9, last: H - 9, step: 1, windowSeconds: 3_600, quotes: QUOTES },
  "instants between hours, one token": {
    first: H - 3_609,
    last: H - 9,
    step: 1_800,
    windowSeconds: 3_600,
    quotes: QUOTES,
    tokens: [X.STON],
  },
  "hour boundaries": { first: H - 7_200, last: H + 3_600, step: 3_600, windowSeconds: 3_600, quotes: QUOTES },
  "windows with gaps": {
    first: H - 7_200,
    last: H + 7_200,
    step: 7_200,
    windowSeconds: 3_600,
    quotes: QUOTES,
  },
  "windows longer than the step": {
    first: H - 3_600,
    last: H + 3_600,
    step: 1_800,
    windowSeconds: 7_200,
    quotes: QUOTES,
  },
  "one token": { first: H, last: H, step: 1, windowSeconds: 3_600, quotes: QUOTES, tokens: [X.STON] },
  "no quotes": { first: H, last: H, step: 1, windowSeconds: 3_600, quotes: [] },
};

for (const [name, q] of Object.entries(QUERIES)) {
  test(`${name}: the ClickHouse model answers as the memory model`, async (t) => {
    const [got, want] = await Promise.all([t.context.ch.getQuoteTrades(q), t.context.mem.getQuoteTrades(q)]);
    t.deepEqual(sorted(got), sorted(want));
  });
}

test("the sums at one instant, by hand: each token against each quote, the window (H − 1 h, H]", async (t) => {
  const got = sorted(await t.context.ch.getQuoteTrades(QUERIES["one instant"]!));
  t.deepEqual(
    got,
    sorted([
      // STON sold at H − 10 (H − 7: untracked, H − 8: refunded, H − 3600: outside, H + 1: after)
      { at: H, token: X.STON, quote: X.USDT, units: 2e9, usd: 0.5, trades: 1 },
      { at: H, token: TSTON, quote: PTON, units: 1e9, usd: 5, trades: 1 },
      // the retried trade as last written, once
      { at: H, token: X.USDC, quote: X.USDT, units: 1e6, usd: 0.25, trades: 1 },
    ]),
  );
  // H − 1 h as a boundary holds the trade at exactly H − 1 h
  const hours = await t.context.ch.getQuoteTrades(QUERIES["hour boundaries"]!);
  t.deepEqual(
    hours.filter((r) => r.at === H - 3_600),
    [{ at: H - 3_600, token: X.STON, quote: X.USDT, units: 3e9, usd: 1.25, trades: 1 }],
  );
  // the leg written priced, then unpriced, counts nowhere (its pair's row at H − 1 h rewritten with zeros)
  t.false(hours.some((r) => r.token === TSTON && r.at === H - 3_600));
  // H + 1 h holds the trade at H + 1
  t.deepEqual(
    hours.filter((r) => r.at === H + 3_600),
    [{ at: H + 3_600, token: X.STON, quote: X.USDT, units: 8e9, usd: 2, trades: 1 }],
  );
});
