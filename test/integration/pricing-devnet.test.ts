/**
 * The catalogue's USD fields over a devnet market indexed by the embedded pipeline (test/helpers/api-devnet.ts
 * with `pricing`, as `tondex start` serves them). Expected values are recomputed here from the devnet's own
 * chain state (the pools' get-methods) and its ground truth (the swaps the contracts executed), with the
 * methodology's definitions (api/README.md "Pricing"), not read back from the service.
 */
import type { Address } from "@ton/core";
import test from "ava";
import { assetResponse } from "../../schemas/api/assets.ts";
import { poolListResponse, poolResponse } from "../../schemas/api/pools.ts";
import { dexStatsResponse } from "../../schemas/api/stats.ts";
import { dexTvlResponse, poolTvlResponse } from "../../schemas/api/tvl.ts";
import { startApiDevnet } from "../helpers/api-devnet.ts";
import { f } from "../unit/api/harness.ts";

type Reserves = { token0: string; token1: string; r0: bigint; r1: bigint };

test("devnet: TON/USD, dUSD, a one-hop token, pool TVL and 24 h volume through the API", async (t) => {
  const d = await startApiDevnet({ seed: 21, marketBlocks: 20, pricing: true });
  try {
    const state = d.devnet.state;
    const reserves = async (p: (typeof d.devnet.pools)[number]): Promise<Reserves> => {
      const data =
        p.router === "v1" ? await state.getV1PoolData(p.address) : await state.getV2PoolData(p.address);
      if (data === null) throw new Error(`no data for ${p.address}`);
      return { token0: p.token0, token1: p.token1, r0: data.reserve0, r1: data.reserve1 };
    };
    const side = (r: Reserves, symbol: string) => (r.token0 === symbol ? r.r0 : r.r1);
    const pair = (p: { token0: string; token1: string }, a: string, b: string) =>
      (p.token0 === a && p.token1 === b) || (p.token0 === b && p.token1 === a);
    /** Lower weighted median of [value, weight] (sorted by value; the first reaching half the weight). */
    const median = (xs: [number, number][]) => {
      const sorted = [...xs].sort((x, y) => x[0] - y[0]);
      const total = sorted.reduce((s, x) => s + x[1], 0);
      let run = 0;
      for (const [v, w] of sorted) {
        run += w;
        if (run * 2 >= total) return v;
      }
      throw new Error("empty");
    };

    // TON/USD: every TON/dUSD pool is deep (≥ $50k dUSD); price = dUSD per TON, weighted by the dUSD side.
    const tonPools = await Promise.all(d.devnet.pools.filter((p) => pair(p, "TON", "dUSD")).map(reserves));
    t.is(tonPools.length, 3);
    const tonUsd = median(
      tonPools.map((r) => [
        Number(side(r, "dUSD")) / 1e6 / (Number(side(r, "TON")) / 1e9),
        Number(side(r, "dUSD")) / 1e6,
      ]),
    );
    const master = (symbol: string): Address => d.devnet.world.masters.get(symbol)!;
    const price = async (address: string) => {
      const res = await fetch(`${d.api.baseURL}/v1/assets/${address}`);
      return assetResponse.parse(await res.json()).asset;
    };
    const ton = await price("EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c");
    const near = (s: string | undefined, expected: number, what: string) =>
      t.true(
        s !== undefined && Math.abs(Number(s) - expected) <= 1e-9 * expected,
        `${what}: ${s} ≉ ${expected}`,
      );
    near(ton.dex_price_usd, tonUsd, "TON");
    t.true(tonUsd > 5.2 / 1.5 && tonUsd < 5.2 * 1.5, `TON/USD ${tonUsd} near the catalogue's 5.2`);
    t.is((await price(master("dUSD").toString())).dex_price_usd, "1");

    // dBTC: one hop through its two dUSD pools (the dBTC/dETH pool is jetton/jetton: never used)
    const btcPools = await Promise.all(d.devnet.pools.filter((p) => pair(p, "dUSD", "dBTC")).map(reserves));
    const depths = btcPools.map((r) => Number(side(r, "dUSD")) / 1e6);
    const kept = btcPools.filter((_, i) => depths[i]! >= 0.1 * Math.max(...depths));
    const btc = median(
      kept.map((r) => [
        Number(side(r, "dUSD")) / 1e6 / (Number(side(r, "dBTC")) / 1e8),
        Number(side(r, "dUSD")) / 1e6,
      ]),
    );
    near((await price(master("dBTC").toString())).dex_price_usd, btc, "dBTC");

    // TVL of the v2.2 TON/dUSD pool: both sides priced, over $1M: R_TON·P_TON + R_dUSD
    const v22 = d.devnet.pools.find((p) => p.router === "cpi_v2_2" && pair(p, "TON", "dUSD"))!;
    const r = await reserves(v22);
    const tvl = (Number(side(r, "TON")) / 1e9) * tonUsd + Number(side(r, "dUSD")) / 1e6;
    const pool = poolResponse.parse(
      await (await fetch(`${d.api.baseURL}/v1/pools/${f(v22.address.toRawString())}`)).json(),
    ).pool;
    near(pool.lp_total_supply_usd, tvl, "TVL");

    // 24 h volume of the v1 dUSD/dBTC pool: the dUSD side of every swap it executed (the whole run is < 24 h)
    const v1Btc = d.devnet.pools.find((p) => p.router === "v1" && pair(p, "dUSD", "dBTC"))!;
    const usdWallet = v1Btc.token0 === "dUSD" ? v1Btc.wallet0 : v1Btc.wallet1;
    let volume = 0;
    for (const e of d.truth) {
      if (e.type !== "swap" || !(e.fields.pool as Address | null)?.equals(v1Btc.address)) continue;
      const out = e.fields.amount_out as bigint | null;
      if (out === null || out === 0n) continue;
      const offerUsd = (e.fields["offer.router_wallet"] as Address).equals(usdWallet);
      volume += Number(offerUsd ? (e.fields.amount_in as bigint) : out) / 1e6;
    }
    t.true(volume > 0, "the market traded dBTC");
    const pools = poolListResponse.parse(await (await fetch(`${d.api.baseURL}/v1/pools`)).json()).pool_list;
    near(
      pools.find((p) => p.address === f(v1Btc.address.toRawString()))?.volume_24h_usd,
      volume,
      "24 h volume",
    );
    // the run spans minutes of chain time: no APY window is covered yet
    t.true(pools.every((p) => p.apy_1d === undefined));
    // every pool with both tokens known and a TON or dUSD side has a TVL
    t.true(pools.filter((p) => p.lp_total_supply_usd !== undefined).length >= 30);

    // TVL history: at the first hour boundary after the newest block, every pool is in its current state, so
    // the DEX TVL there is the sum of the pools' current TVL, and a pool's point is its current TVL.
    const head = d.blocks.at(-1)!.utime;
    const boundary = Math.ceil((head + 1) / 3600) * 3600;
    const iso = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
    const window = `since=${iso(boundary - 3 * 3600)}&until=${iso(boundary)}&interval=hour`;
    const history = dexTvlResponse.parse(
      await (await fetch(`${d.api.baseURL}/v1/stats/tvl?${window}`)).json(),
    );
    t.is(history.points.length, 4);
    const sum = pools.reduce((s, p) => s + Number(p.lp_total_supply_usd ?? 0), 0);
    near(history.points.at(-1)?.tvl_usd ?? undefined, sum, "DEX TVL");
    const poolHistory = poolTvlResponse.parse(
      await (await fetch(`${d.api.baseURL}/v1/pools/${f(v22.address.toRawString())}/tvl?${window}`)).json(),
    );
    near(poolHistory.points.at(-1)?.tvl_usd ?? undefined, tvl, "pool TVL history");
    // /v1/stats/dex: tvl is the DEX TVL at `until`
    const dex = dexStatsResponse.parse(
      await (
        await fetch(`${d.api.baseURL}/v1/stats/dex?since=${iso(boundary - 3600)}&until=${iso(boundary)}`)
      ).json(),
    );
    near(dex.stats.tvl ?? undefined, sum, "stats/dex tvl");
  } finally {
    await d.close();
  }
});
