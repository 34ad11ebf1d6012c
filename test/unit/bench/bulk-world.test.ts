/**
 * The bulk world (bench/bulk/world.ts) prices its swap legs as the processor does: a small world, checked
 * against what the world's construction implies — executed legs priced, refunds not, a leg on a deep
 * TON/USD₮ pool worth about its USD₮ side, and the same rows from the same seed.
 */
import test from "ava";
import { BULK_USD_SYMBOL, createWorld } from "../../../bench/bulk/world.ts";

const options = {
  seed: 5,
  days: 1,
  pools: 40,
  wallets: 500,
  swaps: 6_000,
  traceBlocks: 10,
  endUtime: 1_764_000_000,
  firstSeqno: 50_000_000,
};

function swaps() {
  const world = createWorld(options);
  return { world, swaps: world.rows(0, world.blocks).swaps };
}

test("every executed leg has its USD columns, a leg without output has none", (t) => {
  const { swaps: rows } = swaps();
  const executed = rows.filter((s) => s.amount_out !== null && s.amount_out > 0n);
  const refunded = rows.filter((s) => s.amount_out === null);
  t.true(executed.length > 4_000);
  t.true(refunded.length > 0);
  // Tracked (a quote or a confident price on a side), or untracked: a tracked volume of 0 (§7.5).
  for (const s of executed) t.true(s.volume_usd !== null && s.lp_fee_usd !== null, s.id);
  const tracked = executed.filter((s) => (s.volume_usd as number) > 0);
  // Only legs of jetton/jetton pools may be untracked (15 % of the pools, drawn rarely).
  t.true(tracked.length / executed.length > 0.9, `${tracked.length} of ${executed.length} tracked`);
  for (const s of refunded)
    t.deepEqual([s.volume_usd, s.untracked_volume_usd, s.lp_fee_usd], [null, null, null]);
});

test("a leg on a deep TON/USD₮ pool is worth about its USD₮ side", (t) => {
  const { world, swaps: rows } = swaps();
  const [a, b] = world.reference.pools ?? [];
  const deep = new Set([a?.pool, b?.pool]);
  const usd = world.reference.assets?.find((x) => x.symbol === BULK_USD_SYMBOL);
  t.truthy(usd);
  const legs = rows.filter((s) => deep.has(s.pool ?? "") && s.amount_out !== null && s.amount_out > 0n);
  t.true(legs.length > 100);
  for (const s of legs) {
    // The mean of the USD₮ side at 1 USD and the TON side at TON's price before the leg, taken from both
    // deep pools: they drift apart (the world has no arbitrage; a leg moves up to 1 % of a reserve), so
    // within 20 %, not exactly; a wrong side or decimals would be off by far more.
    const usdUnits = s.offer_master === usd?.address ? s.amount_in : (s.amount_out as bigint);
    const usdSide = Number(usdUnits) / 10 ** (usd?.decimals ?? 0);
    const ratio = (s.volume_usd as number) / usdSide;
    t.true(ratio > 0.8 && ratio < 1.2, `${s.id}: ${s.volume_usd} against ${usdSide} USD₮`);
  }
});

test("the same seed gives the same USD values", (t) => {
  const first = swaps().swaps.map((s) => s.volume_usd);
  const second = swaps().swaps.map((s) => s.volume_usd);
  t.deepEqual(first, second);
});
