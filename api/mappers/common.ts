/**
 * Wire formatting shared by the mappers: the only place where domain values become STON.fi wire values.
 * Addresses: bounceable, URL-safe, mainnet user-friendly (`EQ…`). Amounts: decimal strings.
 */
import { Address } from "@ton/core";
import { type Ratio, type Rounding, toDecimalString } from "../../dex/amm/index.ts";
import { boundedMemo } from "../../schemas/bounded-memo.ts";
import type { RawAddress } from "../read-model.ts";

/** The zero address that stands for native TON in the asset catalogue (api.md §4.1). */
export const TON_RAW: RawAddress = `0:${"0".repeat(64)}`;

/** Raw `wc:HEX` → bounceable URL-safe `EQ…` (remembered: answers name the same pools and assets again and again). */
export const friendly: (raw: RawAddress) => string = boundedMemo((raw) =>
  Address.parseRaw(raw).toString({ bounceable: true, urlSafe: true, testOnly: false }),
);

export const dec = (v: bigint): string => v.toString();

/** A value the service may not know: its decimal string, or null (unknown is never rendered as "0"). */
export const decOrNull = (v: bigint | null): string | null => (v === null ? null : v.toString());

/** Unix seconds → `YYYY-MM-DDTHH:MM:SS` (UTC), the form the API uses in both directions (api.md §1.3). */
export function timestamp(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19);
}

/**
 * A logical time as a JSON number, as the wire declares `pool_tx_lt` and TxId `lt`. Real lts are far below
 * 2^53; a larger one would lose precision, so it is refused rather than rounded.
 */
export function ltNumber(lt: bigint): number {
  if (lt > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`lt ${lt} does not fit a JSON number`);
  return Number(lt);
}

/** Decimal rendering of an exact ratio; every call states its digits and rounding. */
export const ratioText = (r: Ratio, digits: number, rounding: Rounding): string =>
  toDecimalString(r, digits, rounding);

/** Keys whose value is undefined are dropped, so optional fields are absent rather than null. */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
