/** Small pure helpers shared by the assembly stages. */
import type { Address } from "@ton/core";

/** `Address` → raw `wc:HEX` with uppercase hex (the form of RawTransaction and the vectors); addr_none → null. */
export function raw(address: Address | null | undefined): string | null {
  return address ? `${address.workChain}:${address.hash.toString("hex").toUpperCase()}` : null;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
