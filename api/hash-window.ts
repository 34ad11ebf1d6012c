/**
 * The newest `size` distinct 31-bit hashes, as a fixed open-addressing table (linear probing, deletion by
 * backward shift) and a ring that says which hash leaves next. It answers what a `Set<number>` beside the
 * same ring answers, without the Set's allocations: a Set with one deletion and one insertion per call
 * rebuilds its table every few thousand calls, and a table for thousands of entries is allocated in the
 * old generation at once (~40 bytes of old generation per call at 8,192 hashes).
 */
export type HashWindow = {
  /**
   * Whether `hash` (an integer in [0, 2^31)) is among the newest; if not, it becomes the newest (the
   * oldest leaves when full).
   */
  seenBefore(hash: number): boolean;
  readonly size: number;
};

const EMPTY = -1;

export function hashWindow(size: number): HashWindow {
  // At most half full: probe runs stay short.
  let capacity = 2;
  while (capacity < 2 * size) capacity *= 2;
  const mask = capacity - 1;
  const table = new Int32Array(capacity).fill(EMPTY);
  const ring = new Int32Array(size);
  let next = 0;
  let count = 0;

  const slotOf = (hash: number): number => {
    let i = hash & mask;
    while (table[i] !== EMPTY && table[i] !== hash) i = (i + 1) & mask;
    return i;
  };

  const remove = (hash: number) => {
    let i = slotOf(hash);
    if (table[i] === EMPTY) return;
    // Backward shift: move later entries of the run into the hole unless their home lies after it.
    for (let j = (i + 1) & mask; table[j] !== EMPTY; j = (j + 1) & mask) {
      const home = (table[j] as number) & mask;
      const between = i <= j ? i < home && home <= j : i < home || home <= j;
      if (!between) {
        table[i] = table[j] as number;
        i = j;
      }
    }
    table[i] = EMPTY;
  };

  return {
    seenBefore(hash: number): boolean {
      const i = slotOf(hash);
      if (table[i] === hash) return true;
      if (count >= size) remove(ring[next] as number);
      else count++;
      table[slotOf(hash)] = hash;
      ring[next] = hash;
      next = (next + 1) % size;
      return false;
    },
    get size() {
      return count;
    },
  };
}
