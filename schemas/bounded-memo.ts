/**
 * `boundedMemo(fn, maxEntries)`: remembers the results of a pure function of one string. When full it
 * starts over (clears), which keeps every call O(1) and the memory bounded; for the working sets it serves
 * (addresses a server keeps answering about) a clear is rare. Only for functions whose result depends on
 * the argument alone and is never mutated by callers. In schemas/ because the wire schemas' address
 * parsing uses it (and every layer may import schemas/).
 */
export function boundedMemo<V>(fn: (key: string) => V, maxEntries = 65_536): (key: string) => V {
  const results = new Map<string, V>();
  return (key) => {
    const known = results.get(key);
    if (known !== undefined || results.has(key)) return known as V;
    const value = fn(key);
    if (results.size >= maxEntries) results.clear();
    results.set(key, value);
    return value;
  };
}
