/**
 * The devnet's USD pricing anchors (dex/pricing, analytics.md §7.1): its dollar `dUSD` is the USD anchor,
 * native TON and both pTON masters are TON aliases, and its stTON/tsTON are LSDs (priced as any token: the
 * devnet has no staking contract to read a rate from). The catalogue's deep TON/dUSD pools (v1, v2.1,
 * v2.2; ./sim/catalog.ts) give TON/USD. The addresses are the world's own (deterministic: contract
 * addresses of fixed StateInits), so any process (ingest, processor, API) derives the same ones.
 */
import { type PricingConfig, TON_ADDRESS } from "../../dex/pricing/index.ts";
import { assetSpec } from "./sim/catalog.ts";
import { createWorld, type World } from "./sim/world.ts";

/** The symbol of the devnet's USD anchor. */
export const DEVNET_USD_SYMBOL = "dUSD";

const raw = (a: { toRawString(): string }) => a.toRawString().toUpperCase();

export function devnetPricingAnchors(
  world: World = createWorld(),
): Pick<PricingConfig, "usdAnchors" | "tonAliases" | "lsds"> {
  const master = (symbol: string) => {
    const m = world.masters.get(symbol);
    if (m === undefined) throw new RangeError(`the devnet has no ${symbol}`);
    return raw(m);
  };
  return {
    usdAnchors: [{ address: master(DEVNET_USD_SYMBOL), decimals: assetSpec(DEVNET_USD_SYMBOL).decimals }],
    tonAliases: [TON_ADDRESS, raw(world.ptonV1), raw(world.ptonV2)],
    lsds: ["stTON", "tsTON"].map((s) => ({ address: master(s), decimals: assetSpec(s).decimals })),
  };
}
