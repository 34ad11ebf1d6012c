/**
 * The running service's pricing configuration (dex/pricing, api/README.md "Pricing"): the chain's anchors
 * (mainnet addresses, or the devnet's own stablecoin and pTON masters) with the thresholds and anchors
 * bin/config.ts lets an operator change. One home: the processor and the API both take it from here.
 */
import { DEFAULT_THRESHOLDS, MAINNET_PRICING, type PricingConfig } from "../dex/pricing/index.ts";
import { devnetPricingAnchors } from "../ingest/devnet/pricing.ts";
import type { World } from "../ingest/devnet/sim/world.ts";
import type { Config } from "./config.ts";

/**
 * Mainnet: its addresses. The devnet: its own. A replay may hold either (shared vectors or a devnet dump),
 * so it knows both; the two sets never collide (different contract code, different addresses).
 */
export function pricingConfigOf(
  config: Pick<Config, "source" | "pricingUsdAnchors" | "pricingMinDepthUsd" | "pricingTonPoolMinDepthUsd">,
  devnetWorld?: World,
): PricingConfig {
  const devnet = () => devnetPricingAnchors(devnetWorld);
  const chain: PricingConfig =
    config.source === "devnet"
      ? { ...MAINNET_PRICING, ...devnet() }
      : config.source === "replay"
        ? union(MAINNET_PRICING, devnet())
        : MAINNET_PRICING;
  return {
    ...chain,
    ...DEFAULT_THRESHOLDS,
    ...(config.pricingUsdAnchors === null ? {} : { usdAnchors: config.pricingUsdAnchors }),
    minDepthUsd: config.pricingMinDepthUsd,
    tonPoolMinDepthUsd: config.pricingTonPoolMinDepthUsd,
  };
}

function union(a: PricingConfig, b: ReturnType<typeof devnetPricingAnchors>): PricingConfig {
  return {
    ...a,
    usdAnchors: [...a.usdAnchors, ...b.usdAnchors],
    tonAliases: [...new Set([...a.tonAliases, ...b.tonAliases])],
    lsds: [...a.lsds, ...b.lsds],
  };
}
