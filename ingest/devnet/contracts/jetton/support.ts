/**
 * Helpers shared by the jetton and pTON handlers: exit codes of the TEP-74 reference contracts, body
 * parsing that turns codec failures into TVM-style throws, and get-method stack items.
 */
import type { Address, Cell, Slice, TupleItem } from "@ton/core";
import { readCell } from "../../chain/cell-reader.ts";
import { addressSliceCell } from "../../chain/derivations.ts";
import { ContractThrow, DevnetError, type HandlerResult, type OutgoingMessage } from "../../chain/types.ts";

/**
 * Exit codes of the reference token-contract (`ft/jetton-minter.fc`, `ft/jetton-wallet.fc`, `ft/params.fc`,
 * `ft/discovery-params.fc`); the same numbers appear in dex/exit-codes.ts for STON.fi LP wallets.
 */
export const JETTON_EXIT = {
  /** minter: `mint` not from the admin. */
  notAdmin: 73,
  /** minter: `burn_notification` not from the wallet of `sender`. */
  notWallet: 74,
  /** minter: `provide_wallet_address` with too little TON for the reply (TEP-89). */
  discoveryGas: 75,
  /** wallet: `transfer`/`burn` not from the owner. */
  notOwner: 705,
  /** wallet: amount above the balance. */
  balance: 706,
  /** wallet: `internal_transfer` from neither the master nor a sibling wallet; `burn` with too little TON. */
  wrongSender: 707,
  /** wallet: `transfer` without the forward-payload Either bit. */
  noForwardPayload: 708,
  /** wallet: `transfer` value cannot cover forward_ton_amount and the fees; bounced op not restorable. */
  notEnoughTon: 709,
  /** `force_chain`: destination outside the basechain (or addr_none). */
  wrongWorkchain: 333,
  /** TVM cell underflow: a body missing a field. */
  cellUnderflow: 9,
  /** Unknown op. */
  wrongOp: 0xffff,
} as const;

export const BOUNCE_PREFIX = 0xffffffff;

/** The op of a body, or null for an empty body (a plain top-up, accepted by every contract here). */
export function opOf(body: Cell): number | null {
  const s = readCell(body);
  if (s.remainingBits === 0 && s.remainingRefs === 0) return null;
  if (s.remainingBits < 32) throw new ContractThrow(JETTON_EXIT.cellUnderflow);
  return s.preloadUint(32);
}

/** Runs a codec decoder; a body that does not parse fails like TVM's cell underflow. */
export function parseBody<T>(
  decode: (s: Slice) => T,
  body: Cell,
  code: number = JETTON_EXIT.cellUnderflow,
): T {
  try {
    return decode(readCell(body));
  } catch (error) {
    if (error instanceof ContractThrow) throw error;
    throw new ContractThrow(code, error instanceof Error ? error.message : String(error));
  }
}

/** `force_chain`: a std address in workchain 0 (addr_none fails too). */
export function requireBasechain(
  address: Address | null,
  code: number = JETTON_EXIT.wrongWorkchain,
): Address {
  if (address === null || address.workChain !== 0) throw new ContractThrow(code);
  return address;
}

export function done<S>(state: S, outMessages: OutgoingMessage[] = []): HandlerResult<S> {
  return { exitCode: 0, outMessages, state };
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

/** Reads the `slice owner_address` argument of `get_wallet_address` (TVM type check error 7 otherwise). */
export function addressArg(args: readonly TupleItem[]): Address {
  const arg = args[0];
  if (arg === undefined || (arg.type !== "slice" && arg.type !== "cell")) throw new ContractThrow(7);
  try {
    return readCell(arg.cell).loadAddress();
  } catch {
    throw new ContractThrow(JETTON_EXIT.cellUnderflow);
  }
}

export const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** The `query_id` after the op, for bodies that carry nothing else. */
export function queryIdOf(body: Cell): bigint {
  return parseBody((s) => s.skip(32).loadUintBig(64), body);
}

/** A registered factory needs the StateInit's data cell: a deploy without one is a devnet setup bug. */
export function requireData(data: Cell | null, kind: string): Cell {
  if (data === null) throw new DevnetError(`${kind}: StateInit without a data cell`);
  return data;
}
