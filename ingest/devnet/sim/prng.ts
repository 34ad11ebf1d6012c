/**
 * Seeded PRNG for the market simulator: sfc32 (Chris Doty-Humphrey's Small Fast Counter, 128-bit state),
 * seeded through splitmix32 so nearby seeds give unrelated streams. No Math.random anywhere in the devnet:
 * the same seed gives the same blocks, hash for hash.
 */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new RangeError(`seed must be a non-negative integer, got ${seed}`);
    const init = splitmix32(seed ^ Math.floor(seed / 2 ** 32));
    this.#a = init();
    this.#b = init();
    this.#c = init();
    this.#d = init();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniformly distributed 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  next(): number {
    return (this.uint32() * 2 ** 21 + (this.uint32() >>> 11)) / 2 ** 53;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`int(n) needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[this.int(items.length)]!;
  }

  /** Index drawn with the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, w) => a + w, 0);
    if (!(total > 0)) throw new RangeError("weighted() needs a positive total weight");
    let x = this.next() * total;
    for (const [i, w] of weights.entries()) {
      if (x < w) return i;
      x -= w;
    }
    return weights.length - 1;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Uniform bigint in [lo, hi] (inclusive), exact for any width. */
  bigint(lo: bigint, hi: bigint): bigint {
    if (hi < lo) throw new RangeError(`bigint(lo, hi) needs lo <= hi, got ${lo} > ${hi}`);
    const span = hi - lo + 1n;
    const bits = span.toString(2).length;
    for (;;) {
      let r = 0n;
      for (let got = 0; got < bits; got += 32) r = (r << 32n) | BigInt(this.uint32());
      r &= (1n << BigInt(bits)) - 1n;
      if (r < span) return lo + r;
    }
  }
}
