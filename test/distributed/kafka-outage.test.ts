/**
 * A Kafka consumer outlives broker outages (infra/bus/kafka.ts), against a real Kafka broker that this file
 * starts through infra/servers/infra.sh. Every record produced before and after is handled, each once, in
 * order per key, and the consumer never fails.
 * - kafkajs sometimes gives a consumer up for good: when its restart after a lost connection asks for the
 *   group's coordinator in the moment the broker goes away ("Failed to find group coordinator", emitted with
 *   `restart: false`). That is a race no test can time, so one test plays it exactly as kafkajs does it
 *   (disconnect, then the crash event) and the bus must restart the consumer; an error that is not an
 *   outage still fails it.
 * - The other restarts the broker a few times, as an operator would.
 * Serial tests in a file of their own: it stops the broker other tests would be using.
 */
import { Writable } from "node:stream";
import test, { type ExecutionContext } from "ava";
import kafkajs, { Kafka, type KafkaConfig } from "kafkajs";
import { createKafkaBus } from "../../infra/bus/kafka.ts";
import type { Consumer, Topic } from "../../infra/bus/types.ts";
import { NonRetryableError } from "../../infra/errors.ts";
import { createLogger } from "../../infra/log.ts";
import { sleep } from "../../infra/retry.ts";
import { guid, infra, startServers, until } from "./servers.ts";

type Value = { n: number };
type CrashListener = (event: { payload: { error: Error; groupId: string; restart: boolean } }) => void;
const CYCLES = Number(process.env.TONDEX_KAFKA_OUTAGES ?? 4);
const KEYS = ["k0", "k1", "k2"];
const records = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({
    key: KEYS[(from + i) % 3] as string,
    value: { n: from + i },
  }));

/** What kafkajs 2.2.4's retrier rejects with when the coordinator lookup found no broker (its own classes). */
function coordinatorNotFound(): Error {
  const { KafkaJSGroupCoordinatorNotFound, KafkaJSNonRetriableError } = kafkajs as unknown as Record<
    "KafkaJSGroupCoordinatorNotFound" | "KafkaJSNonRetriableError",
    new (
      e: unknown,
      options?: object,
    ) => Error
  >;
  const lookup = new KafkaJSGroupCoordinatorNotFound("Failed to find group coordinator");
  return new KafkaJSNonRetriableError(lookup, { cause: lookup });
}

/** What kafkajs 2.2.4 rejects a commit with while the group's coordinator is loading (its own class). */
function coordinatorLoading(): Error {
  const { KafkaJSProtocolError } = kafkajs as unknown as Record<
    "KafkaJSProtocolError",
    new (
      e: object,
    ) => Error
  >;
  return new KafkaJSProtocolError({
    type: "GROUP_LOAD_IN_PROGRESS",
    code: 14,
    retriable: true,
    message: "The coordinator is loading and hence can't process requests for this group",
  });
}

/**
 * A bus on the real broker whose kafkajs consumers can be crashed by the test the way kafkajs's own crash
 * handler does it: the consumer disconnects, then CRASH is emitted.
 */
async function harness(t: ExecutionContext, options: { refuseCommits?: number } = {}) {
  const { kafkaBrokers } = await startServers(["kafka"]);
  const lines: string[] = [];
  const logger = createLogger({
    level: "warn",
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    }),
  });
  const crashers: ((error: Error) => Promise<void>)[] = [];
  let refused = 0;
  const kafkaOf = (config: KafkaConfig) => {
    const kafka = new Kafka(config);
    const consumerOf = kafka.consumer.bind(kafka);
    kafka.consumer = (consumerConfig) => {
      const consumer = consumerOf(consumerConfig);
      const listeners: CrashListener[] = [];
      const on = consumer.on.bind(consumer);
      consumer.on = ((event: string, listener: CrashListener) => {
        if (event === consumer.events.CRASH) listeners.push(listener);
        return on(event as typeof consumer.events.CRASH, listener);
      }) as typeof consumer.on;
      // The first `refuseCommits` commits through a batch payload are refused as a broker that restarted
      // refuses them while its group coordinator reads the offsets topic back.
      const run = consumer.run.bind(consumer);
      consumer.run = (config) =>
        run({
          ...config,
          eachBatch: (payload) =>
            config!.eachBatch!({
              ...payload,
              commitOffsetsIfNecessary: async (offsets) => {
                if (refused < (options.refuseCommits ?? 0)) {
                  refused++;
                  throw coordinatorLoading();
                }
                return payload.commitOffsetsIfNecessary(offsets);
              },
            }),
        });
      crashers.push(async (error) => {
        await consumer.disconnect();
        for (const l of listeners) l({ payload: { error, groupId: consumerConfig.groupId, restart: false } });
      });
      return consumer;
    };
    return kafka;
  };
  const bus = createKafkaBus(
    { brokers: [kafkaBrokers], partitions: 3, sessionTimeoutMs: 10_000, logger },
    kafkaOf,
  );
  t.teardown(() => bus.close());
  const topic: Topic<Value> = {
    name: guid(),
    codec: { encode: (v) => JSON.stringify(v), decode: (s) => JSON.parse(s) as Value },
  };
  const seen: { key: string; n: number }[] = [];
  let produced = 0;
  const produce = async (count: number) => {
    await retryProduce(() => bus.produce(topic, records(produced, produced + count)));
    produced += count;
  };
  await produce(30);
  const consumer: Consumer = bus.consume(
    topic,
    guid(),
    async (b) => void seen.push(...b.records.map((r) => ({ key: r.key, n: r.value.n }))),
    { maxBatch: 5, maxWaitMs: 10 },
  );
  const state = { failed: null as unknown };
  consumer.done.catch((error: unknown) => {
    state.failed = error;
  });
  await until(() => seen.length === 30 || state.failed !== null, 60_000);
  return {
    lines,
    seen,
    refused: () => refused,
    consumer,
    state,
    produce,
    crash: (error: Error) => Promise.all(crashers.map((c) => c(error))),
    /** Waits until every record produced was handled (or the consumer failed). */
    caughtUp: () => until(() => seen.length >= produced || state.failed !== null, 180_000, 100),
    /** Each record handled once, in order per key. */
    checkExactlyOnce() {
      t.deepEqual(
        seen.map((r) => r.n).sort((a, b) => a - b),
        Array.from({ length: produced }, (_, i) => i),
        "each record handled once",
      );
      for (const key of KEYS) {
        const ns = seen.filter((r) => r.key === key).map((r) => r.n);
        t.deepEqual(
          ns,
          [...ns].sort((a, b) => a - b),
          `order of ${key}`,
        );
      }
    },
  };
}

const restarts = (lines: string[]) =>
  lines.join("").match(/"msg":"Kafka unreachable; consumer restarts"/g)?.length ?? 0;

test.serial(
  "kafkajs gives the consumer up in a broker outage: the bus restarts it, nothing lost",
  async (t) => {
    const h = await harness(t);
    await h.crash(coordinatorNotFound());
    await h.produce(20);
    await h.caughtUp();
    t.is(h.state.failed, null, h.lines.join("").slice(-2000));
    t.is(restarts(h.lines), 1);
    // Twice more: the back-off grows, the consumer still comes back.
    await h.crash(coordinatorNotFound());
    await h.crash(coordinatorNotFound());
    await h.produce(20);
    await h.caughtUp();
    t.is(h.state.failed, null);
    t.is(restarts(h.lines), 3);
    await h.consumer.stop();
    h.checkExactlyOnce();
  },
);

test.serial("a crash kafkajs does not restart that is not an outage still fails the consumer", async (t) => {
  const h = await harness(t);
  const error = new NonRetryableError("a fault of this consumer");
  await h.crash(error);
  await t.throwsAsync(h.consumer.done, { is: error });
  t.is(restarts(h.lines), 0);
});

test.serial("a commit refused while the group coordinator loads is asked again: nothing twice", async (t) => {
  // The consumer has no handler retries: before, the first refusal failed it.
  const h = await harness(t, { refuseCommits: 3 });
  await h.produce(20);
  await h.caughtUp();
  t.is(h.state.failed, null, h.lines.join("").slice(-2000));
  t.is(h.refused(), 3);
  await h.consumer.stop();
  h.checkExactlyOnce();
});

test.serial(
  "a consumer rides out broker restarts: nothing lost, nothing twice, in order per key",
  async (t) => {
    const h = await harness(t);
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      await infra("stop", "kafka");
      await sleep(2_000);
      t.is(h.state.failed, null, `cycle ${cycle}: the consumer is still running during the outage`);
      await infra("start", "kafka");
      await h.produce(20);
      await h.caughtUp();
      t.is(h.state.failed, null, h.lines.join("").slice(-2000));
    }
    await h.consumer.stop();
    h.checkExactlyOnce();
    t.log(
      `${CYCLES} broker restarts; kafkajs gave the consumer up ${restarts(h.lines)} times, the bus restarted it`,
    );
  },
);

/** The producer's own retries (about a minute) may end while a restarted broker elects its leaders. */
async function retryProduce(send: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= 5) throw error;
      await sleep(2_000);
    }
  }
}
