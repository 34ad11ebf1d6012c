// The codec lists that decodeBody / decodeForwardPayload / encodeBody dispatch over (see index.ts for the
// dispatch rules). Adding a message = add its codec here; the `Known*` unions follow automatically.
import type { Slice } from "@ton/core";
import { jettonBurnCodec } from "./jetton/burn.ts";
import { jettonBurnNotificationCodec } from "./jetton/burn-notification.ts";
import { jettonExcessesCodec } from "./jetton/excesses.ts";
import { jettonInternalTransferCodec } from "./jetton/internal-transfer.ts";
import { jettonMintCodec } from "./jetton/mint.ts";
import { jettonProvideWalletAddressCodec } from "./jetton/provide-wallet-address.ts";
import { jettonTakeWalletAddressCodec } from "./jetton/take-wallet-address.ts";
import { jettonTransferCodec } from "./jetton/transfer.ts";
import { jettonTransferNotificationCodec } from "./jetton/transfer-notification.ts";
import { ptonV1DeployWalletCodec } from "./pton/v1/deploy-wallet.ts";
import { ptonV1ResetGasCodec } from "./pton/v1/query-only.ts";
import { ptonV2DeployWalletCodec } from "./pton/v2/deploy-wallet.ts";
import { ptonV2InternalDeployCodec } from "./pton/v2/internal-deploy.ts";
import { ptonV2ResetGasCodec, ptonV2TonRefundCodec } from "./pton/v2/query-only.ts";
import { ptonV2TonTransferCodec } from "./pton/v2/ton-transfer.ts";
import { stonfiV1AddLiquidityCodec } from "./stonfi/v1/add-liquidity.ts";
import { stonfiV1BurnNotificationCodec } from "./stonfi/v1/burn-notification.ts";
import { stonfiV1CbAddLiquidityCodec } from "./stonfi/v1/cb-add-liquidity.ts";
import { stonfiV1CbRefundMeCodec } from "./stonfi/v1/cb-refund-me.ts";
import { stonfiV1CollectFeesCodec } from "./stonfi/v1/collect-fees.ts";
import { stonfiV1DirectAddLiquidityCodec } from "./stonfi/v1/direct-add-liquidity.ts";
import { stonfiV1ExitCodePayloadCodec } from "./stonfi/v1/exit-code-payload.ts";
import { stonfiV1InitAdminUpgradeCodec } from "./stonfi/v1/init-admin-upgrade.ts";
import { stonfiV1InitCodeUpgradeCodec } from "./stonfi/v1/init-code-upgrade.ts";
import { stonfiV1PayToCodec } from "./stonfi/v1/pay-to.ts";
import { stonfiV1ProvideLpCodec } from "./stonfi/v1/provide-lp.ts";
import { stonfiV1ProvideLpPayloadCodec } from "./stonfi/v1/provide-lp-payload.ts";
import * as v1q from "./stonfi/v1/query-only.ts";
import { stonfiV1ResetPoolGasCodec } from "./stonfi/v1/reset-pool-gas.ts";
import { stonfiV1SetFeesCodec } from "./stonfi/v1/set-fees.ts";
import { stonfiV1SetFeesPoolCodec } from "./stonfi/v1/set-fees-pool.ts";
import { stonfiV1SwapCodec } from "./stonfi/v1/swap.ts";
import { stonfiV1SwapPayloadCodec } from "./stonfi/v1/swap-payload.ts";
import { stonfiV2AddLiquidityCodec } from "./stonfi/v2/add-liquidity.ts";
import { stonfiV2BurnNotificationExtCodec } from "./stonfi/v2/burn-notification-ext.ts";
import { stonfiV2CbAddLiquidityCodec } from "./stonfi/v2/cb-add-liquidity.ts";
import { stonfiV2CbRefundMeCodec } from "./stonfi/v2/cb-refund-me.ts";
import { stonfiV2CollectFeesCodec } from "./stonfi/v2/collect-fees.ts";
import { stonfiV2VaultDepositRefFeeCodec } from "./stonfi/v2/deposit-ref-fee.ts";
import { stonfiV2DirectAddLiquidityCodec } from "./stonfi/v2/direct-add-liquidity.ts";
import { stonfiV2ExitCodePayloadCodec } from "./stonfi/v2/exit-code-payload.ts";
import { stonfiV2InitAdminUpgradeCodec } from "./stonfi/v2/init-admin-upgrade.ts";
import { stonfiV2InitCodeUpgradeCodec } from "./stonfi/v2/init-code-upgrade.ts";
import { stonfiV2InitPoolCodeUpgradeCodec } from "./stonfi/v2/init-pool-code-upgrade.ts";
import { stonfiV2InternalSetFeesCodec } from "./stonfi/v2/internal-set-fees.ts";
import { stonfiV2InternalSetParamsCodec } from "./stonfi/v2/internal-set-params.ts";
import { stonfiV2InternalUpdatePoolCodeCodec } from "./stonfi/v2/internal-update-pool-code.ts";
import { stonfiV2InternalUpdateStatusCodec } from "./stonfi/v2/internal-update-status.ts";
import { stonfiV2PayToCodec } from "./stonfi/v2/pay-to.ts";
import { stonfiV2PayVaultCodec } from "./stonfi/v2/pay-vault.ts";
import { stonfiV2ProvideLpCodec } from "./stonfi/v2/provide-lp.ts";
import { stonfiV2ProvideLpPayloadCodec } from "./stonfi/v2/provide-lp-payload.ts";
import * as v2q from "./stonfi/v2/query-only.ts";
import { stonfiV2RefundMeCodec } from "./stonfi/v2/refund-me.ts";
import { stonfiV2ResetGasPoolCodec } from "./stonfi/v2/reset-gas-pool.ts";
import { stonfiV2ResetPoolGasCodec } from "./stonfi/v2/reset-pool-gas.ts";
import { stonfiV2SetFeesCodec } from "./stonfi/v2/set-fees.ts";
import { stonfiV2SetParamsCodec } from "./stonfi/v2/set-params.ts";
import { stonfiV2SetRateCodec } from "./stonfi/v2/set-rate.ts";
import { stonfiV2SwapCodec } from "./stonfi/v2/swap.ts";
import { stonfiV2CrossSwapPayloadCodec, stonfiV2SwapPayloadCodec } from "./stonfi/v2/swap-payload.ts";
import { stonfiV2UpdatePoolCodeCodec } from "./stonfi/v2/update-pool-code.ts";
import { stonfiV2UpdatePoolStatusCodec } from "./stonfi/v2/update-pool-status.ts";
import { stonfiV2VaultPayToCodec } from "./stonfi/v2/vault-pay-to.ts";
import { stonfiV2VaultWithdrawFeeCodec } from "./stonfi/v2/withdraw-fee.ts";

/** Every internal-message body codec, in the order the shared-op rules in index.ts prefer them. */
export const BODY_CODECS = [
  jettonTransferCodec,
  jettonInternalTransferCodec,
  jettonTransferNotificationCodec,
  jettonExcessesCodec,
  jettonBurnCodec,
  jettonBurnNotificationCodec,
  jettonProvideWalletAddressCodec,
  jettonTakeWalletAddressCodec,
  jettonMintCodec,
  stonfiV1SwapCodec,
  stonfiV1ProvideLpCodec,
  stonfiV1PayToCodec,
  stonfiV1AddLiquidityCodec,
  stonfiV1CbAddLiquidityCodec,
  stonfiV1DirectAddLiquidityCodec,
  v1q.stonfiV1RefundMeCodec,
  stonfiV1CbRefundMeCodec,
  stonfiV1BurnNotificationCodec,
  stonfiV1CollectFeesCodec,
  v1q.stonfiV1CollectFeesPoolCodec,
  stonfiV1SetFeesCodec,
  stonfiV1SetFeesPoolCodec,
  v1q.stonfiV1ResetGasCodec,
  stonfiV1ResetPoolGasCodec,
  v1q.stonfiV1LockCodec,
  v1q.stonfiV1UnlockCodec,
  stonfiV1InitCodeUpgradeCodec,
  stonfiV1InitAdminUpgradeCodec,
  v1q.stonfiV1CancelCodeUpgradeCodec,
  v1q.stonfiV1CancelAdminUpgradeCodec,
  v1q.stonfiV1FinalizeUpgradesCodec,
  stonfiV2SwapCodec,
  stonfiV2ProvideLpCodec,
  stonfiV2PayToCodec,
  stonfiV2PayVaultCodec,
  stonfiV2VaultDepositRefFeeCodec,
  stonfiV2VaultWithdrawFeeCodec,
  stonfiV2VaultPayToCodec,
  stonfiV2AddLiquidityCodec,
  stonfiV2CbAddLiquidityCodec,
  stonfiV2DirectAddLiquidityCodec,
  stonfiV2RefundMeCodec,
  stonfiV2CbRefundMeCodec,
  stonfiV2BurnNotificationExtCodec,
  stonfiV2CollectFeesCodec,
  stonfiV2SetFeesCodec,
  stonfiV2InternalSetFeesCodec,
  v2q.stonfiV2ResetGasCodec,
  stonfiV2ResetGasPoolCodec,
  stonfiV2ResetPoolGasCodec,
  v2q.stonfiV2UpdateStatusCodec,
  stonfiV2UpdatePoolStatusCodec,
  stonfiV2InternalUpdateStatusCodec,
  stonfiV2InitCodeUpgradeCodec,
  stonfiV2InitAdminUpgradeCodec,
  stonfiV2InitPoolCodeUpgradeCodec,
  v2q.stonfiV2CancelCodeUpgradeCodec,
  v2q.stonfiV2CancelAdminUpgradeCodec,
  v2q.stonfiV2CancelPoolCodeUpgradeCodec,
  v2q.stonfiV2FinalizeUpgradesCodec,
  stonfiV2UpdatePoolCodeCodec,
  stonfiV2InternalUpdatePoolCodeCodec,
  stonfiV2SetParamsCodec,
  stonfiV2InternalSetParamsCodec,
  stonfiV2SetRateCodec,
  ptonV1DeployWalletCodec,
  ptonV1ResetGasCodec,
  ptonV2TonTransferCodec,
  ptonV2TonRefundCodec,
  ptonV2DeployWalletCodec,
  ptonV2InternalDeployCodec,
  ptonV2ResetGasCodec,
] as const;

/** Every forward-payload codec (the DEX command or exit code inside a transfer's forward_payload). */
export const PAYLOAD_CODECS = [
  stonfiV1SwapPayloadCodec,
  stonfiV1ProvideLpPayloadCodec,
  stonfiV1ExitCodePayloadCodec,
  stonfiV2SwapPayloadCodec,
  stonfiV2CrossSwapPayloadCodec,
  stonfiV2ProvideLpPayloadCodec,
  stonfiV2ExitCodePayloadCodec,
] as const;

type RecordOf<C> = C extends { decode(s: Slice): infer T } ? T : never;

/** Union of every decodable message-body record. */
export type KnownBody = RecordOf<(typeof BODY_CODECS)[number]>;
/** Union of every decodable forward-payload record. */
export type KnownPayload = RecordOf<(typeof PAYLOAD_CODECS)[number]>;

export const shared = {
  jettonBurnNotificationCodec,
  stonfiV1BurnNotificationCodec,
  stonfiV1ResetGasCodec: v1q.stonfiV1ResetGasCodec,
  ptonV1ResetGasCodec,
  stonfiV2ResetGasCodec: v2q.stonfiV2ResetGasCodec,
  stonfiV2ResetGasPoolCodec,
  ptonV2ResetGasCodec,
  stonfiV1CollectFeesCodec,
  stonfiV1CollectFeesPoolCodec: v1q.stonfiV1CollectFeesPoolCodec,
  stonfiV1SetFeesCodec,
  stonfiV1SetFeesPoolCodec,
  stonfiV1ExitCodePayloadCodec,
  stonfiV2ExitCodePayloadCodec,
} as const;
