/**
 * Wire formatting shared by the mappers: the only place where domain values become STON.fi wire values.
 * Addresses: bounceable, URL-safe, mainnet user-friendly (`EQ…`). Amounts: decimal strings.
 */
import { Address } from "@ton/core";
import { type Ratio, type Rounding, toDecimalString } from "../../dex/amm/index.ts";
import type { RawAddress } from "../read-model.ts";

/** The zero address that stands for native TON in the asset catalogue (api.md §4.1). */
export const TON_RAW: RawAddress = `0:${"0".repeat(64)}`;

/** CRC-16/XMODEM (polynomial 0x1021, initial 0, not reflected): the checksum of user-friendly addresses. */
const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let bit = 0; bit < 8; bit++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    table[i] = c;
  }
  return table;
})();

/** tag, workchain, 32 hash bytes, 2 checksum bytes; reused (the encoding below is synchronous). */
const FRIENDLY = Buffer.alloc(36);
const BOUNCEABLE_TAG = 0x11;

/**
 * Raw `wc:HEX` → bounceable URL-safe mainnet `EQ…` (TEP-2: tag 0x11, the workchain as a byte, the hash,
 * CRC-16/XMODEM of those 34 bytes, base64url). Written by hand because answers carry thousands of
 * addresses (an /events range: ~9,000): @ton/core's bitwise checksum made it the export feed's largest
 * mapping cost. Anything but a well-formed raw address goes to `Address.parseRaw`, whose error names it.
 */
export function friendly(raw: RawAddress): string {
  const colon = raw.indexOf(":");
  const wc = Number(raw.slice(0, colon));
  if (
    colon < 1 ||
    raw.length !== colon + 65 ||
    !Number.isInteger(wc) ||
    wc < -128 ||
    wc > 127 ||
    FRIENDLY.write(raw.slice(colon + 1), 2, 32, "hex") !== 32
  )
    return Address.parseRaw(raw).toString({ bounceable: true, urlSafe: true, testOnly: false });
  FRIENDLY[0] = BOUNCEABLE_TAG;
  FRIENDLY[1] = wc & 0xff;
  let crc = 0;
  for (let i = 0; i < 34; i++)
    crc = ((crc << 8) & 0xffff) ^ (CRC16_TABLE[((crc >> 8) ^ (FRIENDLY[i] as number)) & 0xff] as number);
  FRIENDLY[34] = crc >> 8;
  FRIENDLY[35] = crc & 0xff;
  return FRIENDLY.toString("base64url");
}

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
