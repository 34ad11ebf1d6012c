import test from "ava";
import { createMemoryBus } from "../../../../infra/bus/memory.ts";
import { partitionOf } from "../../../../infra/bus/partition.ts";
import type { Batch, Topic } from "../../../../infra/bus/types.ts";
import { NonRetryableError, RetryableError } from "../../../../infra/errors.ts";

type Value = { n: number; big: bigint };
const topic: Topic<Value> = {
  name: "t.test",
  codec: {
    encode: (v) => JSON.stringify({ n: v.n, big: v.big.toString() }),
    decode: (s) => {
      const o = JSON.parse(s) as { n: number; big: string };
      return { n: o.n, big: BigInt(o.big) };
    },
  },
};
const rec = (key: string, n: number) => ({ key, value: { n, big: 2n ** 70n + BigInt(n) } });
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 1));
  }
}

test("per-key order holds, keys map to Kafka partitions, values round-trip through the codec", async (t) => {
  const bus = createMemoryBus({ partitions: 4 });
  const keys = ["0:AA", "0:BB", "0:CC", "0:DD", "0:EE"];
  const records = Array.from({ length: 100 }, (_, i) => rec(keys[i % keys.length] as string, i));
  await bus.produce(topic, records);
  const seen: Batch<Value>[] = [];
  const consumer = bus.consume(topic, "g", async (b) => void seen.push(b), { maxBatch: 7, maxWaitMs: 0 });
  await until(() => seen.reduce((s, b) => s + b.records.length, 0) === 100);
  await consumer.stop();
  for (const b of seen) {
    t.true(b.records.length >= 1 && b.records.length <= 7);
    for (const r of b.records) t.is(r.partition, partitionOf(r.key, 4));
    t.is(b.nextOffset, (b.records.at(-1)?.offset ?? -1n) + 1n);
  }
  for (const key of keys) {
    const ns = seen.flatMap((b) => b.records.filter((r) => r.key === key).map((r) => r.value.n));
    t.deepEqual(
      ns,
      records.filter((r) => r.key === key).map((r) => r.value.n),
    );
  }
  const first = seen.flatMap((b) => b.records).find((r) => r.value.n === 3);
  t.deepEqual(first?.value, { n: 3, big: 1180591620717411303427n });
  await bus.close();
});

test("produce waits when a partition is full and resumes as the consumer commits", async (t) => {
  const bus = createMemoryBus({ partitions: 1, capacity: 3 });
  let resolved = false;
  const producing = bus
    .produce(
      topic,
      [1, 2, 3, 4, 5].map((n) => rec("k", n)),
    )
    .then(() => {
      resolved = true;
    });
  await tick();
  await tick();
  t.false(resolved, "5 records into a capacity of 3 must wait");
  const got: number[] = [];
  const consumer = bus.consume(topic, "g", async (b) => void got.push(...b.records.map((r) => r.value.n)), {
    maxBatch: 2,
    maxWaitMs: 0,
  });
  await producing;
  t.true(resolved);
  await until(() => got.length === 5);
  t.deepEqual(got, [1, 2, 3, 4, 5]);
  await consumer.stop();
  await bus.close();
});

test("offsets are committed only after the handler resolves: a stopped consumer's unfinished batch is re-delivered", async (t) => {
  const bus = createMemoryBus({ partitions: 1 });
  await bus.produce(
    topic,
    [1, 2, 3, 4].map((n) => rec("k", n)),
  );
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const first: number[][] = [];
  const c1 = bus.consume(
    topic,
    "g",
    async (b) => {
      first.push(b.records.map((r) => r.value.n));
      if (first.length === 2) {
        await gate; // the second batch is in flight when we stop
        throw new NonRetryableError("crash before ack");
      }
    },
    { maxBatch: 2, maxWaitMs: 0 },
  );
  await until(() => first.length === 2);
  const stopping = c1.stop();
  release();
  await stopping;
  await t.throwsAsync(c1.done, { message: "crash before ack" });
  t.deepEqual(first, [
    [1, 2],
    [3, 4],
  ]);
  const second: number[][] = [];
  const c2 = bus.consume(topic, "g", async (b) => void second.push(b.records.map((r) => r.value.n)), {
    maxBatch: 10,
    maxWaitMs: 0,
  });
  await until(() => second.length === 1);
  await c2.stop();
  await c2.done;
  t.deepEqual(second, [[3, 4]], "the committed batch is not delivered again, the failed one is");
  await bus.close();
});

test("a retryable handler failure re-delivers the same batch; a non-retryable one stops the consumer", async (t) => {
  const bus = createMemoryBus({ partitions: 1 });
  await bus.produce(
    topic,
    [1, 2].map((n) => rec("k", n)),
  );
  const calls: bigint[][] = [];
  const c = bus.consume(
    topic,
    "g",
    async (b) => {
      calls.push(b.records.map((r) => r.offset));
      if (calls.length <= 2) throw new RetryableError("store unavailable");
    },
    { maxBatch: 5, maxWaitMs: 0, retries: 2, retryDelayMs: 0 },
  );
  await until(() => calls.length === 3);
  await c.stop();
  await c.done;
  t.deepEqual(calls, [
    [0n, 1n],
    [0n, 1n],
    [0n, 1n],
  ]);

  await bus.produce(topic, [rec("k", 3)]);
  let count = 0;
  const bad = bus.consume(
    topic,
    "g",
    async () => {
      count++;
      throw new NonRetryableError("bug");
    },
    { maxBatch: 5, maxWaitMs: 0, retries: 5, retryDelayMs: 0 },
  );
  await t.throwsAsync(bad.done, { message: "bug" });
  t.is(count, 1, "non-retryable errors are not retried");
  await bus.close();
});

test("a batch waits up to maxWaitMs to fill, and maxBatch bounds it", async (t) => {
  const bus = createMemoryBus({ partitions: 1 });
  const sizes: number[] = [];
  const c = bus.consume(topic, "g", async (b) => void sizes.push(b.records.length), {
    maxBatch: 3,
    maxWaitMs: 500,
  });
  await bus.produce(topic, [rec("k", 1)]);
  await new Promise((r) => setTimeout(r, 20));
  await bus.produce(topic, [rec("k", 2), rec("k", 3), rec("k", 4)]);
  await until(() => sizes.reduce((a, b) => a + b, 0) === 4);
  await c.stop();
  t.deepEqual(sizes, [3, 1], "the first record waited for two more instead of leaving alone");
  await bus.close();
});

test("clean shutdown: stop waits for the batch in flight and commits it; close rejects blocked producers", async (t) => {
  const bus = createMemoryBus({ partitions: 1, capacity: 2 });
  await bus.produce(topic, [rec("k", 1), rec("k", 2)]);
  let finished = false;
  let started = false;
  const c = bus.consume(
    topic,
    "g",
    async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 30));
      finished = true;
    },
    { maxBatch: 2, maxWaitMs: 0 },
  );
  await until(() => started);
  await c.stop();
  t.true(finished, "stop resolved only after the handler finished");
  await c.done;
  const again: number[] = [];
  const c2 = bus.consume(topic, "g", async (b) => void again.push(...b.records.map((r) => r.value.n)), {
    maxBatch: 2,
    maxWaitMs: 0,
  });
  await bus.produce(topic, [rec("k", 3)]);
  await until(() => again.length > 0);
  await c2.stop();
  t.deepEqual(again, [3], "the in-flight batch (1, 2) was committed on the way out");

  await bus.produce(topic, [rec("k", 4), rec("k", 5)]);
  const blocked = bus.produce(topic, [rec("k", 6)]);
  await bus.close();
  await t.throwsAsync(blocked, { message: /bus closed/ });
  t.throws(() => bus.consume(topic, "g2", async () => {}, { maxBatch: 1, maxWaitMs: 0 }), {
    message: "bus closed",
  });
});

test("one consumer per group; other groups read the same records independently", async (t) => {
  const bus = createMemoryBus({ partitions: 2 });
  await bus.produce(topic, [rec("a", 1), rec("b", 2)]);
  const a: number[] = [];
  const b: number[] = [];
  const ca = bus.consume(topic, "ga", async (x) => void a.push(...x.records.map((r) => r.value.n)), {
    maxBatch: 10,
    maxWaitMs: 0,
  });
  t.throws(() => bus.consume(topic, "ga", async () => {}, { maxBatch: 1, maxWaitMs: 0 }), {
    message: /already has a consumer/,
  });
  const cb = bus.consume(topic, "gb", async (x) => void b.push(...x.records.map((r) => r.value.n)), {
    maxBatch: 10,
    maxWaitMs: 0,
  });
  await until(() => a.length === 2 && b.length === 2);
  t.deepEqual(
    a.sort((x, y) => x - y),
    [1, 2],
  );
  t.deepEqual(
    b.sort((x, y) => x - y),
    [1, 2],
  );
  await ca.stop();
  await cb.stop();
  await bus.close();
});

test("concurrency runs partitions side by side, each still in order", async (t) => {
  const bus = createMemoryBus({ partitions: 2 });
  // "a" and "d" land on different partitions of 2 (0 and 1).
  t.deepEqual([partitionOf("a", 2), partitionOf("d", 2)], [0, 1]);
  await bus.produce(
    topic,
    [1, 2, 3, 4, 5, 6].map((n) => rec(n % 2 ? "a" : "d", n)),
  );
  let running = 0;
  let maxRunning = 0;
  const got: Record<string, number[]> = { a: [], d: [] };
  const c = bus.consume(
    topic,
    "g",
    async (b) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 5));
      for (const r of b.records) got[r.key]?.push(r.value.n);
      running--;
    },
    { maxBatch: 1, maxWaitMs: 0, concurrency: 2 },
  );
  await until(() => (got.a?.length ?? 0) + (got.d?.length ?? 0) === 6);
  await c.stop();
  t.is(maxRunning, 2);
  t.deepEqual(got, { a: [1, 3, 5], d: [2, 4, 6] });
  await bus.close();
});

test("a staged handler prepares the next batch while the previous one sinks; sinks and commits stay in order", async (t) => {
  const bus = createMemoryBus({ partitions: 1 });
  await bus.produce(
    topic,
    [1, 2, 3, 4, 5, 6].map((n) => rec("k", n)),
  );
  const events: string[] = [];
  const releases: (() => void)[] = [];
  const first = (b: Batch<Value>) => b.records[0]!.value.n;
  const c = bus.consume(
    topic,
    "g",
    {
      async prepare(b) {
        events.push(`prepare ${first(b)}`);
        return first(b) * 10;
      },
      async sink(b, prepared) {
        t.is(prepared, first(b) * 10, "sink gets what prepare returned");
        events.push(`sink ${first(b)}`);
        await new Promise<void>((r) => releases.push(r));
        events.push(`sunk ${first(b)}`);
      },
    },
    { maxBatch: 2, maxWaitMs: 0 },
  );
  await until(() => events.includes("prepare 3"));
  await tick();
  // Batch 3 is prepared while batch 1 still sinks, and no further: one sink ahead at most.
  t.deepEqual(events, ["prepare 1", "sink 1", "prepare 3"]);
  releases.shift()!();
  await until(() => events.includes("sink 3"));
  await until(() => events.includes("prepare 5"));
  releases.shift()!();
  await until(() => events.includes("sink 5"));
  releases.shift()!();
  await until(() => events.includes("sunk 5"));
  await c.stop();
  await c.done;
  t.deepEqual(events, [
    "prepare 1",
    "sink 1",
    "prepare 3",
    "sunk 1",
    "sink 3",
    "prepare 5",
    "sunk 3",
    "sink 5",
    "sunk 5",
  ]);
  // Everything was committed: a new consumer of the group gets only new records.
  await bus.produce(topic, [rec("k", 7)]);
  const again: number[] = [];
  const c2 = bus.consume(topic, "g", async (b) => void again.push(...b.records.map((r) => r.value.n)), {
    maxBatch: 10,
    maxWaitMs: 0,
  });
  await until(() => again.length > 0);
  await c2.stop();
  t.deepEqual(again, [7]);
  await bus.close();
});

test("a failed sink: the batch prepared behind it is never sunk, and neither is committed", async (t) => {
  const bus = createMemoryBus({ partitions: 1 });
  await bus.produce(
    topic,
    [1, 2, 3, 4].map((n) => rec("k", n)),
  );
  const sunk: number[] = [];
  const prepared: number[] = [];
  let fail: (e: Error) => void = () => {};
  const c = bus.consume(
    topic,
    "g",
    {
      async prepare(b) {
        prepared.push(b.records[0]!.value.n);
      },
      async sink(b) {
        if (b.records[0]!.value.n === 1) await new Promise<void>((_, reject) => (fail = reject));
        sunk.push(b.records[0]!.value.n);
      },
    },
    { maxBatch: 2, maxWaitMs: 0 },
  );
  await until(() => prepared.length === 2);
  fail(new NonRetryableError("store down"));
  await t.throwsAsync(c.done, { message: "store down" });
  t.deepEqual(prepared, [1, 3]);
  t.deepEqual(sunk, [], "batch 3 was prepared but not sunk after batch 1 failed");
  const again: number[] = [];
  const c2 = bus.consume(topic, "g", async (b) => void again.push(...b.records.map((r) => r.value.n)), {
    maxBatch: 10,
    maxWaitMs: 0,
  });
  await until(() => again.length === 4);
  await c2.stop();
  t.deepEqual(again, [1, 2, 3, 4], "nothing was committed");
  await bus.close();
});

test("a retryable sink failure re-delivers from the last commit, in order", async (t) => {
  const bus = createMemoryBus({ partitions: 1 });
  await bus.produce(
    topic,
    [1, 2, 3, 4].map((n) => rec("k", n)),
  );
  const sunk: number[] = [];
  let failures = 0;
  const c = bus.consume(
    topic,
    "g",
    {
      async prepare(b) {
        return b.records.map((r) => r.value.n);
      },
      async sink(_b, ns: number[]) {
        if (ns[0] === 3 && failures++ === 0) throw new RetryableError("blip");
        sunk.push(...ns);
      },
    },
    { maxBatch: 2, maxWaitMs: 0, retries: 1, retryDelayMs: 0 },
  );
  await until(() => sunk.length === 4);
  await c.stop();
  await c.done;
  t.deepEqual(sunk, [1, 2, 3, 4]);
  t.is(failures, 2);
  await bus.close();
});
