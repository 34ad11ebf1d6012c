/**
 * Memoisation by object identity, in front of the content-keyed caches of ../chain/derivations.ts. The
 * address-keyed derivations (the StateInit of a jetton wallet, a pool, an LpAccount...) run on most
 * messages, and their content key costs a latin1 string per address hash, a concatenation and its hashing
 * on every call. The same Address objects come back over and over (the chain's CellReader hands out one
 * object per address, contract states keep theirs), so a lookup by identity (nested WeakMaps, nothing
 * kept alive) usually answers first. A content-equal but distinct object only misses here and gets the
 * content cache's result: the same object either way.
 */

/** `fn(a, b)`, cached per (a, b) object pair; `fn` must be pure and its result never mutated. */
export function byIdentity2<A extends object, B extends object, R>(fn: (a: A, b: B) => R): (a: A, b: B) => R {
  const byA = new WeakMap<A, WeakMap<B, R>>();
  return (a, b) => {
    let byB = byA.get(a);
    if (byB === undefined) {
      byB = new WeakMap();
      byA.set(a, byB);
    }
    let hit = byB.get(b);
    if (hit === undefined) {
      hit = fn(a, b);
      byB.set(b, hit);
    }
    return hit;
  };
}

/** `fn(a, b, c)`, cached per (a, b, c) object triple; the same contract as `byIdentity2`. */
export function byIdentity3<A extends object, B extends object, C extends object, R>(
  fn: (a: A, b: B, c: C) => R,
): (a: A, b: B, c: C) => R {
  const byA = new WeakMap<A, (b: B, c: C) => R>();
  return (a, b, c) => {
    let rest = byA.get(a);
    if (rest === undefined) {
      rest = byIdentity2((b2: B, c2: C) => fn(a, b2, c2));
      byA.set(a, rest);
    }
    return rest(b, c);
  };
}
