/**
 * The processor stores a route's user on every hop (swaps.route_id / route_sender / route_receiver), so
 * the read models can answer for the user: a jetton → TON → jetton route across two routers' pTON wallets
 * (test/unit/dex/classify/pton-route.ts), fed in one batch and block by block, and the real mainnet traces.
 */
import test from "ava";
import { classify, type SwapRoute } from "../../../dex/classify/index.ts";
import { type CoreLookups, ProcessorCore } from "../../../processors/core/index.ts";
import type { SwapRouteRow, SwapRow } from "../../../schemas/facts.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { loadAllTraces } from "../../helpers/traces.ts";
import { rawAddr } from "../dex/classify/build.ts";
import { ptonRoute, R1, R1_PTON, R2, USER } from "../dex/classify/pton-route.ts";

const lookups: CoreLookups = {
  walletMaster: async () => null,
  jetton: async () => null,
  router: async () => null,
  poolType: async () => undefined,
};

async function run(batches: readonly RawTransaction[][]) {
  const core = new ProcessorCore({ windowBlocks: 64, lookups });
  const swaps: SwapRow[] = [];
  const routes: SwapRouteRow[] = [];
  for (const [i, batch] of [...batches, []].entries()) {
    const { rows } = await core.process(batch, i === batches.length);
    swaps.push(...(rows.swaps ?? []));
    routes.push(...(rows.swap_routes ?? []));
  }
  return { swaps, routes };
}

for (const [name, split] of [
  ["one batch", (txs: RawTransaction[]) => [txs]],
  ["block by block", (txs: RawTransaction[]) => txs.map((t) => [t])],
] as const) {
  test(`a route through pTON wallets, ${name}: both hops name the route and its user`, async (t) => {
    const { swaps, routes } = await run(split(ptonRoute()));
    t.is(routes.length, 1);
    const route = routes[0]!;
    t.is(route.sender, rawAddr(USER));
    t.deepEqual(
      swaps.map((s) => [s.router, s.sender, s.route_id, s.route_sender, s.route_receiver]),
      [
        [rawAddr(R1), rawAddr(USER), route.id, rawAddr(USER), rawAddr(USER)],
        [rawAddr(R2), rawAddr(R1_PTON), route.id, rawAddr(USER), rawAddr(USER)],
      ],
    );
    t.deepEqual(
      swaps.map((s) => s.id),
      route.legs,
    );
  });
}

test("real traces: every hop of a route names it, block by block; a one-hop swap names none", async (t) => {
  let hops = 0;
  for (const trace of loadAllTraces()) {
    const byMc = new Map<number, RawTransaction[]>();
    for (const tx of trace.txs) byMc.set(tx.mc_seqno, [...(byMc.get(tx.mc_seqno) ?? []), tx]);
    const blocks = [...byMc.keys()].sort((a, b) => a - b).map((mc) => byMc.get(mc)!);
    const { swaps } = await run(blocks);
    const routes = classify(trace.txs, { jettonMasters: trace.masters }).filter(
      (o): o is SwapRoute => o.type === "swap_route",
    );
    for (const s of swaps) {
      const route = routes.find((r) => r.legs.includes(s.id));
      t.deepEqual(
        [s.route_id, s.route_sender, s.route_receiver],
        route ? [route.id, route.sender, route.receiver] : [null, null, null],
        `${trace.name} ${s.id}`,
      );
      if (route) hops++;
    }
  }
  t.true(hops >= 2, `only ${hops} route hops in the traces`);
});
