/** Wallet DTOs: operations (api.md §4.6), last transactions and fee vaults (§8). */
import type { OperationInfoDto } from "../../schemas/api/objects.ts";
import type { FeeVaultRecord, WalletTransactions } from "../read-model.ts";
import type { OperationView } from "../views.ts";
import { assetDto } from "./assets.ts";
import { compact, dec, decOrNull, friendly, ltNumber, timestamp } from "./common.ts";
import { txIdDto } from "./transactions.ts";

export function operationDto({ op, asset0, asset1 }: OperationView): OperationInfoDto {
  return {
    operation: compact({
      pool_tx_hash: op.poolTxHash,
      pool_address: friendly(op.pool),
      router_address: friendly(op.router),
      pool_tx_lt: ltNumber(op.poolTxLt),
      pool_tx_timestamp: timestamp(op.poolTxTime),
      destination_wallet_address: friendly(op.destinationWallet),
      operation_type: op.type,
      success: op.success,
      exit_code: op.exitCode,
      asset0_address: friendly(op.asset0),
      asset0_amount: dec(op.amount0),
      asset0_delta: decOrNull(op.delta0),
      asset0_reserve: decOrNull(op.reserve0),
      asset1_address: friendly(op.asset1),
      asset1_amount: dec(op.amount1),
      asset1_delta: decOrNull(op.delta1),
      asset1_reserve: decOrNull(op.reserve1),
      lp_token_delta: decOrNull(op.lpTokenDelta),
      lp_token_supply: decOrNull(op.lpTokenSupply),
      fee_asset_address: op.feeAsset ? friendly(op.feeAsset) : undefined,
      lp_fee_amount: decOrNull(op.lpFee),
      protocol_fee_amount: decOrNull(op.protocolFee),
      referral_fee_amount: dec(op.referralFee),
      referral_address: op.referral ? friendly(op.referral) : undefined,
      wallet_address: friendly(op.wallet),
      wallet_tx_lt: decOrNull(op.walletTxLt),
      wallet_tx_hash: op.walletTxHash,
      wallet_tx_timestamp: op.walletTxTime === null ? null : timestamp(op.walletTxTime),
    }),
    asset0_info: assetDto(asset0),
    asset1_info: assetDto(asset1),
  };
}

export function lastTransactionsDto(w: WalletTransactions) {
  // null: the store knows no seqno for the wallet (no indexed external message of a standard wallet). A
  // "0" would claim an undeployed wallet.
  return { seqno: w.seqno, tx_list: w.txs.map(txIdDto) };
}

export function feeVaultsDto(vaults: readonly FeeVaultRecord[]) {
  return {
    vault_list: vaults.map((v) => ({
      asset_address: friendly(v.asset),
      balance: dec(v.balance),
      router_address: friendly(v.router),
      vault_address: friendly(v.vault),
    })),
  };
}
