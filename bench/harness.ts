/** Tiny benchmark harness: run a function for a fixed wall time and report operations per second. */
export type Rate = { name: string; opsPerSecond: number };

export function measure(name: string, fn: (i: number) => unknown, seconds = 1): Rate {
  // Warm up so the JIT has compiled the hot path before timing.
  for (let i = 0; i < 2000; i++) fn(i);
  let ops = 0;
  let sink: unknown;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 200; i++) sink = fn(ops + i);
    ops += 200;
    elapsed = process.hrtime.bigint() - start;
  }
  if (sink === Symbol.for("never")) console.log(sink);
  return { name, opsPerSecond: ops / (Number(elapsed) / 1e9) };
}

export const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
