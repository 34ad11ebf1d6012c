/**
 * What the USD pricing methodology (shared/reference/analytics.md §7) is parameterised by: which assets are
 * anchors, which are TON, which thresholds make a pool deep enough. Pure data; bin/ builds the running
 * service's `PricingConfig` from its configuration (bin/config.ts) and the chain source (mainnet addresses
 * below, or the devnet's own stablecoin and pTON masters).
 *
 * Addresses are canonical raw strings (`0:HEX`, uppercase), as pools and swaps name their tokens.
 */
import { PTON_V1_MASTER, PTON_V2_MASTER } from "../classify/known.ts";

/** A USD stablecoin priced at exactly 1 USD, optionally only within a time range (unix seconds). */
export type UsdAnchor = {
  readonly address: string;
  readonly decimals: number;
  /** First second it counts as 1 USD (inclusive); absent: always. */
  readonly from?: number;
  /** First second it no longer counts (exclusive), e.g. a bridge hack; absent: never. */
  readonly until?: number;
};

/** A liquid-staking token: worth `tonPerToken` TON when its rate is known (analytics.md §7.1). */
export type Lsd = { readonly address: string; readonly decimals: number };

export type PricingConfig = {
  readonly usdAnchors: readonly UsdAnchor[];
  /** Assets worth exactly one TON (9 decimals): native TON, pTON masters, wrapped TON. */
  readonly tonAliases: readonly string[];
  /** Quotes only once a rate is supplied (`PriceBookOptions.lsdRates`); without one, priced as any token. */
  readonly lsds: readonly Lsd[];
  /** Tokens and pools never used for prices (and never priced). */
  readonly blacklist: readonly string[];
  /** §7.2: a TON/USD pool counts when its USD side holds at least this much. */
  readonly tonPoolMinDepthUsd: number;
  /** §7.3: a (token, quote) pool counts when its quote side is worth at least this much (= low confidence). */
  readonly minDepthUsd: number;
  /** §7.3 step 2: candidates shallower than this share of the deepest one are dropped. */
  readonly depthShareOfMax: number;
  /** §7.3 step 3: the deepest candidate's quote depth for high and medium confidence. */
  readonly highConfidenceDepthUsd: number;
  readonly mediumConfidenceDepthUsd: number;
  /** §7.6: a pool with an anchor side and less TVL than this is capped at twice its anchor side. */
  readonly matureTvlUsd: number;
  /** §7.6: a token is valued across jetton/jetton pools up to this many times its balance in quote pools. */
  readonly restrictTokenRatio: number;
  /** §7.4: low/medium prices are clamped to [VWAP/f, f·VWAP] of the last `vwapWindowSeconds`. */
  readonly vwapClampFactor: number;
  readonly vwapWindowSeconds: number;
  readonly vwapMinTrades: number;
};

/** Native TON as the API names it (the zero address). */
export const TON_ADDRESS = "0:0000000000000000000000000000000000000000000000000000000000000000";
/** TON's decimals (nanoton); every TON alias uses them. */
export const TON_DECIMALS = 9;

/** USD₮ on TON `EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs` (analytics.md §7.1), 6 decimals. */
export const MAINNET_USDT = "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE";
/** STON.fi WTON `EQDQoc5M3Bh8eWFephi9bClhevelbZZvWhkqdo80XuY_0qXv` (ton-etl `swap_volume.py` TONS). */
export const MAINNET_WTON = "0:D0A1CE4CDC187C79615EA618BD6C29617AF7A56D966F5A192A768F345EE63FD2";
/** stTON `EQDNhy-nxYFgUqzfUzImBEP67JqsyMIcyk2S5_RwNNEYku0k`, tsTON `EQC98_qAmNEptUtPc7W6xdHh_ZHrBUFpw5Ft_IzNU20QAJav`. */
export const MAINNET_STTON = "0:CD872FA7C5816052ACDF5332260443FAEC9AACC8C21CCA4D92E7F47034D11892";
export const MAINNET_TSTON = "0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000";

/** Thresholds of analytics.md §7.2–§7.6 (the same on every chain). */
export const DEFAULT_THRESHOLDS = {
  tonPoolMinDepthUsd: 50_000,
  minDepthUsd: 1_000,
  depthShareOfMax: 0.1,
  highConfidenceDepthUsd: 50_000,
  mediumConfidenceDepthUsd: 5_000,
  matureTvlUsd: 1_000_000,
  restrictTokenRatio: 5,
  vwapClampFactor: 3,
  vwapWindowSeconds: 3_600,
  vwapMinTrades: 3,
} as const;

/** Mainnet: USD₮ the only anchor (jUSDT, jUSDC, USDe off by default, §7.1), TON through every alias. */
export const MAINNET_PRICING: PricingConfig = {
  usdAnchors: [{ address: MAINNET_USDT, decimals: 6 }],
  tonAliases: [TON_ADDRESS, PTON_V1_MASTER, PTON_V2_MASTER, MAINNET_WTON],
  lsds: [
    { address: MAINNET_STTON, decimals: 9 },
    { address: MAINNET_TSTON, decimals: 9 },
  ],
  blacklist: [],
  ...DEFAULT_THRESHOLDS,
};
