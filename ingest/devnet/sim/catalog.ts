/**
 * The devnet market's fixed catalogue: assets (with reference prices in USD, used only to size realistic
 * reserves and trades), routers, and pools across DEX v1 and every v2 router type. Symbols carry a `d`
 * prefix so devnet data is never mistaken for mainnet tokens. Pure data; the seed only moves prices.
 */
import type { V2RouterKey } from "./types.ts";

export type AssetSpec = {
  symbol: string;
  name: string;
  decimals: number;
  /** Reference price in USD at genesis. */
  usd: number;
  /** Daily volatility used by the price random walk (fraction, e.g. 0.05 = 5 %/day). */
  vol: number;
};

/** `TON` is native TON, traded through pTON (v1 router: pTON v1, v2 routers: pTON v2.1). */
export const TON_SYMBOL = "TON";

export const ASSETS: readonly AssetSpec[] = [
  { symbol: "TON", name: "Toncoin", decimals: 9, usd: 5.2, vol: 0.04 },
  { symbol: "dUSD", name: "Devnet Dollar", decimals: 6, usd: 1, vol: 0.0005 },
  { symbol: "dUSDC", name: "Devnet Circle Dollar", decimals: 6, usd: 1, vol: 0.0005 },
  { symbol: "dEUR", name: "Devnet Euro", decimals: 6, usd: 1.08, vol: 0.004 },
  { symbol: "dBTC", name: "Devnet Wrapped Bitcoin", decimals: 8, usd: 61_000, vol: 0.03 },
  { symbol: "dETH", name: "Devnet Wrapped Ether", decimals: 18, usd: 3_100, vol: 0.035 },
  { symbol: "stTON", name: "Devnet Staked TON", decimals: 9, usd: 5.46, vol: 0.04 },
  { symbol: "tsTON", name: "Devnet Liquid TON", decimals: 9, usd: 5.51, vol: 0.04 },
  { symbol: "dNOT", name: "Devnet Notcoin", decimals: 9, usd: 0.0071, vol: 0.08 },
  { symbol: "dDOGS", name: "Devnet Dogs", decimals: 9, usd: 0.00052, vol: 0.1 },
  { symbol: "dSTON", name: "Devnet STON", decimals: 9, usd: 2.9, vol: 0.06 },
  { symbol: "dGRAM", name: "Devnet Gram", decimals: 9, usd: 0.004, vol: 0.09 },
  { symbol: "dFISH", name: "Devnet Fish", decimals: 9, usd: 0.021, vol: 0.12 },
  { symbol: "dSCALE", name: "Devnet Scale", decimals: 9, usd: 0.35, vol: 0.07 },
  { symbol: "dBOLT", name: "Devnet Bolt", decimals: 9, usd: 0.12, vol: 0.09 },
  { symbol: "dJET", name: "Devnet Jet", decimals: 9, usd: 0.85, vol: 0.08 },
  { symbol: "dKINGY", name: "Devnet Kingy", decimals: 9, usd: 0.0009, vol: 0.15 },
  { symbol: "dPUNK", name: "Devnet Punk", decimals: 9, usd: 0.48, vol: 0.1 },
  { symbol: "dREDO", name: "Devnet Redo", decimals: 9, usd: 0.19, vol: 0.11 },
  { symbol: "dTGR", name: "Devnet Tiger", decimals: 9, usd: 0.0031, vol: 0.13 },
  { symbol: "dANON", name: "Devnet Anon", decimals: 9, usd: 0.0044, vol: 0.12 },
  { symbol: "dWALL", name: "Devnet Wall", decimals: 9, usd: 0.061, vol: 0.1 },
  { symbol: "dHMSTR", name: "Devnet Hamster", decimals: 9, usd: 0.0025, vol: 0.14 },
  { symbol: "dMAJOR", name: "Devnet Major", decimals: 9, usd: 0.31, vol: 0.1 },
  { symbol: "dCATI", name: "Devnet Cati", decimals: 9, usd: 0.27, vol: 0.11 },
];

export type PoolSpec = {
  router: "v1" | V2RouterKey;
  a: string;
  b: string;
  /** Genesis liquidity in USD (half on each side, by the reference prices). */
  tvlUsd: number;
  /** stableswap: integer amp (1..2000). weighted_stableswap: amp as 18-decimal fixed point is derived. */
  amp?: number;
  /** Weighted pools: weight of asset `a` (the engine's w0 applies to the pool's token0). */
  weightA?: number;
};

export const POOLS: readonly PoolSpec[] = [
  // DEX v1: the classic pairs.
  { router: "v1", a: "TON", b: "dUSD", tvlUsd: 4_000_000 },
  { router: "v1", a: "TON", b: "dNOT", tvlUsd: 900_000 },
  { router: "v1", a: "TON", b: "dSTON", tvlUsd: 600_000 },
  { router: "v1", a: "dUSD", b: "dBTC", tvlUsd: 450_000 },
  { router: "v1", a: "TON", b: "dFISH", tvlUsd: 120_000 },
  { router: "v1", a: "dSTON", b: "dUSD", tvlUsd: 300_000 },
  { router: "v1", a: "TON", b: "dKINGY", tvlUsd: 60_000 },
  { router: "v1", a: "dJET", b: "TON", tvlUsd: 80_000 },
  // DEX v2.1 constant product (legacy router).
  { router: "cpi_v2_1", a: "TON", b: "dUSD", tvlUsd: 1_500_000 },
  { router: "cpi_v2_1", a: "TON", b: "dDOGS", tvlUsd: 400_000 },
  { router: "cpi_v2_1", a: "dUSD", b: "dETH", tvlUsd: 350_000 },
  { router: "cpi_v2_1", a: "TON", b: "dGRAM", tvlUsd: 90_000 },
  // DEX v2.2 constant product.
  { router: "cpi_v2_2", a: "TON", b: "dUSD", tvlUsd: 6_000_000 },
  { router: "cpi_v2_2", a: "TON", b: "dNOT", tvlUsd: 1_200_000 },
  { router: "cpi_v2_2", a: "TON", b: "dSTON", tvlUsd: 700_000 },
  { router: "cpi_v2_2", a: "TON", b: "dSCALE", tvlUsd: 150_000 },
  { router: "cpi_v2_2", a: "TON", b: "dBOLT", tvlUsd: 110_000 },
  { router: "cpi_v2_2", a: "dUSD", b: "dBTC", tvlUsd: 800_000 },
  { router: "cpi_v2_2", a: "TON", b: "dPUNK", tvlUsd: 70_000 },
  { router: "cpi_v2_2", a: "TON", b: "dREDO", tvlUsd: 50_000 },
  { router: "cpi_v2_2", a: "TON", b: "dTGR", tvlUsd: 40_000 },
  { router: "cpi_v2_2", a: "TON", b: "dANON", tvlUsd: 45_000 },
  { router: "cpi_v2_2", a: "TON", b: "dWALL", tvlUsd: 65_000 },
  { router: "cpi_v2_2", a: "TON", b: "dHMSTR", tvlUsd: 85_000 },
  { router: "cpi_v2_2", a: "TON", b: "dMAJOR", tvlUsd: 95_000 },
  { router: "cpi_v2_2", a: "TON", b: "dCATI", tvlUsd: 75_000 },
  { router: "cpi_v2_2", a: "dNOT", b: "dDOGS", tvlUsd: 30_000 },
  // DEX v2.2 stableswap.
  { router: "stable_v2_2", a: "dUSD", b: "dUSDC", tvlUsd: 2_000_000, amp: 200 },
  { router: "stable_v2_2", a: "dUSD", b: "dEUR", tvlUsd: 500_000, amp: 50 },
  { router: "stable_v2_2", a: "stTON", b: "tsTON", tvlUsd: 300_000, amp: 100 },
  // DEX v2.2 weighted constant product.
  { router: "wcpi_v2_2", a: "dSTON", b: "TON", tvlUsd: 400_000, weightA: 0.8 },
  { router: "wcpi_v2_2", a: "dBTC", b: "dETH", tvlUsd: 250_000, weightA: 0.5 },
  { router: "wcpi_v2_2", a: "dJET", b: "dUSD", tvlUsd: 90_000, weightA: 0.7 },
  // DEX v2.2 weighted stableswap (liquid-staking style pairs with a rate).
  { router: "wstable_v2_2", a: "TON", b: "stTON", tvlUsd: 900_000, amp: 100, weightA: 0.5 },
  { router: "wstable_v2_2", a: "TON", b: "tsTON", tvlUsd: 600_000, amp: 50, weightA: 0.5 },
];

export function assetSpec(symbol: string): AssetSpec {
  const spec = ASSETS.find((a) => a.symbol === symbol);
  if (spec === undefined) throw new RangeError(`unknown devnet asset ${symbol}`);
  return spec;
}
