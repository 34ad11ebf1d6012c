/**
 * USD figures on the recorded mainnet traces, replayed through the real CLI (`tondex replay`, whose pricing
 * knows mainnet's anchors): each executed leg's stored volume_usd, and the catalogue's USD fields through the
 * API as `tondex start` serves them (api/read-model-priced.ts). The replay has no chain access, so no pool
 * state and no TON/USD is known: USD₮ legs are valued at face value, TON and jetton/jetton legs are untracked
 * (0, with no estimate), and no pool has a TVL (absent, never "0").
 */
import test from "ava";
import { z } from "zod";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { pricedReadModel } from "../../api/read-model-priced.ts";
import { loadConfig } from "../../bin/config.ts";
import { pricingConfigOf } from "../../bin/pricing.ts";
import { unavailableChainState } from "../../dex/chain-state-unavailable.ts";
import { MAINNET_USDT } from "../../dex/pricing/index.ts";
import { assetResponse } from "../../schemas/api/assets.ts";
import { poolListResponse } from "../../schemas/api/pools.ts";
import { type ReplayedTraces, replayTraces } from "../helpers/replayed-traces.ts";
import { f, silentLogger, startApi } from "../unit/api/harness.ts";

const t2 = test as import("ava").TestFn<ReplayedTraces>;
t2.before(async (t) => {
  t.context = await replayTraces();
});
t2.after.always(async (t) => {
  await t.context?.close();
});

/** amount_in of each executed leg → [volume_usd, untracked_volume_usd] (amounts from INDEX.md). */
const EXPECTED = new Map<bigint, [number, number | null]>([
  [44426053349n, [0, null]], // TON → NOT: no TON/USD known
  [53303435994n, [0.092994, 0]], // NOT → USD₮
  [27051113105n, [0, null]], // tsTON → TON
  [690431808125n, [0, null]], // NOT → TON
  [7205784725n, [37.841924, 0]], // STON → USD₮ (router 1)
  [37841924n, [37.841924, 0]], // USD₮ → jetton (router 2)
  [100000000n, [0, null]], // jetton → jetton
]);

t2("stored legs: volume_usd at face value on a USD₮ side, untracked otherwise; refunds null", async (t) => {
  const rows = await t.context.store.query(
    "SELECT amount_in, success, volume_usd, untracked_volume_usd, lp_fee_usd FROM swaps FINAL ORDER BY lt",
    z.object({
      amount_in: z.string().transform(BigInt),
      success: z.boolean().nullable(),
      volume_usd: z.number().nullable(),
      untracked_volume_usd: z.number().nullable(),
      lp_fee_usd: z.number().nullable(),
    }),
  );
  t.is(rows.length, EXPECTED.size + 1);
  for (const r of rows) {
    if (r.success !== true) {
      t.deepEqual(
        [r.amount_in, r.volume_usd, r.untracked_volume_usd, r.lp_fee_usd],
        [3400000000n, null, null, null],
      );
      continue;
    }
    t.deepEqual([r.volume_usd, r.untracked_volume_usd], EXPECTED.get(r.amount_in), `leg of ${r.amount_in}`);
    // the pools' states are unknown (no chain access): their LP fee is not known either
    t.is(r.lp_fee_usd, null);
  }
});

t2("API: USD₮ is 1 USD, TON has no price, no pool has a TVL; the answers parse", async (t) => {
  const config = loadConfig({ SOURCE: "replay", REPLAY_PATH: "x" }, []);
  const api = await startApi({
    data: pricedReadModel(new ClickHouseReadModel(t.context.store), { pricing: pricingConfigOf(config) }),
    chain: unavailableChainState("the replay source has no chain access"),
    clock: Date.now,
    logger: silentLogger,
  });
  try {
    const usdt = assetResponse.parse(
      await (await fetch(`${api.baseURL}/v1/assets/${f(MAINNET_USDT)}`)).json(),
    );
    t.is(usdt.asset.dex_price_usd, "1");
    const ton = assetResponse.parse(
      await (await fetch(`${api.baseURL}/v1/assets/EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c`)).json(),
    );
    t.is(ton.asset.dex_price_usd, undefined);
    // TON's pools are listed, their states unknown: its liquidity is unknown, so no liquidity tag says "no"
    t.deepEqual(
      ton.asset.tags.filter((tag) => tag.includes("liquidity")),
      [],
    );
    const pools = poolListResponse.parse(await (await fetch(`${api.baseURL}/v1/pools`)).json()).pool_list;
    // seven pools: the v1 NOT/TON pool serves two traces
    t.is(pools.length, 7);
    for (const p of pools) {
      t.is(p.lp_total_supply_usd, undefined);
      t.is(p.lp_price_usd, undefined);
      // the traces span 2024-09 .. 2025-06: the last day before the newest one holds only the untracked TON → NOT leg
      t.is(p.volume_24h_usd, "0");
    }
  } finally {
    await api.close();
  }
});
