/**
 * The dex/codecs encoders the devnet contracts send, run on the chain's byte-wise CellWriter
 * (`fastEncoder` in ../chain/cell-writer.ts): the same cells as `encodeX` of dex/codecs, without @ton/core's
 * bit-by-bit Builder, which was the largest share of the contracts' own time. Same names as in dex/codecs,
 * so a contract imports its encoders from here and everything else from dex/codecs.
 * test/unit/ingest/devnet/fast-encode.test.ts compares every codec's writer both ways on random records.
 */
import {
  jettonBurnNotificationCodec,
  jettonExcessesCodec,
  jettonInternalTransferCodec,
  jettonTakeWalletAddressCodec,
  jettonTransferCodec,
  jettonTransferNotificationCodec,
  ptonV2InternalDeployCodec,
  ptonV2TonTransferCodec,
  stonfiV1AddLiquidityCodec,
  stonfiV1BurnNotificationCodec,
  stonfiV1CbAddLiquidityCodec,
  stonfiV1CbRefundMeCodec,
  stonfiV1CollectFeesCodec,
  stonfiV1ExitCodePayloadCodec,
  stonfiV1InitAdminUpgradeCodec,
  stonfiV1PayToCodec,
  stonfiV1ProvideLpCodec,
  stonfiV1ResetPoolGasCodec,
  stonfiV1SetFeesCodec,
  stonfiV1SetFeesPoolCodec,
  stonfiV1SwapCodec,
  stonfiV2AddLiquidityCodec,
  stonfiV2BurnNotificationExtCodec,
  stonfiV2CbAddLiquidityCodec,
  stonfiV2CbRefundMeCodec,
  stonfiV2ExitCodePayloadCodec,
  stonfiV2InternalSetFeesCodec,
  stonfiV2InternalSetParamsCodec,
  stonfiV2InternalUpdateStatusCodec,
  stonfiV2PayToCodec,
  stonfiV2PayVaultCodec,
  stonfiV2ProvideLpCodec,
  stonfiV2SetFeesCodec,
  stonfiV2SetParamsCodec,
  stonfiV2SwapCodec,
  stonfiV2UpdatePoolStatusCodec,
  stonfiV2VaultDepositRefFeeCodec,
  stonfiV2VaultPayToCodec,
} from "../../../dex/codecs/index.ts";
import { fastEncoder } from "../chain/cell-writer.ts";

export const encodeJettonBurnNotification = fastEncoder(jettonBurnNotificationCodec);
export const encodeJettonExcesses = fastEncoder(jettonExcessesCodec);
export const encodeJettonInternalTransfer = fastEncoder(jettonInternalTransferCodec);
export const encodeJettonTakeWalletAddress = fastEncoder(jettonTakeWalletAddressCodec);
export const encodeJettonTransfer = fastEncoder(jettonTransferCodec);
export const encodeJettonTransferNotification = fastEncoder(jettonTransferNotificationCodec);
export const encodePtonV2InternalDeploy = fastEncoder(ptonV2InternalDeployCodec);
export const encodePtonV2TonTransfer = fastEncoder(ptonV2TonTransferCodec);
export const encodeStonfiV1AddLiquidity = fastEncoder(stonfiV1AddLiquidityCodec);
export const encodeStonfiV1BurnNotification = fastEncoder(stonfiV1BurnNotificationCodec);
export const encodeStonfiV1CbAddLiquidity = fastEncoder(stonfiV1CbAddLiquidityCodec);
export const encodeStonfiV1CbRefundMe = fastEncoder(stonfiV1CbRefundMeCodec);
export const encodeStonfiV1CollectFees = fastEncoder(stonfiV1CollectFeesCodec);
export const encodeStonfiV1ExitCodePayload = fastEncoder(stonfiV1ExitCodePayloadCodec);
export const encodeStonfiV1InitAdminUpgrade = fastEncoder(stonfiV1InitAdminUpgradeCodec);
export const encodeStonfiV1PayTo = fastEncoder(stonfiV1PayToCodec);
export const encodeStonfiV1ProvideLp = fastEncoder(stonfiV1ProvideLpCodec);
export const encodeStonfiV1ResetPoolGas = fastEncoder(stonfiV1ResetPoolGasCodec);
export const encodeStonfiV1SetFees = fastEncoder(stonfiV1SetFeesCodec);
export const encodeStonfiV1SetFeesPool = fastEncoder(stonfiV1SetFeesPoolCodec);
export const encodeStonfiV1Swap = fastEncoder(stonfiV1SwapCodec);
export const encodeStonfiV2AddLiquidity = fastEncoder(stonfiV2AddLiquidityCodec);
export const encodeStonfiV2BurnNotificationExt = fastEncoder(stonfiV2BurnNotificationExtCodec);
export const encodeStonfiV2CbAddLiquidity = fastEncoder(stonfiV2CbAddLiquidityCodec);
export const encodeStonfiV2CbRefundMe = fastEncoder(stonfiV2CbRefundMeCodec);
export const encodeStonfiV2ExitCodePayload = fastEncoder(stonfiV2ExitCodePayloadCodec);
export const encodeStonfiV2InternalSetFees = fastEncoder(stonfiV2InternalSetFeesCodec);
export const encodeStonfiV2InternalSetParams = fastEncoder(stonfiV2InternalSetParamsCodec);
export const encodeStonfiV2InternalUpdateStatus = fastEncoder(stonfiV2InternalUpdateStatusCodec);
export const encodeStonfiV2PayTo = fastEncoder(stonfiV2PayToCodec);
export const encodeStonfiV2PayVault = fastEncoder(stonfiV2PayVaultCodec);
export const encodeStonfiV2ProvideLp = fastEncoder(stonfiV2ProvideLpCodec);
export const encodeStonfiV2SetFees = fastEncoder(stonfiV2SetFeesCodec);
export const encodeStonfiV2SetParams = fastEncoder(stonfiV2SetParamsCodec);
export const encodeStonfiV2Swap = fastEncoder(stonfiV2SwapCodec);
export const encodeStonfiV2UpdatePoolStatus = fastEncoder(stonfiV2UpdatePoolStatusCodec);
export const encodeStonfiV2VaultDepositRefFee = fastEncoder(stonfiV2VaultDepositRefFeeCodec);
export const encodeStonfiV2VaultPayTo = fastEncoder(stonfiV2VaultPayToCodec);
