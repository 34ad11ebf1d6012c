import test from "ava";
import { Prng } from "../../../../ingest/devnet/sim/prng.ts";

test("same seed, same stream; different seeds differ", (t) => {
  const a = new Prng(7);
  const b = new Prng(7);
  const c = new Prng(8);
  const xs = Array.from({ length: 100 }, () => a.uint32());
  t.deepEqual(
    Array.from({ length: 100 }, () => b.uint32()),
    xs,
  );
  t.notDeepEqual(
    Array.from({ length: 100 }, () => c.uint32()),
    xs,
  );
});

test("int, bigint and weighted stay in range and cover it", (t) => {
  const r = new Prng(1);
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const v = r.int(10);
    t.true(v >= 0 && v < 10);
    seen.add(v);
  }
  t.is(seen.size, 10);
  for (let i = 0; i < 500; i++) {
    const v = r.bigint(10n ** 30n, 10n ** 30n + 5n);
    t.true(v >= 10n ** 30n && v <= 10n ** 30n + 5n);
  }
  const counts = [0, 0, 0];
  for (let i = 0; i < 3000; i++) counts[r.weighted([1, 0, 2])]!++;
  t.is(counts[1], 0);
  t.true(counts[2]! > counts[0]!);
});

test("next() is in [0, 1) with a plausible mean", (t) => {
  const r = new Prng(123);
  let sum = 0;
  for (let i = 0; i < 10_000; i++) {
    const x = r.next();
    t.true(x >= 0 && x < 1);
    sum += x;
  }
  t.true(Math.abs(sum / 10_000 - 0.5) < 0.02);
});

test("bad arguments are refused with a clear error", (t) => {
  t.throws(() => new Prng(-1), { message: /seed/ });
  t.throws(() => new Prng(1).int(0), { message: /positive/ });
  t.throws(() => new Prng(1).pick([]), { message: /empty/ });
});
