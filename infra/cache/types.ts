/**
 * The hot state cache: a string key-value store with per-entry TTL, async so Redis (ioredis, later) fits
 * the same interface as the in-process LRU (./memory.ts). Values are strings, as Redis stores them;
 * typed access goes through `cacheNamespace`, which versions the keys and owns the codec. Values handed
 * out by a namespace are shared between readers and must not be mutated.
 */

export interface HotCache {
  get(key: string): Promise<string | undefined>;
  /**
   * `get` answered at once, for a cache that holds its entries in this process (the memory LRU); absent
   * where a read has to wait (Redis). Same entry, same expiry, same recency update as `get`.
   */
  getNow?(key: string): string | undefined;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** true when the key existed. */
  delete(key: string): Promise<boolean>;
}

export type CacheCodec<T> = { encode(value: T): string; decode(text: string): T };

export type CacheNamespaceSpec<T> = {
  /** e.g. "pool_state". */
  readonly name: string;
  /** Bump when the value's shape changes: old entries are simply never read again (no flush needed). */
  readonly version: number;
  readonly ttlMs: number;
  readonly codec: CacheCodec<T>;
};

export type CacheNamespace<T> = {
  key(id: string): string;
  get(id: string): Promise<T | undefined>;
  /** `get` answered at once; present when the cache has `getNow`. */
  getNow?(id: string): T | undefined;
  set(id: string, value: T): Promise<void>;
  delete(id: string): Promise<boolean>;
};

export const CACHE_KEY_PREFIX = "tondex";

/** Bound on the decoded values a namespace remembers (see `get`). */
const DECODED_MEMO_ENTRIES = 16_384;

/** Keys look like `tondex:pool_state:v1:0:ABC…`. */
export function cacheNamespace<T>(cache: HotCache, spec: CacheNamespaceSpec<T>): CacheNamespace<T> {
  const key = (id: string) => `${CACHE_KEY_PREFIX}:${spec.name}:v${spec.version}:${id}`;
  // The last decoded value per id, reused while the cache returns the very same text: decoding (JSON and
  // schema validation) costs far more than comparing the text, and readers never mutate values.
  const decoded = new Map<string, { text: string; value: T }>();
  const decodedOf = (id: string, text: string | undefined): T | undefined => {
    if (text === undefined) return undefined;
    const last = decoded.get(id);
    if (last !== undefined && last.text === text) return last.value;
    const value = spec.codec.decode(text);
    if (decoded.size >= DECODED_MEMO_ENTRIES) decoded.clear();
    decoded.set(id, { text, value });
    return value;
  };
  const getNow = cache.getNow?.bind(cache);
  return {
    key,
    get: async (id) => decodedOf(id, await cache.get(key(id))),
    ...(getNow === undefined ? {} : { getNow: (id: string) => decodedOf(id, getNow(key(id))) }),
    set: (id, value) => cache.set(key(id), spec.codec.encode(value), spec.ttlMs),
    delete: (id) => cache.delete(key(id)),
  };
}
