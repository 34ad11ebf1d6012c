/**
 * dex/pool-data.ts: pool data cells (contracts.md §2.2 v1, §3.2 v2 per type) → PoolState and addresses.
 * Cells come from the devnet contracts' own storage writers (the layouts the devnet pools persist), and
 * from live devnet pools compared with what ChainState's get-methods return.
 */
import { Address, beginCell, Cell } from "@ton/core";
import test from "ava";
import { type PoolType, poolState } from "../../../dex/amm/index.ts";
import { v1PoolState, v2PoolState } from "../../../dex/chain-state.ts";
import {
  PoolDataError,
  parsePoolData,
  parseV1PoolData,
  parseV2PoolData,
  poolLayoutsOf,
  v2LayoutsOf,
} from "../../../dex/pool-data.ts";
import { applyLibraryPatches } from "../../../infra/library-patches/index.ts";
import { poolDataCell as v1DataCell } from "../../../ingest/devnet/contracts/stonfi-v1/storage.ts";
import type { V2PoolState } from "../../../ingest/devnet/contracts/stonfi-v2/state.ts";
import { poolDataCell as v2DataCell } from "../../../ingest/devnet/contracts/stonfi-v2/storage.ts";
import { Devnet } from "../../../ingest/devnet/devnet.ts";
import { V2_ROUTERS } from "../../../ingest/devnet/sim/types.ts";

applyLibraryPatches(["parse", "build"]);

const addr = (n: number) => new Address(0, Buffer.alloc(32, n));
const code = (tag: number) => beginCell().storeUint(tag, 8).endCell();
const E18 = 10n ** 18n;

test("v1 data: every field, the HOLE protocol-fee address, and the only layout it fits", (t) => {
  const cell = v1DataCell({
    router: addr(1),
    lpFee: 25,
    protocolFee: 7,
    refFee: 3,
    token0: addr(2),
    token1: addr(3),
    totalSupply: 123_456n,
    collected0: 11n,
    collected1: 22n,
    protocolFeeAddress: new Address(0, Buffer.alloc(32)),
    reserve0: (1n << 119n) + 5n,
    reserve1: 999n,
    lpWalletCode: code(1),
    lpAccountCode: code(2),
  });
  const d = parseV1PoolData(cell);
  t.true(d.router.equals(addr(1)) && d.token0Wallet.equals(addr(2)) && d.token1Wallet.equals(addr(3)));
  t.is(d.protocolFeeAddress?.toRawString(), `0:${"0".repeat(64)}`);
  t.deepEqual(
    d.state,
    poolState({
      type: "v1_constant_product",
      reserve0: (1n << 119n) + 5n,
      reserve1: 999n,
      lpSupply: 123_456n,
      lpFeeBps: 25n,
      protocolFeeBps: 7n,
      refFeeBps: 3n,
      collectedProtocolFee0: 11n,
      collectedProtocolFee1: 22n,
    }),
  );
  t.deepEqual(poolLayoutsOf(cell), ["v1_constant_product"]);
  t.deepEqual(v2LayoutsOf(cell), []);
});

// constant_sum has no devnet router; its layout is constant_product's (both listed for that cell)
const V2_CASES: readonly [V2PoolState["type"], Partial<V2PoolState>, PoolType[]][] = [
  ["constant_product", {}, ["v2_constant_product", "v2_constant_sum"]],
  ["stableswap", { amp: 2000n }, ["v2_stableswap"]],
  ["weighted_const_product", { w0: (E18 * 3n) / 10n }, ["v2_weighted_const_product"]],
  [
    "weighted_stableswap",
    { amp: 150n * E18, rate: 5n * E18, w0: E18 / 4n, rateSetter: addr(9) },
    ["v2_weighted_stableswap"],
  ],
];

for (const [type, curve, layouts] of V2_CASES) {
  test(`v2 ${type} data: every field, and the layouts it fits`, (t) => {
    const stored: V2PoolState = {
      type,
      router: addr(1),
      token0: addr(2),
      token1: addr(3),
      isLocked: true,
      reserve0: 1_000_000n,
      reserve1: (1n << 120n) - 1n,
      totalSupplyLp: 77n,
      collected0: 5n,
      collected1: 6n,
      protocolFeeAddress: addr(4),
      lpFee: 30,
      protocolFee: 100,
      amp: 0n,
      rate: 0n,
      w0: 0n,
      rateSetter: null,
      ...curve,
    };
    const cell = v2DataCell(stored);
    const d = parseV2PoolData(cell, `v2_${type}`);
    t.true(d.router.equals(addr(1)) && d.token0Wallet.equals(addr(2)) && d.token1Wallet.equals(addr(3)));
    t.true(d.protocolFeeAddress?.equals(addr(4)));
    t.deepEqual(
      d.state,
      poolState({
        type: `v2_${type}`,
        reserve0: 1_000_000n,
        reserve1: (1n << 120n) - 1n,
        lpSupply: 77n,
        lpFeeBps: 30n,
        protocolFeeBps: 100n,
        refFeeBps: 0n,
        collectedProtocolFee0: 5n,
        collectedProtocolFee1: 6n,
        isLocked: true,
        amp: stored.amp,
        rate: stored.rate,
        w0: stored.w0,
      }),
    );
    t.deepEqual(poolLayoutsOf(cell), layouts);
    for (const other of ["v1_constant_product", "v2_stableswap", "v2_weighted_stableswap"] as const) {
      if (!layouts.includes(other)) t.throws(() => parsePoolData(cell, other), { instanceOf: PoolDataError });
    }
  });
}

test("cells of no pool layout fit nothing", (t) => {
  for (const cell of [Cell.EMPTY, beginCell().storeUint(7, 32).endCell(), code(1)]) {
    t.deepEqual(poolLayoutsOf(cell), []);
    t.throws(() => parseV2PoolData(cell, "v2_constant_product"), { instanceOf: PoolDataError });
  }
});

test("live devnet pools: the data cell says what get_pool_data / get_jetton_data say", async (t) => {
  const devnet = new Devnet({ seed: 11 });
  while (devnet.market === null) await devnet.nextBlock();
  for (const p of devnet.pools) {
    const type: PoolType = p.router === "v1" ? "v1_constant_product" : `v2_${V2_ROUTERS[p.router].type}`;
    const data = devnet.world.chain.account(p.address)?.contract?.stateCell();
    if (data === undefined) return t.fail(`no data for ${p.address}`);
    const d = parsePoolData(data, type);
    t.true(poolLayoutsOf(data).includes(type));
    t.true(d.token0Wallet.equals(p.wallet0) && d.token1Wallet.equals(p.wallet1));
    t.true(d.router.equals(devnet.actions.handle(p.router).address));
    if (p.router === "v1") {
      const jetton = await devnet.state.getJettonData(p.address);
      t.deepEqual(d.state, v1PoolState((await devnet.state.getV1PoolData(p.address))!, jetton!.totalSupply));
    } else {
      t.deepEqual(d.state, v2PoolState((await devnet.state.getV2PoolData(p.address))!));
    }
    t.true(d.state.lpSupply > 0n, `${type} pool has liquidity`);
  }
});
