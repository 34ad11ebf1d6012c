/** Pool states the AMM tests share. */
import { poolState } from "../../dex/amm/index.ts";

/** A devnet weighted stableswap pool (seed 1). */
export const devnetWeightedStableswap = poolState({
  type: "v2_weighted_stableswap",
  reserve0: 86100097077197n,
  reserve1: 88638084027258n,
  lpSupply: 17136395882437432n,
  lpFeeBps: 20n,
  protocolFeeBps: 10n,
  refFeeBps: 0n,
  amp: 100000000000000000000n,
  rate: 952380952390857142n,
  w0: 500000000000000000n,
});
