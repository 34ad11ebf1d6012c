/**
 * The dex/codecs encoders the devnet contracts send, run on the chain's byte-wise CellWriter: the same
 * cells as `encodeX` of dex/codecs, without @ton/core's bit-by-bit Builder, which was the largest share of
 * the contracts' own time. Same names as in dex/codecs, so a contract imports its encoders from here and
 * everything else from dex/codecs. Layout codecs go through ./layout.ts `layoutEncoder` (the layout
 * compiled once, nested refs built with CellWriters too); hand-written codecs run their own `store` on a
 * CellWriter (`fastEncoder` in ../chain/cell-writer.ts), or are written out here when that `store` builds
 * a ref with @ton/core. test/unit/ingest/devnet/contracts-codecs.test.ts compares every encoder here with
 * dex/codecs' on random records.
 */
import type { Builder, Cell } from "@ton/core";
import {
  type EitherPayload,
  jettonBurnNotificationCodec,
  jettonExcessesCodec,
  jettonInternalTransferCodec,
  jettonTakeWalletAddressCodec,
  jettonTransferCodec,
  jettonTransferNotificationCodec,
  ptonV2InternalDeployCodec,
  ptonV2TonTransferCodec,
  STONFI_V1_OP,
  type StonfiV1PayTo,
  type StonfiV1Swap,
  stonfiV1AddLiquidityCodec,
  stonfiV1BurnNotificationCodec,
  stonfiV1CbAddLiquidityCodec,
  stonfiV1CbRefundMeCodec,
  stonfiV1CollectFeesCodec,
  stonfiV1ExitCodePayloadCodec,
  stonfiV1InitAdminUpgradeCodec,
  stonfiV1ProvideLpCodec,
  stonfiV1ResetPoolGasCodec,
  stonfiV1SetFeesCodec,
  stonfiV1SetFeesPoolCodec,
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
import { CellWriter, fastEncoder } from "../chain/cell-writer.ts";
import { toTonCell } from "../chain/fast-cell.ts";
import { layoutEncoder } from "./layout.ts";

/**
 * `encodeX` of a codec whose layout ends with the `Either Cell ^Cell` forward payload (jetton transfer,
 * internal_transfer, transfer_notification, pTON v2 ton_transfer). dex/codecs stores an inline payload with
 * `storeSlice(payload.beginParse())`, a @ton/core Slice over a materialised BitString per message; here the
 * codec writes the fields before the tail (for a null payload it writes no tail) and the tail is appended
 * byte-wise: the same cell.
 */
function eitherTailEncoder<T extends { forwardPayload: EitherPayload | null }>(codec: {
  store(x: T): (b: Builder) => void;
}): (x: T) => Cell {
  return (x) => {
    const w = new CellWriter();
    codec.store({ ...x, forwardPayload: null })(w as unknown as Builder);
    const tail = x.forwardPayload;
    if (tail?.inRef) w.bit(1).ref(tail.payload);
    else if (tail) w.bit(0).append(tail.payload);
    return toTonCell(w.end());
  };
}

/**
 * v1 `pay_to` and `swap` end with a ref group that dex/codecs builds with @ton/core's `beginCell()`
 * (`storeInRef`), which no CellWriter can stand in for: their layouts are written out here, ref included.
 */
export function encodeStonfiV1PayTo(x: StonfiV1PayTo): Cell {
  const amounts = new CellWriter()
    .coins(x.amount0Out)
    .address(x.token0)
    .coins(x.amount1Out)
    .address(x.token1)
    .end();
  const w = new CellWriter().uint(STONFI_V1_OP.pay_to, 32).big(x.queryId, 64);
  return toTonCell(w.address(x.owner).uint(x.exitCode, 32).bit(1).ref(amounts).end());
}

export function encodeStonfiV1Swap(x: StonfiV1Swap): Cell {
  const users = new CellWriter().address(x.fromUser);
  if (x.hasRef) users.address(x.refAddress);
  const w = new CellWriter().uint(STONFI_V1_OP.swap, 32).big(x.queryId, 64);
  w.address(x.toAddress).address(x.senderWallet).coins(x.jettonAmount).coins(x.minOut).bit(x.hasRef);
  return toTonCell(w.ref(users.end()).end());
}

export const encodeJettonBurnNotification = layoutEncoder(jettonBurnNotificationCodec);
export const encodeJettonExcesses = layoutEncoder(jettonExcessesCodec);
export const encodeJettonInternalTransfer = eitherTailEncoder(jettonInternalTransferCodec);
export const encodeJettonTakeWalletAddress = fastEncoder(jettonTakeWalletAddressCodec);
export const encodeJettonTransfer = eitherTailEncoder(jettonTransferCodec);
export const encodeJettonTransferNotification = eitherTailEncoder(jettonTransferNotificationCodec);
export const encodePtonV2InternalDeploy = layoutEncoder(ptonV2InternalDeployCodec);
export const encodePtonV2TonTransfer = eitherTailEncoder(ptonV2TonTransferCodec);
export const encodeStonfiV1AddLiquidity = layoutEncoder(stonfiV1AddLiquidityCodec);
export const encodeStonfiV1BurnNotification = layoutEncoder(stonfiV1BurnNotificationCodec);
export const encodeStonfiV1CbAddLiquidity = layoutEncoder(stonfiV1CbAddLiquidityCodec);
export const encodeStonfiV1CbRefundMe = layoutEncoder(stonfiV1CbRefundMeCodec);
export const encodeStonfiV1CollectFees = layoutEncoder(stonfiV1CollectFeesCodec);
export const encodeStonfiV1ExitCodePayload = fastEncoder(stonfiV1ExitCodePayloadCodec);
export const encodeStonfiV1InitAdminUpgrade = layoutEncoder(stonfiV1InitAdminUpgradeCodec);
export const encodeStonfiV1ProvideLp = layoutEncoder(stonfiV1ProvideLpCodec);
export const encodeStonfiV1ResetPoolGas = layoutEncoder(stonfiV1ResetPoolGasCodec);
export const encodeStonfiV1SetFees = layoutEncoder(stonfiV1SetFeesCodec);
export const encodeStonfiV1SetFeesPool = layoutEncoder(stonfiV1SetFeesPoolCodec);
export const encodeStonfiV2AddLiquidity = layoutEncoder(stonfiV2AddLiquidityCodec);
export const encodeStonfiV2BurnNotificationExt = layoutEncoder(stonfiV2BurnNotificationExtCodec);
export const encodeStonfiV2CbAddLiquidity = layoutEncoder(stonfiV2CbAddLiquidityCodec);
export const encodeStonfiV2CbRefundMe = layoutEncoder(stonfiV2CbRefundMeCodec);
export const encodeStonfiV2ExitCodePayload = fastEncoder(stonfiV2ExitCodePayloadCodec);
export const encodeStonfiV2InternalSetFees = layoutEncoder(stonfiV2InternalSetFeesCodec);
export const encodeStonfiV2InternalSetParams = fastEncoder(stonfiV2InternalSetParamsCodec);
export const encodeStonfiV2InternalUpdateStatus = layoutEncoder(stonfiV2InternalUpdateStatusCodec);
export const encodeStonfiV2PayTo = layoutEncoder(stonfiV2PayToCodec);
export const encodeStonfiV2PayVault = layoutEncoder(stonfiV2PayVaultCodec);
export const encodeStonfiV2ProvideLp = layoutEncoder(stonfiV2ProvideLpCodec);
export const encodeStonfiV2SetFees = layoutEncoder(stonfiV2SetFeesCodec);
export const encodeStonfiV2SetParams = fastEncoder(stonfiV2SetParamsCodec);
export const encodeStonfiV2Swap = layoutEncoder(stonfiV2SwapCodec);
export const encodeStonfiV2UpdatePoolStatus = layoutEncoder(stonfiV2UpdatePoolStatusCodec);
export const encodeStonfiV2VaultDepositRefFee = layoutEncoder(stonfiV2VaultDepositRefFeeCodec);
export const encodeStonfiV2VaultPayTo = layoutEncoder(stonfiV2VaultPayToCodec);
