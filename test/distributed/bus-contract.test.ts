/**
 * One contract, two buses: the in-process bus and the Kafka bus (infra/bus/kafka.ts against a real Kafka
 * 3.9 broker that this file starts through infra/servers/infra.sh) must behave alike for everything the
 * processors rely on: per-key order and Kafka's key → partition mapping, values through the topic codec,
 * commits only after the handler (re-delivery of what was not committed), retries of retryable failures,
 * stop after the batch in flight, staged handlers sinking and committing in order, independent groups.
 * Kafka alone: several consumers of one group split the partitions, each record handled once.
 */
import { Writable } from "node:stream";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import kafkajs, { type Admin, Kafka, type KafkaConfig } from "kafkajs";
import { createKafkaBus } from "../../infra/bus/kafka.ts";
import { createMemoryBus } from "../../infra/bus/memory.ts";
import { partitionOf } from "../../infra/bus/partition.ts";
import type { Batch, Bus, Topic } from "../../infra/bus/types.ts";
import { NonRetryableError, RetryableError } from "../../infra/errors.ts";
import { createLogger } from "../../infra/log.ts";
import { guid, startServers, until } from "./servers.ts";

type Value = { n: number; big: bigint };
type Impl = { name: "memory" | "kafka"; make(partitions: number): Bus };
const test = anyTest as TestFn<{ kafkaBrokers: string }>;

test.before(async (t) => {
  const env = await startServers(["kafka"]);
  t.context.kafkaBrokers = env.kafkaBrokers;
});

const impls = (t: ExecutionContext<{ kafkaBrokers: string }>): Impl[] => [
  { name: "memory", make: (partitions) => createMemoryBus({ partitions }) },
  {
    name: "kafka",
    make: (partitions) =>
      createKafkaBus({ brokers: [t.context.kafkaBrokers], partitions, sessionTimeoutMs: 10_000 }),
  },
];

const topicOf = (): Topic<Value> => ({
  name: guid(),
  codec: {
    encode: (v) => JSON.stringify({ n: v.n, big: v.big.toString() }),
    decode: (s) => {
      const o = JSON.parse(s) as { n: number; big: string };
      return { n: o.n, big: BigInt(o.big) };
    },
  },
});
const rec = (key: string, n: number) => ({ key, value: { n, big: 2n ** 70n + BigInt(n) } });
const ns = (b: Batch<Value>) => b.records.map((r) => r.value.n);

/** Registers `body` once per implementation, as "<title> [memory]" and "<title> [kafka]". */
function contract(
  title: string,
  body: (t: ExecutionContext<{ kafkaBrokers: string }>, impl: Impl) => Promise<void>,
) {
  for (const name of ["memory", "kafka"] as const) {
    test(`${title} [${name}]`, async (t) => {
      const impl = impls(t).find((i) => i.name === name) as Impl;
      await body(t, impl);
    });
  }
}

contract("per-key order, Kafka's key → partition mapping, values through the codec", async (t, impl) => {
  const bus = impl.make(4);
  t.teardown(() => bus.close());
  const topic = topicOf();
  const keys = ["0:AA", "0:BB", "0:CC", "0:DD", "0:EE"];
  const records = Array.from({ length: 100 }, (_, i) => rec(keys[i % keys.length] as string, i));
  await bus.produce(topic, records.slice(0, 50));
  await bus.produce(topic, records.slice(50));
  const seen: Batch<Value>[] = [];
  const consumer = bus.consume(topic, guid(), async (b) => void seen.push(b), { maxBatch: 7, maxWaitMs: 10 });
  await until(() => seen.reduce((s, b) => s + b.records.length, 0) === 100);
  await consumer.stop();
  for (const b of seen) {
    t.true(b.records.length >= 1 && b.records.length <= 7);
    for (const r of b.records) t.is(r.partition, partitionOf(r.key, 4));
    t.is(b.nextOffset, (b.records.at(-1)?.offset ?? -1n) + 1n);
  }
  for (const key of keys) {
    t.deepEqual(
      seen.flatMap((b) => b.records.filter((r) => r.key === key).map((r) => r.value.n)),
      records.filter((r) => r.key === key).map((r) => r.value.n),
    );
  }
  t.deepEqual(seen.flatMap((b) => b.records).find((r) => r.value.n === 3)?.value, {
    n: 3,
    big: 1180591620717411303427n,
  });
});

contract(
  "offsets are committed only after the handler: a failed batch comes again, a committed one never",
  async (t, impl) => {
    const bus = impl.make(1);
    t.teardown(() => bus.close());
    const topic = topicOf();
    const group = guid();
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
      group,
      async (b) => {
        first.push(ns(b));
        if (first.length === 2) {
          await gate;
          throw new NonRetryableError("crash before ack");
        }
      },
      { maxBatch: 2, maxWaitMs: 10 },
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
    const c2 = bus.consume(topic, group, async (b) => void second.push(ns(b)), {
      maxBatch: 10,
      maxWaitMs: 10,
    });
    await until(() => second.length === 1);
    await c2.stop();
    await c2.done;
    t.deepEqual(second, [[3, 4]]);
  },
);

contract(
  "a retryable failure delivers the same batch again; a non-retryable one ends the consumer",
  async (t, impl) => {
    const bus = impl.make(1);
    t.teardown(() => bus.close());
    const topic = topicOf();
    const group = guid();
    await bus.produce(
      topic,
      [1, 2].map((n) => rec("k", n)),
    );
    const calls: bigint[][] = [];
    const c = bus.consume(
      topic,
      group,
      async (b) => {
        calls.push(b.records.map((r) => r.offset));
        if (calls.length <= 2) throw new RetryableError("store unavailable");
      },
      { maxBatch: 5, maxWaitMs: 10, retries: 2, retryDelayMs: 0 },
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
      group,
      async () => {
        count++;
        throw new NonRetryableError("bug");
      },
      { maxBatch: 5, maxWaitMs: 10, retries: 5, retryDelayMs: 0 },
    );
    await t.throwsAsync(bad.done, { message: "bug" });
    t.is(count, 1);
  },
);

contract("stop waits for the batch in flight and commits it", async (t, impl) => {
  const bus = impl.make(1);
  t.teardown(() => bus.close());
  const topic = topicOf();
  const group = guid();
  await bus.produce(topic, [rec("k", 1), rec("k", 2)]);
  let started = false;
  let finished = false;
  const c = bus.consume(
    topic,
    group,
    async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 50));
      finished = true;
    },
    { maxBatch: 2, maxWaitMs: 10 },
  );
  await until(() => started);
  await c.stop();
  t.true(finished);
  await c.done;
  await bus.produce(topic, [rec("k", 3)]);
  const again: number[] = [];
  const c2 = bus.consume(topic, group, async (b) => void again.push(...ns(b)), {
    maxBatch: 2,
    maxWaitMs: 10,
  });
  await until(() => again.length > 0);
  await c2.stop();
  t.deepEqual(again, [3]);
});

contract(
  "a staged handler sinks and commits in order; nothing after a failed sink is sunk or committed",
  async (t, impl) => {
    const bus = impl.make(1);
    t.teardown(() => bus.close());
    const topic = topicOf();
    const group = guid();
    await bus.produce(
      topic,
      [1, 2, 3, 4, 5, 6].map((n) => rec("k", n)),
    );
    const sunk: number[][] = [];
    const c1 = bus.consume<Value, number[]>(
      topic,
      group,
      {
        prepare: async (b) => ns(b),
        async sink(_b, prepared) {
          if (prepared[0] === 3) throw new NonRetryableError("insert failed");
          await new Promise((r) => setTimeout(r, 5));
          sunk.push(prepared);
        },
      },
      { maxBatch: 2, maxWaitMs: 10 },
    );
    await t.throwsAsync(c1.done, { message: "insert failed" });
    t.deepEqual(sunk, [[1, 2]]);
    const rest: number[][] = [];
    const c2 = bus.consume<Value, number[]>(
      topic,
      group,
      { prepare: async (b) => ns(b), sink: async (_b, p) => void rest.push(p) },
      { maxBatch: 2, maxWaitMs: 10 },
    );
    await until(() => rest.flat().length === 4);
    await c2.stop();
    t.deepEqual(rest, [
      [3, 4],
      [5, 6],
    ]);
  },
);

contract("groups read the same records independently", async (t, impl) => {
  const bus = impl.make(2);
  t.teardown(() => bus.close());
  const topic = topicOf();
  await bus.produce(topic, [rec("a", 1), rec("b", 2)]);
  const a: number[] = [];
  const b: number[] = [];
  const ca = bus.consume(topic, guid(), async (x) => void a.push(...ns(x)), { maxBatch: 10, maxWaitMs: 10 });
  const cb = bus.consume(topic, guid(), async (x) => void b.push(...ns(x)), { maxBatch: 10, maxWaitMs: 10 });
  await until(() => a.length === 2 && b.length === 2);
  await ca.stop();
  await cb.stop();
  t.deepEqual(
    a.sort((x, y) => x - y),
    [1, 2],
  );
  t.deepEqual(
    b.sort((x, y) => x - y),
    [1, 2],
  );
});

test("kafka: two consumers of one group split the partitions; every record is handled exactly once", async (t) => {
  const bus = createKafkaBus({ brokers: [t.context.kafkaBrokers], partitions: 4, sessionTimeoutMs: 10_000 });
  t.teardown(() => bus.close());
  const topic = topicOf();
  const group = guid();
  const seen = [new Map<number, number>(), new Map<number, number>()];
  const partitionsOf = [new Set<number>(), new Set<number>()];
  const consumers = [0, 1].map((i) =>
    bus.consume(
      topic,
      group,
      async (b) => {
        partitionsOf[i]?.add(b.partition);
        for (const n of ns(b)) seen[i]?.set(n, (seen[i]?.get(n) ?? 0) + 1);
      },
      { maxBatch: 50, maxWaitMs: 10 },
    ),
  );
  // Both members joined (a rebalance after the second join hands it partitions).
  await new Promise((r) => setTimeout(r, 4_000));
  const records = Array.from({ length: 400 }, (_, i) =>
    rec(`0:${(i % 40).toString(16).padStart(4, "0")}`, i),
  );
  await bus.produce(topic, records);
  await until(() => (seen[0]?.size ?? 0) + (seen[1]?.size ?? 0) >= 400);
  for (const c of consumers) await c.stop();
  const counts = new Map<number, number>();
  for (const m of seen) for (const [n, c] of m) counts.set(n, (counts.get(n) ?? 0) + c);
  t.is(counts.size, 400);
  t.true([...counts.values()].every((c) => c === 1));
  t.true(
    (partitionsOf[0]?.size ?? 0) > 0 && (partitionsOf[1]?.size ?? 0) > 0,
    "both replicas got partitions",
  );
  t.is([...(partitionsOf[0] ?? [])].filter((p) => partitionsOf[1]?.has(p)).length, 0);
});

/** Values of about 2 kB on the wire, as a raw transaction's JSON is (`topicOf`'s, padded; decode ignores it). */
const paddedTopicOf = (): Topic<Value> => {
  const topic = topicOf();
  const pad = `,"pad":"${"x".repeat(2_000)}"}`;
  return { ...topic, codec: { ...topic.codec, encode: (v) => topic.codec.encode(v).replace(/\}$/, pad) } };
};

test("kafka: a backlog is delivered in batches of maxBatch records, not cut at kafkajs's 1 MiB fetch", async (t) => {
  const bus = createKafkaBus({ brokers: [t.context.kafkaBrokers], partitions: 1, sessionTimeoutMs: 10_000 });
  t.teardown(() => bus.close());
  const topic = paddedTopicOf();
  // 3,000 records of ~2 kB: 6 MB waiting, six of kafkajs's default fetches.
  await bus.produce(
    topic,
    Array.from({ length: 3_000 }, (_, i) => rec("0:AA", i)),
  );
  const sizes: number[] = [];
  const consumer = bus.consume(topic, guid(), async (b) => void sizes.push(b.records.length), {
    maxBatch: 1_000,
    maxWaitMs: 10,
  });
  await until(() => sizes.reduce((a, b) => a + b, 0) === 3_000);
  await consumer.stop();
  t.deepEqual(sizes, [1_000, 1_000, 1_000]);
});

test("kafka: a batch that takes longer than the session timeout keeps its consumer in the group (handled once)", async (t) => {
  // 6 s: the broker's least session timeout (group.min.session.timeout.ms).
  const bus = createKafkaBus({ brokers: [t.context.kafkaBrokers], partitions: 1, sessionTimeoutMs: 6_000 });
  t.teardown(() => bus.close());
  const topic = topicOf();
  await bus.produce(
    topic,
    Array.from({ length: 20 }, (_, i) => rec("0:AA", i)),
  );
  const handled: number[] = [];
  const consumer = bus.consume(
    topic,
    guid(),
    async (b) => {
      // The first batch takes 9 s: without heartbeats while it runs, the group drops this consumer and
      // its commit fails, so the batch is handled again.
      if (handled.length === 0) await new Promise((r) => setTimeout(r, 9_000));
      handled.push(...ns(b));
    },
    { maxBatch: 10, maxWaitMs: 10 },
  );
  await until(() => handled.length >= 20, 60_000);
  // Time for a re-delivery to show, had the first batch's commit been refused.
  await new Promise((r) => setTimeout(r, 2_000));
  await consumer.stop();
  t.deepEqual(
    handled,
    Array.from({ length: 20 }, (_, i) => i),
  );
});

// kafkajs is CommonJS and spreads its error classes into its exports, which Node cannot name statically.
const { KafkaJSProtocolError } = kafkajs as unknown as {
  KafkaJSProtocolError: new (e: { type: string; code: number; retriable: boolean; message: string }) => Error;
};
type CreateTopics = Admin["createTopics"];
/** The real Kafka client, its admins' createTopics replaced by `wrap(the real one)`. */
const withCreateTopics =
  (wrap: (real: CreateTopics) => CreateTopics) =>
  (config: KafkaConfig): Kafka => {
    const kafka = new Kafka(config);
    const adminOf = kafka.admin.bind(kafka);
    kafka.admin = (adminConfig) => {
      const admin = adminOf(adminConfig);
      admin.createTopics = wrap(admin.createTopics.bind(admin));
      return admin;
    };
    return kafka;
  };

test("kafka: a replica starting while another creates the topic waits until the brokers serve it", async (t) => {
  // Replicas starting together on a fresh deployment: one creates the topic, the others are told it
  // exists while the brokers do not serve its metadata yet (a metadata request answers
  // UNKNOWN_TOPIC_OR_PARTITION). Played here by a bus whose createTopics answers "exists" and creates
  // nothing; the other bus creates the topic 2 s later, and its own request's metadata check meets the
  // same lag (played: the topic is created, then the request fails as kafkajs fails it then).
  const topic = topicOf();
  let creations = 0;
  const laggingKafka = withCreateTopics((createTopics) => async (request) => {
    if (creations++ > 0) return createTopics(request);
    await createTopics({ ...request, waitForLeaders: false });
    // As kafkajs builds it from the broker's error code 3 (kafkajs/src/protocol/error.js).
    throw new KafkaJSProtocolError({
      type: "UNKNOWN_TOPIC_OR_PARTITION",
      code: 3,
      retriable: true,
      message: "This server does not host this topic-partition",
    });
  });
  let toldExists = 0;
  const lateKafka = withCreateTopics(() => async () => {
    toldExists++;
    return false;
  });
  const options = { brokers: [t.context.kafkaBrokers], partitions: 1, sessionTimeoutMs: 10_000 };
  const late = createKafkaBus(options, lateKafka);
  t.teardown(() => late.close());
  const seen: number[] = [];
  const consumer = late.consume(topic, guid(), async (b) => void seen.push(...ns(b)), {
    maxBatch: 20,
    maxWaitMs: 10,
  });
  await new Promise((r) => setTimeout(r, 2_000));
  const creator = createKafkaBus(options, laggingKafka);
  t.teardown(() => creator.close());
  await creator.produce(
    topic,
    [1, 2, 3].map((n) => rec("0:0000", n)),
  );
  await until(() => seen.length === 3, 30_000);
  await consumer.stop();
  await t.notThrowsAsync(consumer.done);
  t.is(toldExists, 1);
  t.is(creations, 2, "the creating bus asked again after its request's metadata check failed");
  t.deepEqual(seen, [1, 2, 3]);
});

/** A consumer group as the broker describes it: its state and each member's assigned partitions. */
async function groupState(brokers: string, group: string): Promise<string> {
  const admin = new Kafka({ brokers: [brokers], logLevel: kafkajs.logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const { groups } = await admin.describeGroups([group]);
    return JSON.stringify(
      groups.map((g) => ({
        state: g.state,
        members: g.members.map((m) => ({
          id: m.memberId,
          host: m.clientHost,
          partitions:
            kafkajs.AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? null,
        })),
      })),
    );
  } catch (error) {
    return `not described (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

test("kafka: replicas of one group stopping at once, a batch in flight, end cleanly; the next consumer reads on from their commits", async (t) => {
  // As `tondex process` replicas on SIGTERM: each its own client, one partition, all stopping together
  // (the group rebalances under the members still leaving). Three rounds, each stopped mid-flow.
  const options = { brokers: [t.context.kafkaBrokers], partitions: 1, sessionTimeoutMs: 10_000 };
  const producer = createKafkaBus(options);
  t.teardown(() => producer.close());
  const topic = topicOf();
  const group = guid();
  const seen = new Map<number, number>();
  const handle = async (b: Batch<Value>) => {
    for (const n of ns(b)) seen.set(n, (seen.get(n) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 5)); // a batch takes a while, so a stop finds one in flight
  };
  const perRound = 600;
  for (let round = 0; round < 3; round++) {
    const buses = [createKafkaBus(options), createKafkaBus(options)];
    const consumers = buses.map((bus) => bus.consume(topic, group, handle, { maxBatch: 20, maxWaitMs: 10 }));
    await producer.produce(
      topic,
      Array.from({ length: perRound }, (_, i) => rec("0:0000", round * perRound + i)),
    );
    await until(() => seen.size >= round * perRound + perRound / 3, 60_000);
    await Promise.all(consumers.map((c) => c.stop()));
    for (const [i, c] of consumers.entries()) {
      await t.notThrowsAsync(c.done, `round ${round}: consumer ${i} ends cleanly`);
    }
    await Promise.all(buses.map((bus) => bus.close()));
  }
  // The group's next consumer starts at the last commit: everything is read, what was committed once.
  const last = createKafkaBus(options);
  t.teardown(() => last.close());
  const consumer = last.consume(topic, group, handle, { maxBatch: 20, maxWaitMs: 10 });
  // A consumer that fails ends the wait with its own error; a wait that times out says what the group
  // looked like (members and their partitions) when it gave up.
  await Promise.race([
    consumer.done.then(() => {
      throw new Error("the group's next consumer ended before it read everything");
    }),
    until(() => seen.size === 3 * perRound, 60_000).catch(async (error: unknown) => {
      throw new Error(
        `read ${seen.size} of ${3 * perRound} records in 60 s; the group: ${await groupState(t.context.kafkaBrokers, group)}`,
        { cause: error },
      );
    }),
  ]);
  await consumer.stop();
  await t.notThrowsAsync(consumer.done);
  t.deepEqual(
    [...seen.keys()].sort((a, b) => a - b),
    Array.from({ length: 3 * perRound }, (_, i) => i),
  );
  // At-least-once: a record is read again only if its batch was not committed when its reader stopped,
  // at most one batch (20 records) per stop.
  const repeated = [...seen.values()].filter((c) => c > 1).length;
  t.true(repeated <= 3 * 2 * 20, `${repeated} records read twice`);
});

test("kafka: a clean stop logs no error (the sockets the bus ends on close are its own doing)", async (t) => {
  // Before, every close logged "Connection error: the Kafka bus is closed" at error level, once per socket
  // the bus ended itself: a `tondex process` stopped by SIGTERM reported errors for a clean stop.
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger({
    level: "debug",
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)) as { level: number; msg: string });
        callback();
      },
    }),
  });
  const bus = createKafkaBus({
    brokers: [t.context.kafkaBrokers],
    partitions: 1,
    sessionTimeoutMs: 10_000,
    logger,
  });
  const topic = topicOf();
  await bus.produce(topic, [rec("0:0000", 1)]);
  let read = 0;
  const consumer = bus.consume(
    topic,
    guid(),
    async (b) => {
      read += b.records.length;
    },
    { maxBatch: 20, maxWaitMs: 10 },
  );
  await until(() => read === 1);
  // What is logged from the stop on (before it, the broker may have had its say: a consumer restarted by
  // kafkajs while the group coordinator loads logs "Crash: … The coordinator is loading", a real event).
  const stopping = lines.length;
  await bus.close();
  await t.notThrowsAsync(consumer.done);
  await new Promise((r) => setTimeout(r, 200)); // what the clients log as their sockets end
  const PINO_ERROR = 50;
  t.deepEqual(
    lines
      .slice(stopping)
      .filter((l) => l.level >= PINO_ERROR)
      .map((l) => l.msg),
    [],
  );
});
