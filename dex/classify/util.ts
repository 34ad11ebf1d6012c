/** Small pure helpers shared by the assembly stages. */

/** `Address` → raw `wc:HEX` (the form of RawTransaction and the vectors); addr_none → null. */
export { rawOrNull as raw } from "../../schemas/ton.ts";

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
