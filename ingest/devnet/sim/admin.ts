/**
 * The admin's messages: pool parameters for the v2 stableswap / weighted types (set before the first
 * deposit, as the real deployment scripts do) and fee changes on any router. Bodies come from the
 * contracts' admin encoders (dex/codecs underneath); the admin wallet sends them to the router.
 */
import type { PoolParams } from "../../../dex/codecs/stonfi/v2/pool-params.ts";
import { v1SetFeesBody } from "../contracts/stonfi-v1/index.ts";
import { v2SetFeesBody, v2SetParamsBody } from "../contracts/stonfi-v2/router-admin.ts";
import type { UserActions } from "./actions.ts";
import { assetSpec, type PoolSpec } from "./catalog.ts";
import type { AdminMessages } from "./market.ts";
import type { PoolHandle } from "./pools.ts";
import type { UserMessage } from "./types.ts";
import type { World } from "./world.ts";

const E18 = 10n ** 18n;
const ADMIN_VALUE = 300_000_000n;

/** token1 price in token0 raw units, 18-decimal fixed point, from the catalogue's reference prices. */
function rateOf(token0: string, token1: string): bigint {
  const a = assetSpec(token0);
  const b = assetSpec(token1);
  const ppm = BigInt(Math.round((b.usd / a.usd) * 1_000_000));
  return (ppm * E18 * 10n ** BigInt(a.decimals)) / (1_000_000n * 10n ** BigInt(b.decimals));
}

function paramsOf(spec: PoolSpec, pool: PoolHandle, actions: UserActions, world: World): PoolParams | null {
  const sideWallet = actions.routerWallet(pool.router, spec.a);
  const w = BigInt(Math.round((spec.weightA ?? 0.5) * 1_000_000)) * (E18 / 1_000_000n);
  switch (pool.router) {
    case "stable_v2_2":
      return { poolType: "stableswap", amp: spec.amp ?? 100 };
    case "wcpi_v2_2":
      return { poolType: "weighted_const_product", w, sideWallet };
    case "wstable_v2_2":
      return {
        poolType: "weighted_stableswap",
        amp: BigInt(spec.amp ?? 100) * E18,
        rate: rateOf(pool.token0, pool.token1),
        w,
        sideWallet,
        rateSetter: world.admin.address,
      };
    default:
      return null;
  }
}

export type Admin = AdminMessages & { poolParams(pools: readonly PoolHandle[]): UserMessage[] };

export function adminMessages(world: World, actions: UserActions): Admin {
  let queryId = 9_000_000_000n;
  const router = (pool: PoolHandle) => actions.handle(pool.router).address;
  return {
    poolParams(pools) {
      const out: UserMessage[] = [];
      for (const pool of pools) {
        const params = paramsOf(pool.spec, pool, actions, world);
        if (params === null) continue;
        const body = v2SetParamsBody({
          queryId: queryId++,
          wallet0: pool.wallet0,
          wallet1: pool.wallet1,
          excesses: world.admin.address,
          params,
        });
        out.push({ to: router(pool), value: ADMIN_VALUE, body });
      }
      return out;
    },
    setFees(pool, fees) {
      const common = { queryId: queryId++, wallet0: pool.wallet0, wallet1: pool.wallet1 };
      const body =
        pool.router === "v1"
          ? v1SetFeesBody({
              ...common,
              lpFee: fees.lp,
              protocolFee: fees.protocol,
              refFee: fees.ref,
              protocolFeeAddress: world.admin.address,
            })
          : v2SetFeesBody({
              ...common,
              lpFee: fees.lp,
              protocolFee: fees.protocol,
              protocolFeeAddress: world.admin.address,
              excesses: world.admin.address,
            });
      return { to: router(pool), value: ADMIN_VALUE, body };
    },
  };
}
