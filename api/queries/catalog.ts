/**
 * Selection rules shared by assets/query, assets/search and pools/query (api.md §7):
 *
 *   result = unconditional ∪ { x | condition(x) ∧ search(x) }, sorted by `sort_by`, cut at `limit`.
 *
 * - `condition` absent: true when search terms are given (a plain search), else false — an absent condition
 *   is not "everything" (api.md §7.1: with only unconditional assets the live API returns just those).
 * - `search(x)`: no terms, or any term equal to one of x's addresses or a case-insensitive substring of one
 *   of its names.
 * - Items without the sort field go last; ties keep the catalogue order.
 */
import type { SortKey } from "../../schemas/api/assets.ts";
import { parseAddressText } from "../../schemas/api/wire.ts";
import { BadRequestError } from "../errors.ts";
import { type Condition, evaluate, parseCondition } from "./condition.ts";

export type Candidate<T> = {
  item: T;
  addresses: readonly string[];
  names: readonly string[];
  tags: ReadonlySet<string>;
  sortValues: Readonly<Record<string, number | string | undefined>>;
  unconditional: boolean;
};

export type Selection = {
  condition?: string;
  searchTerms: readonly string[];
  sortBy: readonly SortKey[];
  limit?: number;
};

const HARD_LIMIT = 1000;

export function compileCondition(text: string | undefined): Condition | undefined {
  return text === undefined || text.trim() === "" ? undefined : parseCondition(text);
}

function matchesSearch(c: Candidate<unknown>, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  return terms.some((term) => {
    const raw = parseAddressText(term);
    if (raw !== null) return c.addresses.includes(raw);
    const needle = term.toLowerCase();
    return c.names.some((n) => n.toLowerCase().includes(needle));
  });
}

function compareBy(keys: readonly SortKey[]) {
  return (a: Candidate<unknown>, b: Candidate<unknown>): number => {
    for (const { field, descending } of keys) {
      const x = a.sortValues[field];
      const y = b.sortValues[field];
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const order = x < y ? -1 : 1;
      return descending ? -order : order;
    }
    return 0;
  };
}

export function checkSortFields(sortBy: readonly SortKey[], allowed: readonly string[]): void {
  for (const { field } of sortBy) {
    if (!allowed.includes(field)) {
      throw new BadRequestError("sort_by", `cannot sort by '${field}'; sortable: ${allowed.join(", ")}`);
    }
  }
}

export function select<T>(candidates: readonly Candidate<T>[], s: Selection, condition?: Condition): T[] {
  const chosen = candidates.filter((c) => {
    if (c.unconditional) return true;
    const passes = condition ? evaluate(condition, (tag) => c.tags.has(tag)) : s.searchTerms.length > 0;
    return passes && matchesSearch(c, s.searchTerms);
  });
  const sorted = s.sortBy.length > 0 ? [...chosen].sort(compareBy(s.sortBy)) : chosen;
  return sorted.slice(0, Math.min(s.limit ?? HARD_LIMIT, HARD_LIMIT)).map((c) => c.item);
}
