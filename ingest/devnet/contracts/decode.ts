/**
 * The dex/codecs decoders of layout codecs the contracts parse, compiled by ./layout.ts `layoutDecoder`
 * (one step per field instead of dex/codecs' interpretation of the layout on every message; nested refs
 * read with the chain's CellReader instead of a @ton/core Slice). Same names as in dex/codecs: a contract
 * imports these decoders from here and every other decoder from dex/codecs.
 */
import {
  jettonBurnCodec,
  jettonBurnNotificationCodec,
  stonfiV2AddLiquidityCodec,
  stonfiV2BurnNotificationExtCodec,
  stonfiV2CbAddLiquidityCodec,
  stonfiV2CbRefundMeCodec,
  stonfiV2CrossSwapPayloadCodec,
  stonfiV2DirectAddLiquidityCodec,
  stonfiV2PayToCodec,
  stonfiV2PayVaultCodec,
  stonfiV2ProvideLpCodec,
  stonfiV2ProvideLpPayloadCodec,
  stonfiV2SwapCodec,
  stonfiV2SwapPayloadCodec,
  stonfiV2VaultDepositRefFeeCodec,
  stonfiV2VaultPayToCodec,
} from "../../../dex/codecs/index.ts";
import { layoutDecoder } from "./layout.ts";

export const decodeJettonBurn = layoutDecoder(jettonBurnCodec);
export const decodeJettonBurnNotification = layoutDecoder(jettonBurnNotificationCodec);
export const decodeStonfiV2AddLiquidity = layoutDecoder(stonfiV2AddLiquidityCodec);
export const decodeStonfiV2BurnNotificationExt = layoutDecoder(stonfiV2BurnNotificationExtCodec);
export const decodeStonfiV2CbAddLiquidity = layoutDecoder(stonfiV2CbAddLiquidityCodec);
export const decodeStonfiV2CbRefundMe = layoutDecoder(stonfiV2CbRefundMeCodec);
export const decodeStonfiV2CrossSwapPayload = layoutDecoder(stonfiV2CrossSwapPayloadCodec);
export const decodeStonfiV2DirectAddLiquidity = layoutDecoder(stonfiV2DirectAddLiquidityCodec);
export const decodeStonfiV2PayTo = layoutDecoder(stonfiV2PayToCodec);
export const decodeStonfiV2PayVault = layoutDecoder(stonfiV2PayVaultCodec);
export const decodeStonfiV2ProvideLp = layoutDecoder(stonfiV2ProvideLpCodec);
export const decodeStonfiV2ProvideLpPayload = layoutDecoder(stonfiV2ProvideLpPayloadCodec);
export const decodeStonfiV2Swap = layoutDecoder(stonfiV2SwapCodec);
export const decodeStonfiV2SwapPayload = layoutDecoder(stonfiV2SwapPayloadCodec);
export const decodeStonfiV2VaultDepositRefFee = layoutDecoder(stonfiV2VaultDepositRefFeeCodec);
export const decodeStonfiV2VaultPayTo = layoutDecoder(stonfiV2VaultPayToCodec);
