/**
 * Pieces the four v1 handlers share: their throw codes (contracts.md §2.3, named in dex/exit-codes.ts),
 * the gas constants of the v1 sources mapped onto the flat devnet fee model (§2.12, ../../chain/fees.ts),
 * the `pay_to` and payout-transfer builders (§2.6), get-method stack items and truth-event helpers.
 */
import { type Address, Cell, type TupleItem } from "@ton/core";
import type { StonfiV1PayTo } from "../../../../dex/codecs/index.ts";
import { readCell } from "../../chain/cell-reader.ts";
import { addressSliceCell } from "../../chain/derivations.ts";
import { COMPUTE_FEE, GAS_PRICE } from "../../chain/fees.ts";
import type { TruthEvent, TruthType, TruthValue } from "../../chain/truth.ts";
import { ContractThrow, type HandlerResult, type OutgoingMessage, SendMode } from "../../chain/types.ts";
import { encodeJettonTransfer, encodeStonfiV1ExitCodePayload, encodeStonfiV1PayTo } from "../encode.ts";

/** v1 throw codes ([v1-src] `router/errors.func`, `pool/errors.func`; names and explanations: dex/exit-codes.ts `V1_EXIT_CODES`). */
export const V1_THROW = {
  cellUnderflow: 9,
  wrongWalletAddressGas: 75,
  noLiquidity: 80,
  zeroOutput: 81,
  invalidCaller: 82,
  insufficientGas: 83,
  /** router: wrong workchain; pool: fee out of 0..100 bps. */
  wrongWorkchain: 85,
  feeOutOfRange: 85,
  /** router: both wallets equal. */
  wrongAddress: 86,
  invalidAmount: 87,
  /** router: upgrade state forbids the call; pool: collected fees too low. */
  invalidCall: 88,
  lowLiquidity: 88,
  invalidRecipient: 91,
  /** TVM: a negative value stored as Coins (range check). */
  integerOutOfRange: 5,
  /** TVM: a get-method argument of the wrong type. */
  typeCheck: 7,
  wrongOp: 0xffff,
} as const;

/** LP wallet throw codes (TEP-74 reference wallet, [v1-src] `lp_wallet.func`). */
export const LP_WALLET_THROW = {
  notOwner: 705,
  balance: 706,
  wrongSenderOrGas: 707,
  noForwardPayload: 708,
  gas: 709,
} as const;

/**
 * `get_gas_fee(units)` of the v1 sources (config 21: `(units − flat_limit)·price + flat_price`), which at
 * the devnet's flat 100-gas/40_000 prefix and 400 nanoton per gas is just `units × price`.
 */
export const gasFee = (units: bigint): bigint => units * GAS_PRICE;

/** Nanoton the LP wallet keeps for storage and charges per hop ([v1-src] `lp_wallet/params.func`). */
export const LP_WALLET_STORAGE = 10_000_000n;
export const LP_WALLET_GAS = 10_000_000n;
/** `REQUIRED_TON_RESERVE` of the pool and the LpAccount (0.01 TON) and of the router (100_000). */
export const POOL_TON_RESERVE = 10_000_000n;
export const ROUTER_TON_RESERVE = 100_000n;

export function done<S>(
  state: S,
  outMessages: OutgoingMessage[] = [],
  events?: TruthEvent[],
): HandlerResult<S> {
  return events === undefined
    ? { exitCode: 0, outMessages, state }
    : { exitCode: 0, outMessages, state, events };
}

export const fail = (code: number, why?: string): never => {
  throw new ContractThrow(code, why);
};

/** A body the contract would not even start reading (empty) is a plain top-up on every v1 contract. */
export const isEmptyBody = (body: Cell): boolean => body.bits.length === 0 && body.refs.length === 0;

/**
 * `send_empty_message(balance − reserve)`: what `reset_gas` sends. On the devnet the compute fee is already
 * gone when actions run, so it is taken out first; a negative amount fails like FunC's store_coins.
 */
export function drainMessage(to: Address, balance: bigint, reserve: bigint): OutgoingMessage {
  const value = balance - COMPUTE_FEE - reserve;
  if (value < 0n) fail(V1_THROW.integerOutOfRange, "nothing left above the reserve");
  return { to, value, bounce: true, body: Cell.EMPTY, mode: SendMode.ORDINARY };
}

export type PayTo = Omit<StonfiV1PayTo, "kind">;

/** Pool → router `pay_to` (§2.6): always non-bounceable. */
export function payToMessage(router: Address, p: PayTo, value: bigint, mode: number): OutgoingMessage {
  const body = encodeStonfiV1PayTo({ kind: "stonfi.v1.pay_to", ...p });
  return { to: router, value, bounce: false, body, mode };
}

/**
 * Router → its own jetton wallet: the payout or refund transfer of §2.6. destination = response = owner,
 * no custom payload, forward_ton_amount 0, forward payload inline: the 32-bit exit code.
 */
export function exitCodeTransfer(
  wallet: Address,
  t: { queryId: bigint; amount: bigint; owner: Address | null; exitCode: number },
  value: bigint,
  mode: number,
): OutgoingMessage {
  const exitPayload = encodeStonfiV1ExitCodePayload({
    kind: "stonfi.v1.exit_code_payload",
    exitCode: t.exitCode,
  });
  const body = encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: t.queryId,
    amount: t.amount,
    destination: t.owner,
    responseDestination: t.owner,
    customPayload: null,
    forwardTonAmount: 0n,
    forwardPayload: { inRef: false, payload: exitPayload },
  });
  return { to: wallet, value, bounce: true, body, mode };
}

export function addressItem(address: Address | null): TupleItem {
  return { type: "slice", cell: addressSliceCell(address) };
}

export function intItem(value: bigint | number): TupleItem {
  return { type: "int", value: BigInt(value) };
}

export function cellItem(cell: Cell): TupleItem {
  return { type: "cell", cell };
}

/** A `slice` get-method argument holding an address (TVM type check error otherwise). */
export function addressArg(args: readonly TupleItem[], i: number): Address {
  const item = args[i];
  if (item?.type !== "slice") return fail(V1_THROW.typeCheck, `argument ${i} is not a slice`);
  try {
    return readCell(item.cell).loadAddress();
  } catch {
    return fail(V1_THROW.cellUnderflow, `argument ${i} is not a std address`);
  }
}

export function intArg(args: readonly TupleItem[], i: number): bigint {
  const item = args[i];
  if (item?.type !== "int") return fail(V1_THROW.typeCheck, `argument ${i} is not an int`);
  return item.value;
}

export function event(type: TruthType, fields: Record<string, TruthValue>): TruthEvent {
  return { type, fields };
}
