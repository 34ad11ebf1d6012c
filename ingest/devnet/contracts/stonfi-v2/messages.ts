/**
 * Message and stack helpers shared by the devnet STON.fi v2 contracts. Bodies are built with the
 * project's codecs (dex/codecs); layouts: shared/reference/contracts.md §3.5 (router refund), §3.6
 * (pay_to, payout transfer), §3.10 (get-method stacks).
 */
import { type Address, beginCell, Cell, type StateInit, type TupleItem } from "@ton/core";
import { readCell } from "../../chain/cell-reader.ts";
import { addressSliceCell } from "../../chain/derivations.ts";
import { COMPUTE_FEE } from "../../chain/fees.ts";
import { ContractThrow, type OutgoingMessage, SendMode } from "../../chain/types.ts";
import {
  encodeJettonExcesses,
  encodeJettonTransfer,
  encodeStonfiV2ExitCodePayload,
  encodeStonfiV2PayTo,
} from "../encode.ts";
import { V2_ERROR } from "./constants.ts";

export type SendOptions = { bounce?: boolean; init?: StateInit; mode?: number };

export function message(to: Address, value: bigint, body: Cell, options: SendOptions = {}): OutgoingMessage {
  return {
    to,
    value,
    body,
    bounce: options.bounce ?? true,
    init: options.init,
    mode: options.mode ?? SendMode.ORDINARY,
  };
}

/** Forwards the rest of the inbound value (real contracts: reserve the old balance, send with mode 128). */
export function carry(to: Address, body: Cell, options: Omit<SendOptions, "mode"> = {}): OutgoingMessage {
  return message(to, 0n, body, { ...options, mode: SendMode.CARRY_INBOUND_VALUE });
}

/** The inbound value left after this transaction's compute fee, minus what earlier messages took. */
export const inboundLeft = (msgValue: bigint, ...spent: bigint[]): bigint =>
  spent.reduce((left, x) => left - x, msgValue - COMPUTE_FEE);

export function excesses(to: Address, queryId: bigint): OutgoingMessage {
  return carry(to, encodeJettonExcesses({ kind: "jetton.excesses", queryId }), { bounce: false });
}

export type PayToFields = {
  queryId: bigint;
  to: Address | null;
  excesses: Address | null;
  originalCaller: Address | null;
  exitCode: number;
  customPayload: Cell | null;
  fwdTonAmount: bigint;
  amount0: bigint;
  amount1: bigint;
  token0: Address;
  token1: Address;
};

export function payToBody(f: PayToFields): Cell {
  return encodeStonfiV2PayTo({
    kind: "stonfi.v2.pay_to",
    queryId: f.queryId,
    toAddress: f.to,
    excessesAddress: f.excesses,
    originalCaller: f.originalCaller,
    exitCode: f.exitCode,
    customPayload: f.customPayload,
    fwdTonAmount: f.fwdTonAmount,
    amount0Out: f.amount0,
    token0: f.token0,
    amount1Out: f.amount1,
    token1: f.token1,
  });
}

/**
 * A jetton `transfer` from the router to one of its wallets. `forward` is the Maybe-^Cell forward
 * payload of a payout (§3.6), or the inline 32-bit exit code of a router refund (§3.5).
 */
export function jettonTransferBody(f: {
  queryId: bigint;
  amount: bigint;
  destination: Address | null;
  response: Address | null;
  forwardTonAmount: bigint;
  forward: { payload: Cell | null } | { exitCode: number };
}): Cell {
  const forwardPayload =
    "exitCode" in f.forward
      ? {
          inRef: false,
          payload: encodeStonfiV2ExitCodePayload({
            kind: "stonfi.v2.exit_code_payload",
            exitCode: f.forward.exitCode,
          }),
        }
      : f.forward.payload
        ? { inRef: true, payload: f.forward.payload }
        : { inRef: false, payload: Cell.EMPTY };
  return encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: f.queryId,
    amount: f.amount,
    destination: f.destination,
    responseDestination: f.response,
    customPayload: null,
    forwardTonAmount: f.forwardTonAmount,
    forwardPayload,
  });
}

export const stackInt = (value: bigint | number | boolean): TupleItem => ({
  type: "int",
  value: typeof value === "boolean" ? (value ? -1n : 0n) : BigInt(value),
});
export const stackAddress = (a: Address | null): TupleItem => ({
  type: "slice",
  cell: addressSliceCell(a),
});
export const stackString = (s: string): TupleItem => ({
  type: "slice",
  cell: beginCell().storeStringTail(s).endCell(),
});
export const stackCell = (cell: Cell): TupleItem => ({ type: "cell", cell });

/** A get-method address argument; the contract throws 9 when the slice holds no address. */
export function argAddress(args: TupleItem[], index: number): Address {
  const item = args[index];
  if (item?.type !== "slice" && item?.type !== "cell") throw new ContractThrow(7);
  try {
    return readCell(item.cell).loadAddress();
  } catch {
    throw new ContractThrow(V2_ERROR.cell_underflow);
  }
}

/**
 * Parses with `f`; a failure is the contract's cell-underflow throw (what TVM raises on bad data). A
 * TypeError is a bug in the handler, not bad data, and propagates.
 */
export function parseOr9<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof ContractThrow || error instanceof TypeError) throw error;
    throw new ContractThrow(V2_ERROR.cell_underflow);
  }
}

/** An address a layout requires: addr_none there is a cell underflow, as loading a std address in TVM. */
export function required(a: Address | null): Address {
  if (a === null) throw new ContractThrow(V2_ERROR.cell_underflow);
  return a;
}

export const isStdWc0 = (a: Address | null): a is Address => a !== null && a.workChain === 0;
