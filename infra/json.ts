/**
 * JSON with bigints (STYLE practice 6): a bigint is written as its decimal string, through an explicit
 * replacer. `BigInt.prototype.toJSON` is never patched (action at a distance). Reading back into bigint is
 * the job of the zod schema of whatever is read (`schemas/facts.ts`), not of a global reviver.
 */

function replacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, replacer);
}
