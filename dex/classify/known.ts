/**
 * Mainnet addresses the classifier may rely on (raw form, uppercase hex).
 * Source: shared/reference/contracts.md §5 ([sdk] ROUTER_ADDRESS / PtonV1.address, [otapi] references).
 */

/** DEX v1 router `EQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4TiUt`. */
export const V1_ROUTER = "0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E";

/** pTON v1 master `EQCM3B12QK1e4yZSf8GtBRT0aLMNyEsBc_DhVfRRtOEffLez`. */
export const PTON_V1_MASTER = "0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C";

/** pTON v2.1 master `EQBnGWMCf3-FZZq1W4IWcWiGAc3PHuZ0_H-7sad2oY00o83S` (contracts.md §10.3: high confidence). */
export const PTON_V2_MASTER = "0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3";

/** Router wallet → pTON master for pTON wallets whose address is known (v1 router's pTON v1 wallet). */
export const KNOWN_PTON_WALLETS: ReadonlyMap<string, string> = new Map([
  // `EQARULUYsmJq1RiZ-YiH-IJLcAZUVkVff-KBPwEmmaQGH6aC`, derived from the pTON v1 wallet code (§2.11).
  ["0:1150B518B2626AD51899F98887F8824B70065456455F7FE2813F012699A4061F", PTON_V1_MASTER],
]);
