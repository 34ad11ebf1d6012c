/**
 * A jetton → TON → jetton route across two v2 routers through their pTON wallets, built from codec-encoded
 * bodies (./build.ts), the flow of contracts.md §3.6 and §3.11: router 1 pays TON to router 2's pTON
 * wallet, which notifies router 2 with router 1's pTON wallet as sender; the user is named only in router
 * 2's payload (receiver, refund). One transaction per masterchain block, as on chain.
 */
import { beginCell, type Cell } from "@ton/core";
import {
  encodeJettonInternalTransfer,
  encodeJettonTransfer,
  encodeJettonTransferNotification,
  encodePtonV2TonTransfer,
  encodeStonfiV2PayTo,
  encodeStonfiV2Swap,
  encodeStonfiV2SwapPayload,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import type { RawTransaction } from "../../../../schemas/raw-transaction.ts";
import { addr, msg, tx } from "./build.ts";

export const USER = 1;
const USER_WALLET_A = 2;
export const R1 = 3;
const R1_WA = 4;
export const R1_PTON = 5;
const POOL1 = 7;
export const R2 = 11;
export const R2_PTON = 12;
const R2_WB = 13;
const POOL2 = 14;
const USER_WALLET_B = 15;
const QUERY_ID = 77n;

const either = (payload: Cell | null) =>
  payload ? { inRef: true, payload } : { inRef: false, payload: beginCell().endCell() };

function swapPayload(
  askWallet: number,
  receiver: number,
  minOut: bigint,
  custom: Cell | null,
  fwdGas: bigint,
) {
  return encodeStonfiV2SwapPayload({
    kind: "stonfi.v2.swap_payload",
    tokenWallet1: addr(askWallet),
    refundAddress: addr(USER),
    excessesAddress: addr(USER),
    txDeadline: 2_000_000_000n,
    minOut,
    receiver: addr(receiver),
    fwdGas,
    customPayload: custom,
    refundFwdGas: 0n,
    refundPayload: null,
    refFee: 10,
    refAddress: null,
  });
}

function payTo(
  to: number,
  caller: number,
  out0: bigint,
  out1: bigint,
  t0: number,
  t1: number,
  custom: Cell | null,
) {
  return encodeStonfiV2PayTo({
    kind: "stonfi.v2.pay_to",
    queryId: QUERY_ID,
    toAddress: addr(to),
    excessesAddress: addr(USER),
    originalCaller: addr(caller),
    exitCode: STONFI_EXIT_CODE.swap_ok,
    customPayload: custom,
    fwdTonAmount: custom ? 300_000_000n : 0n,
    amount0Out: out0,
    token0: addr(t0),
    amount1Out: out1,
    token1: addr(t1),
  });
}

const transfer = (amount: bigint, to: number, payload: Cell | null) =>
  encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: QUERY_ID,
    amount,
    destination: addr(to),
    responseDestination: addr(USER),
    customPayload: null,
    forwardTonAmount: payload ? 300_000_000n : 0n,
    forwardPayload: either(payload),
  });

const notification = (amount: bigint, sender: number, payload: Cell) =>
  encodeJettonTransferNotification({
    kind: "jetton.transfer_notification",
    queryId: QUERY_ID,
    amount,
    sender: addr(sender),
    forwardPayload: { inRef: true, payload },
  });

/** Jetton A → TON on router 1, TON → jetton B on router 2, through router 1's and router 2's pTON wallets. */
export function ptonRoute(): RawTransaction[] {
  const hop2 = swapPayload(R2_WB, USER, 1n, null, 0n);
  const hop1 = swapPayload(R1_PTON, R2_PTON, 1n, hop2, 300_000_000n);
  const m1 = msg({ from: USER, to: USER_WALLET_A, body: transfer(1000n, R1, hop1) });
  const m2 = msg({
    from: USER_WALLET_A,
    to: R1_WA,
    body: encodeJettonInternalTransfer({
      kind: "jetton.internal_transfer",
      queryId: QUERY_ID,
      amount: 1000n,
      from: addr(USER),
      responseAddress: addr(USER),
      forwardTonAmount: 300_000_000n,
      forwardPayload: either(hop1),
    }),
  });
  const m3 = msg({ from: R1_WA, to: R1, body: notification(1000n, USER, hop1) });
  const swap1 = msg({
    from: R1,
    to: POOL1,
    body: encodeStonfiV2Swap({
      kind: "stonfi.v2.swap",
      queryId: QUERY_ID,
      fromUser: addr(USER),
      amount0: 1000n,
      amount1: 0n,
      dexPayload: hop1,
    }),
  });
  const pay1 = msg({ from: POOL1, to: R1, body: payTo(R2_PTON, USER, 0n, 500n, R1_WA, R1_PTON, hop2) });
  const out1 = msg({ from: R1, to: R1_PTON, body: transfer(500n, R2_PTON, hop2) });
  const ton = msg({
    from: R1_PTON,
    to: R2_PTON,
    body: encodePtonV2TonTransfer({
      kind: "pton.v2.ton_transfer",
      queryId: QUERY_ID,
      tonAmount: 500n,
      refundAddress: addr(USER),
      forwardPayload: { inRef: true, payload: hop2 },
    }),
  });
  const m4 = msg({ from: R2_PTON, to: R2, body: notification(500n, R1_PTON, hop2) });
  const swap2 = msg({
    from: R2,
    to: POOL2,
    body: encodeStonfiV2Swap({
      kind: "stonfi.v2.swap",
      queryId: QUERY_ID,
      fromUser: addr(R1_PTON),
      amount0: 0n,
      amount1: 500n,
      dexPayload: hop2,
    }),
  });
  const pay2 = msg({ from: POOL2, to: R2, body: payTo(USER, R1_PTON, 300n, 0n, R2_WB, R2_PTON, null) });
  const out2 = msg({ from: R2, to: R2_WB, body: transfer(300n, USER, null) });
  const credit = msg({
    from: R2_WB,
    to: USER_WALLET_B,
    body: encodeJettonInternalTransfer({
      kind: "jetton.internal_transfer",
      queryId: QUERY_ID,
      amount: 300n,
      from: addr(R2),
      responseAddress: addr(USER),
      forwardTonAmount: 0n,
      forwardPayload: either(null),
    }),
  });
  const txs = [
    tx({ account: USER_WALLET_A, lt: 10n, in: m1, outs: [m2] }),
    tx({ account: R1_WA, lt: 11n, in: m2, outs: [m3] }),
    tx({ account: R1, lt: 12n, in: m3, outs: [swap1] }),
    tx({ account: POOL1, lt: 13n, in: swap1, outs: [pay1] }),
    tx({ account: R1, lt: 14n, in: pay1, outs: [out1] }),
    tx({ account: R1_PTON, lt: 15n, in: out1, outs: [ton] }),
    tx({ account: R2_PTON, lt: 16n, in: ton, outs: [m4] }),
    tx({ account: R2, lt: 17n, in: m4, outs: [swap2] }),
    tx({ account: POOL2, lt: 18n, in: swap2, outs: [pay2] }),
    tx({ account: R2, lt: 19n, in: pay2, outs: [out2] }),
    tx({ account: R2_WB, lt: 20n, in: out2, outs: [credit] }),
    tx({ account: USER_WALLET_B, lt: 21n, in: credit }),
  ];
  return txs.map((t, i) => ({ ...t, mc_seqno: 100 + i, block_seqno: 100 + i, now: t.now + i }));
}
