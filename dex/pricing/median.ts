/**
 * The weighted median the price methodology takes over pools (analytics.md §7.2, §7.3): robust to one
 * pool pushed far off by a trade, unlike a weighted mean.
 */

export type Weighted = { readonly value: number; readonly weight: number; readonly key: string };

/**
 * The lower weighted median: sort by value (ties by `key`, e.g. the pool address, so the result never
 * depends on input order) and take the first value where the running weight reaches half the total.
 * Null for no positive weight.
 */
export function weightedMedian(items: readonly Weighted[]): number | null {
  const kept = items.filter((i) => i.weight > 0 && Number.isFinite(i.value));
  if (kept.length === 0) return null;
  kept.sort((a, b) => a.value - b.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const total = kept.reduce((s, i) => s + i.weight, 0);
  let running = 0;
  for (const i of kept) {
    running += i.weight;
    if (running * 2 >= total) return i.value;
  }
  return kept[kept.length - 1]!.value;
}
