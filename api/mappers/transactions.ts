/** DTOs of swap status, transaction query and action tree (api.md §4.7, §6.4–§6.6). */
import type { TxIdDto } from "../../schemas/api/objects.ts";
import type { SwapStatusDto } from "../../schemas/api/transactions.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import type { SwapStatusRecord, TxLookupResult, TxRef } from "../read-model.ts";
import { dec, friendly, ltNumber } from "./common.ts";

export function txIdDto(t: TxRef): TxIdDto {
  return { lt: ltNumber(t.lt), hash: t.hash, contract_address: friendly(t.account) };
}

export function rawTxIdDto(t: RawTransaction): TxIdDto {
  return txIdDto({ hash: t.hash, lt: BigInt(t.lt), account: t.account });
}

export function txQueryDto(found: TxLookupResult | null): { tx_id?: TxIdDto; wallet_seqno?: number } {
  if (found === null) return {};
  return {
    tx_id: txIdDto(found),
    ...(found.walletSeqno !== null ? { wallet_seqno: found.walletSeqno } : {}),
  };
}

export function swapStatusDto(s: SwapStatusRecord | null): SwapStatusDto {
  if (s === null) return { "@type": "NotFound" };
  const deltas = Object.fromEntries(
    [...s.balanceDeltas].map(([asset, d]) => [friendly(asset), d.toString()]),
  );
  return {
    "@type": "Found",
    address: friendly(s.wallet),
    query_id: dec(s.queryId),
    exit_code: s.exitCode,
    coins: dec(s.coins),
    logical_time: dec(s.lt),
    tx_hash: s.txHash,
    balance_deltas: JSON.stringify(deltas),
  };
}
