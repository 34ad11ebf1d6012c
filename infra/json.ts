/**
 * JSON with bigints (STYLE practice 6): a bigint is written as its decimal string, through an explicit
 * replacer. `BigInt.prototype.toJSON` is never patched (action at a distance). Reading back into bigint is
 * the job of the zod schema of whatever is read (`schemas/facts.ts`), not of a global reviver.
 *
 * A replacer is called for every key and value, which makes `JSON.stringify` several times slower, so a
 * value is first written without one: JSON.stringify throws a TypeError at the first bigint, and only then
 * is it written again with the replacer (same output either way: the replacer changes nothing else).
 */

function replacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, replacer);
  }
}
