/**
 * The dex/codecs decoders of layouts with a nested ref group, reading that ref with the chain's CellReader
 * instead of a @ton/core Slice (./layout.ts `layoutDecoder`). Same names as in dex/codecs: a contract imports
 * these decoders from here and every other decoder from dex/codecs.
 */
import {
  stonfiV2AddLiquidityCodec,
  stonfiV2CbAddLiquidityCodec,
  stonfiV2CrossSwapPayloadCodec,
  stonfiV2DirectAddLiquidityCodec,
  stonfiV2PayToCodec,
  stonfiV2PayVaultCodec,
  stonfiV2ProvideLpPayloadCodec,
  stonfiV2SwapPayloadCodec,
} from "../../../dex/codecs/index.ts";
import { layoutDecoder } from "./layout.ts";

export const decodeStonfiV2AddLiquidity = layoutDecoder(stonfiV2AddLiquidityCodec);
export const decodeStonfiV2CbAddLiquidity = layoutDecoder(stonfiV2CbAddLiquidityCodec);
export const decodeStonfiV2CrossSwapPayload = layoutDecoder(stonfiV2CrossSwapPayloadCodec);
export const decodeStonfiV2DirectAddLiquidity = layoutDecoder(stonfiV2DirectAddLiquidityCodec);
export const decodeStonfiV2PayTo = layoutDecoder(stonfiV2PayToCodec);
export const decodeStonfiV2PayVault = layoutDecoder(stonfiV2PayVaultCodec);
export const decodeStonfiV2ProvideLpPayload = layoutDecoder(stonfiV2ProvideLpPayloadCodec);
export const decodeStonfiV2SwapPayload = layoutDecoder(stonfiV2SwapPayloadCodec);
