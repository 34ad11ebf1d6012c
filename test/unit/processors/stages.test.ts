import test from "ava";
import {
  batchBy,
  buffer,
  mapBatches,
  pipe,
  type StageObserver,
  withMetrics,
} from "../../../processors/stages.ts";

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** Yields each item after `delayMs`; records how many were pulled and whether it was closed. */
function timed<T>(items: readonly [delayMs: number, item: T][]) {
  const state = { closed: false, pulled: 0 };
  async function* gen(): AsyncGenerator<T> {
    try {
      for (const [delay, item] of items) {
        await new Promise((r) => setTimeout(r, delay));
        state.pulled++;
        yield item;
      }
    } finally {
      state.closed = true;
    }
  }
  return { source: gen(), state };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

test("batchBy cuts at maxSize and flushes the remainder at the end", async (t) => {
  const out = await collect(pipe(from([1, 2, 3, 4, 5, 6, 7]), batchBy({ maxSize: 3, maxMs: 10_000 })));
  t.deepEqual(out, [[1, 2, 3], [4, 5, 6], [7]]);
  t.deepEqual(await collect(pipe(from<number>([]), batchBy({ maxSize: 3, maxMs: 10 }))), []);
});

test("batchBy emits a partial batch maxMs after its first item", async (t) => {
  // Item 3 is held back until the first batch is out (or 2 s, which would make the batch [1, 2, 3]).
  let releaseThird: () => void = () => {};
  const third = new Promise<void>((resolve) => {
    releaseThird = resolve;
    setTimeout(resolve, 2000);
  });
  async function* source(): AsyncGenerator<number> {
    yield 1;
    yield 2;
    await third;
    yield 3;
  }
  const batches: number[][] = [];
  for await (const b of pipe(source(), batchBy<number>({ maxSize: 10, maxMs: 20 }))) {
    batches.push(b);
    releaseThird();
  }
  t.deepEqual(batches, [[1, 2], [3]]);
});

test("batchBy closes its source when the consumer stops early", async (t) => {
  const { source, state } = timed([
    [0, 1],
    [0, 2],
    [0, 3],
    [0, 4],
  ]);
  for await (const b of pipe(source, batchBy<number>({ maxSize: 2, maxMs: 1000 }))) {
    t.deepEqual(b, [1, 2]);
    break;
  }
  t.true(state.closed);
  t.is(state.pulled, 2);
});

test("buffer lets the source run ahead by at most n items, in order, and passes errors on", async (t) => {
  const { source, state } = timed(Array.from({ length: 10 }, (_, i) => [0, i] as [number, number]));
  const it = pipe(source, buffer<number>(3))[Symbol.asyncIterator]();
  t.deepEqual(await it.next(), { done: false, value: 0 });
  // one handed over + 3 buffered, then the pump waits for room (and stays there)
  for (let i = 0; i < 200 && state.pulled < 4; i++) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 20));
  t.is(state.pulled, 4);
  const rest: number[] = [];
  for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
  t.deepEqual(rest, [1, 2, 3, 4, 5, 6, 7, 8, 9]);

  async function* failing(): AsyncGenerator<number> {
    yield 1;
    throw new Error("source broke");
  }
  const seen: number[] = [];
  await t.throwsAsync(
    async () => {
      for await (const x of pipe(failing(), buffer<number>(2))) seen.push(x);
    },
    { message: "source broke" },
  );
  t.deepEqual(seen, [1]);
});

test("mapBatches applies an async function in order; withMetrics counts outputs and items", async (t) => {
  const calls: string[] = [];
  const observer: StageObserver = {
    items: (stage, n) => calls.push(`${stage}:${n}`),
    seconds: (stage, s) => t.true(s >= 0 && Number.isFinite(s), stage),
  };
  const out = await collect(
    pipe(
      from([1, 2, 3, 4, 5]),
      batchBy<number>({ maxSize: 2, maxMs: 1000 }),
      withMetrics(
        "batch",
        mapBatches(async (b: number[]) => b.reduce((a, x) => a + x, 0)),
        observer,
      ),
    ),
  );
  t.deepEqual(out, [3, 7, 5]);
  t.deepEqual(calls, ["batch:1", "batch:1", "batch:1"]);

  const counted: string[] = [];
  await collect(
    pipe(
      from([1, 2, 3]),
      withMetrics(
        "batchBy",
        batchBy<number>({ maxSize: 2, maxMs: 1000 }),
        {
          items: (s, n) => counted.push(`${s}:${n}`),
          seconds: () => {},
        },
        (b) => b.length,
      ),
    ),
  );
  t.deepEqual(counted, ["batchBy:2", "batchBy:1"]);
});
