/**
 * The bus over Apache Kafka (kafkajs 2.2.4), with the semantics of ./types.ts, so processors run
 * unchanged on it and on the in-process bus (test/distributed/bus-contract.test.ts runs one suite on both).
 *
 * - Topics are created on first use with `partitions` partitions (the brokers' auto-creation is off in
 *   infra/servers; a topic that exists keeps its partition count), and used once the brokers serve its
 *   metadata: a replica told the topic exists while another replica's creation is still spreading waits
 *   for it (about 15 s at most) instead of failing. Keys are partitioned by kafkajs's
 *   DefaultPartitioner, which is Kafka's murmur2 (./partition.ts computes the same numbers).
 * - `produce` resolves once every record is acknowledged by all in-sync replicas (acks=-1), from an
 *   idempotent producer (one request in flight), so a retried send neither duplicates nor reorders.
 *   Records go out in requests of at most `maxRequestBytes`; waiting for acknowledgements is the
 *   back-pressure.
 * - `consume` joins the consumer group (many consumers per group: Kafka spreads the partitions over
 *   them); a new group starts at the earliest offset. Offsets are never auto-committed: a batch's offset
 *   is committed after its handler (a staged handler's `sink`) resolved; a commit refused while the
 *   group's coordinator loads is asked again. kafkajs batches are cut into
 *   batches of at most `maxBatch` records; within one fetched batch a staged handler prepares the next
 *   batch while the previous one sinks. A handler failure seeks the partition back to the last commit:
 *   a retryable one is delivered again after `retryDelayMs` (up to `retries` times), any other one stops
 *   the consumer (`done` rejects) and the group's next consumer gets the batch again.
 * - Broker outages of any length are ridden out: kafkajs restarts its consumer after connection errors,
 *   and where it gives up (a group coordinator not found while every broker is away) the consumer
 *   restarts itself with a back-off of its own. `produce` fails with a RetryableError when its retries
 *   run out.
 */

import { connect, type Socket } from "node:net";
import {
  type EachBatchPayload,
  Kafka,
  type KafkaConfig,
  type KafkaMessage,
  logLevel,
  Partitioners,
  type Producer,
} from "kafkajs";
import { errorMessage, isRetryable, NonRetryableError, RetryableError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { backoffDelayMs, RETRY_DEFAULTS, retry, sleep } from "../retry.ts";
import type {
  Batch,
  BatchHandler,
  Bus,
  BusRecord,
  ConsumeOptions,
  Consumer,
  DeliveredRecord,
  StagedBatchHandler,
  Topic,
} from "./types.ts";

export type KafkaBusOptions = {
  /** `host:port` of one or more brokers. */
  readonly brokers: readonly string[];
  readonly clientId?: string;
  /** Prepended to every topic and consumer-group name, so deployments (or tests) can share a cluster. */
  readonly namePrefix?: string;
  /** Partitions of a topic this bus creates. */
  readonly partitions: number;
  /** Replication factor of a topic this bus creates (1 on a single broker). */
  readonly replicationFactor?: number;
  /** Largest produce request; the broker's topic limit is set above it (`max.message.bytes`). */
  readonly maxRequestBytes?: number;
  /** Consumer session timeout: a replica silent this long loses its partitions to the others. */
  readonly sessionTimeoutMs?: number;
  readonly logger?: Logger;
};

/** kafkajs's connection retries: about a minute of back-off before a call gives up. */
const CLIENT_RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 15 } as const;
const DEFAULT_MAX_REQUEST_BYTES = 900_000;
/**
 * What one fetch of a partition may bring, per record of a full batch (`maxBatch`): kafkajs's default of
 * 1 MiB per partition is one produce request's record batch (`maxRequestBytes`), ~330 devnet transactions
 * (2.7 kB each as JSON), so a catch-up was processed in batches of ~330 records whatever `maxBatch` said,
 * each paying a batch's fixed costs (a window step's classification setup, one insert per table, the
 * rollups' rebuild statements). 8 kB a record leaves room for transactions larger than the devnet's.
 */
const FETCH_BYTES_PER_RECORD = 8 * 1024;
/** At least kafkajs's default; at most under the broker's `fetch.max.bytes` (50 MiB by default). */
const MIN_FETCH_BYTES = 1024 * 1024;
const MAX_FETCH_BYTES = 48 * 1024 * 1024;

/** The most bytes a fetch of one partition brings for batches of `maxBatch` records. */
const fetchBytesFor = (maxBatch: number): number =>
  Math.min(MAX_FETCH_BYTES, Math.max(MIN_FETCH_BYTES, maxBatch * FETCH_BYTES_PER_RECORD));
/** The error close() ends the sockets still open with (kafkajs logs it; at debug, as the bus's own). */
const BUS_CLOSED = "the Kafka bus is closed";
/** A consumer's own restarts after a broker outage: 1 s doubling, capped at 30 s, without end. */
const OUTAGE_RESTART = {
  retries: Number.MAX_SAFE_INTEGER,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 2,
};
/** kafkajs errors (anywhere in the cause chain) that mean the brokers could not be reached. */
const OUTAGE_ERRORS = new Set([
  "KafkaJSGroupCoordinatorNotFound",
  "KafkaJSConnectionError",
  "KafkaJSConnectionClosedError",
  "KafkaJSBrokerNotFound",
  "KafkaJSNumberOfRetriesExceeded",
  "KafkaJSRequestTimeoutError",
]);

/** Whether `error` or one of its causes (kafkajs's retriers wrap what they give up on) satisfies `test`. */
function anyCause(error: unknown, test: (e: { name?: unknown; code?: unknown; type?: unknown }) => boolean) {
  for (let e = error, depth = 0; e !== null && typeof e === "object" && depth < 8; depth++) {
    if (test(e as { name?: unknown; code?: unknown; type?: unknown })) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Protocol errors a topic answers with while its creation spreads through the brokers (wait and ask again). */
const TOPIC_SETTLING = new Set(["UNKNOWN_TOPIC_OR_PARTITION", "LEADER_NOT_AVAILABLE"]);
export const isTopicSettling = (error: unknown): boolean =>
  anyCause(error, ({ type }) => typeof type === "string" && TOPIC_SETTLING.has(type));
/** How long a topic just created (here or by another replica) may take to be served: about 15 s. */
const TOPIC_SETTLE = { ...RETRY_DEFAULTS, shouldRetry: isTopicSettling };

/**
 * Protocol errors of a group coordinator that is starting (a broker just restarted reads its offsets topic
 * back): the same commit succeeds once it is ready. kafkajs retries these in its own commits, not in the
 * batch payload's `commitOffsetsIfNecessary` the bus commits through.
 */
const COORDINATOR_SETTLING = new Set(["GROUP_LOAD_IN_PROGRESS", "GROUP_COORDINATOR_NOT_AVAILABLE"]);
export const isCoordinatorSettling = (error: unknown): boolean =>
  anyCause(error, ({ type }) => typeof type === "string" && COORDINATOR_SETTLING.has(type));
const COORDINATOR_SETTLE = { ...RETRY_DEFAULTS, shouldRetry: isCoordinatorSettling };

/** Whether a consumer crash is the brokers being away (restart and wait), not a fault of this consumer. */
export const isBrokerOutage = (error: unknown): boolean =>
  anyCause(
    error,
    ({ name, code }) => (typeof name === "string" && OUTAGE_ERRORS.has(name)) || code === "ECONNREFUSED",
  );

/**
 * `kafkaOf` builds the kafkajs client from its configuration; tests wrap the real one to play a crash
 * kafkajs emits only in rare broker races.
 */
export function createKafkaBus(
  options: KafkaBusOptions,
  kafkaOf: (config: KafkaConfig) => Kafka = (config) => new Kafka(config),
): Bus {
  /** Every socket the clients opened and that is not closed yet (see close()). */
  const sockets = new Set<Socket>();
  /** Set by close(): what the clients say after it is the bus ending them. */
  let closed = false;
  const kafka = kafkaOf({
    clientId: options.clientId ?? "tondex",
    brokers: [...options.brokers],
    // Plain TCP, as kafkajs connects by default (no TLS: the brokers listen on PLAINTEXT), counted.
    socketFactory: ({ host, port, onConnect }) => {
      const socket = connect({ host, port }, onConnect);
      socket.setKeepAlive(true, 60_000);
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      return socket;
    },
    retry: CLIENT_RETRY,
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => {
      const { message, ...extra } = entry.log;
      // kafkajs logs every error answer of the broker ("Response CreateTopics…": the topic exists; "Response
      // Heartbeat…": the group is rebalancing) before its caller handles it; what is not handled reaches
      // this bus's callers as an error. Those lines are debug, not errors of the service.
      // Nor is the error of the sockets close() ends itself (BUS_CLOSED): a clean stop logs no error.
      const answer =
        entry.namespace === "Connection" &&
        (String(message).startsWith("Response ") || (closed && String(message).endsWith(BUS_CLOSED)));
      const level = answer ? "debug" : entry.level <= logLevel.ERROR ? "error" : "warn";
      options.logger?.[level]({ kafka: { namespace: entry.namespace, ...extra } }, String(message));
    },
  });
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const prefix = options.namePrefix ?? "";
  const admin = kafka.admin({ retry: CLIENT_RETRY });
  let adminConnected: Promise<void> | null = null;
  const topicsReady = new Map<string, Promise<void>>();
  let producer: Promise<Producer> | null = null;
  const consumers = new Set<Consumer>();

  const ensureTopic = (name: string): Promise<void> => {
    let ready = topicsReady.get(name);
    if (ready === undefined) {
      ready = (async () => {
        adminConnected ??= admin.connect();
        await adminConnected;
        // The broker may answer the creating request's own metadata check before it serves the new
        // topic (UNKNOWN_TOPIC_OR_PARTITION): asked again, it says the topic exists.
        const create = () =>
          admin.createTopics({
            waitForLeaders: true,
            topics: [
              {
                topic: name,
                numPartitions: options.partitions,
                replicationFactor: options.replicationFactor ?? 1,
                configEntries: [{ name: "max.message.bytes", value: String(maxRequestBytes * 2) }],
              },
            ],
          });
        await retry(create, TOPIC_SETTLE);
        // createTopics waits for the leaders of a topic it created, not of one that "exists" because
        // another replica's request got there first; its metadata may not be served yet.
        await retry(() => admin.fetchTopicMetadata({ topics: [name] }), TOPIC_SETTLE);
      })();
      ready.catch(() => topicsReady.delete(name));
      topicsReady.set(name, ready);
    }
    return ready;
  };

  const producerOf = (): Promise<Producer> => {
    producer ??= (async () => {
      const p = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: CLIENT_RETRY,
      });
      await p.connect();
      return p;
    })();
    producer.catch(() => {
      producer = null;
    });
    return producer;
  };

  async function produce<V>(topic: Topic<V>, records: readonly BusRecord<V>[]): Promise<void> {
    if (closed) throw new NonRetryableError(`bus closed while producing to ${topic.name}`);
    if (records.length === 0) return;
    try {
      await ensureTopic(prefix + topic.name);
      const p = await producerOf();
      let messages: { key: string; value: string }[] = [];
      let bytes = 0;
      const send = async () => {
        if (messages.length === 0) return;
        await p.send({ topic: prefix + topic.name, acks: -1, messages });
        messages = [];
        bytes = 0;
      };
      for (const r of records) {
        const value = topic.codec.encode(r.value);
        const size = Buffer.byteLength(value) + Buffer.byteLength(r.key) + 64;
        if (bytes + size > maxRequestBytes) await send();
        messages.push({ key: r.key, value });
        bytes += size;
      }
      await send();
    } catch (error) {
      if (closed)
        throw new NonRetryableError(`bus closed while producing to ${topic.name}`, { cause: error });
      throw new RetryableError(`Kafka produce to ${topic.name} failed: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }

  function consume<V, P>(
    topic: Topic<V>,
    group: string,
    handler: BatchHandler<V> | StagedBatchHandler<V, P>,
    opts: ConsumeOptions,
  ): Consumer {
    if (closed) throw new NonRetryableError("bus closed");
    if (!(opts.maxBatch >= 1))
      throw new NonRetryableError(`maxBatch must be at least 1, got ${opts.maxBatch}`);
    const staged: StagedBatchHandler<V, unknown> =
      typeof handler === "function" ? { prepare: handler, sink: async () => {} } : handler;
    const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
    const heartbeatInterval = Math.min(3_000, Math.floor(sessionTimeout / 3));
    const kc = kafka.consumer({
      groupId: prefix + group,
      allowAutoTopicCreation: false,
      sessionTimeout,
      heartbeatInterval,
      maxWaitTimeInMs: Math.max(1, opts.maxWaitMs),
      // A fetch holds up to a full batch of the partition (kafkajs's 1 MiB default cut batches short).
      maxBytesPerPartition: fetchBytesFor(opts.maxBatch),
      maxBytes: fetchBytesFor(opts.maxBatch),
      retry: CLIENT_RETRY,
    });
    let stopped = false;
    const lastCommitted = new Map<number, bigint>();
    let failure: { error: unknown } | null = null;
    let attempts = 0;
    let stopping: Promise<void> | null = null;
    const stopConsumer = (): Promise<void> => {
      stopping ??= (async () => {
        stopped = true;
        if (restartTimer !== null) clearTimeout(restartTimer);
        await kc.stop().catch(() => {});
        await kc.disconnect().catch(() => {});
      })();
      return stopping;
    };
    let ended: () => void = () => {};
    const endSignal = new Promise<void>((resolve) => {
      ended = resolve;
    });
    /** Restarts after a broker outage kafkajs gave up on; reset once the group is joined again. */
    let outageRestarts = 0;
    let restartTimer: NodeJS.Timeout | null = null;
    // After a (re)join the first fetch of each partition starts at the group's committed offset, which
    // another replica may have moved while this one was away.
    kc.on(kc.events.GROUP_JOIN, () => {
      lastCommitted.clear();
      outageRestarts = 0;
    });
    kc.on(kc.events.CRASH, (event) => {
      if (event.payload.restart) return; // kafkajs reconnects after a retryable crash
      if (!stopped && isBrokerOutage(event.payload.error)) {
        // kafkajs 2.2.4 does not restart after some outages: joining the group while every broker refuses
        // connections ends in "Failed to find group coordinator", which it treats as final. The brokers
        // coming back is what a consumer waits for, however long that takes.
        outageRestarts++;
        const delayMs = backoffDelayMs(OUTAGE_RESTART, outageRestarts, Math.random);
        options.logger?.warn(
          { err: event.payload.error, group, attempt: outageRestarts, delayMs },
          "Kafka unreachable; consumer restarts",
        );
        restartTimer = setTimeout(() => {
          restartTimer = null;
          if (stopped) return;
          runConsumer().catch((error: unknown) => {
            failure ??= { error };
            void stopConsumer().then(ended);
          });
        }, delayMs);
        return;
      }
      if (stopped) {
        // Leaving the group anyway (stop() has begun, e.g. every replica stopping at once, so the group
        // rebalances under the ones still leaving): what this consumer had not committed is read again
        // by the group's next consumer. Not a failed run.
        options.logger?.warn({ err: event.payload.error, group }, "Kafka consumer crashed while stopping");
        return;
      }
      failure ??= { error: event.payload.error };
      void stopConsumer().then(ended);
    });

    /**
     * kafkajs heartbeats only between fetches and when the handler asks: a fetch of full batches may take
     * longer to process than the session timeout (a 5,000-record batch took 6–8 s on 2 busy cores, the
     * distributed session is 10 s), so the group is told this consumer lives all along, not only after
     * each batch's commit. A consumer that dies stops beating, and its partitions move on as before.
     */
    const eachBatch = async (payload: EachBatchPayload): Promise<void> => {
      const beat = setInterval(() => void payload.heartbeat().catch(() => {}), heartbeatInterval);
      try {
        await eachFetch(payload);
      } finally {
        clearInterval(beat);
      }
    };

    const eachFetch = async (payload: EachBatchPayload): Promise<void> => {
      const { batch } = payload;
      const messages = batch.messages;
      // The last offset committed for this partition by this consumer: the fetch that first brought the
      // partition here started at the group's committed offset. A failed batch goes back there, which is
      // not this fetch's first offset when the handler commits less than a batch's end (`commitOffset`).
      if (!lastCommitted.has(batch.partition) && messages.length > 0) {
        lastCommitted.set(batch.partition, BigInt((messages[0] as KafkaMessage).offset));
      }
      const committedOf = () => lastCommitted.get(batch.partition) ?? 0n;
      /** Sinks not finished yet, oldest first; each commits its batch when it resolves. */
      let previous: Promise<void> = Promise.resolve();
      let sinkFailure: { error: unknown } | null = null;
      const toBatch = (chunk: KafkaMessage[]): Batch<V> => {
        const records: DeliveredRecord<V>[] = chunk.map((m) => ({
          key: m.key?.toString("utf8") ?? "",
          value: topic.codec.decode(m.value?.toString("utf8") ?? ""),
          partition: batch.partition,
          offset: BigInt(m.offset),
        }));
        return {
          topic: topic.name,
          partition: batch.partition,
          records,
          nextOffset: BigInt((chunk.at(-1) as KafkaMessage).offset) + 1n,
          highWatermark: BigInt(batch.highWatermark),
        };
      };
      try {
        for (let i = 0; i < messages.length; i += opts.maxBatch) {
          if (stopped || !payload.isRunning() || payload.isStale() || sinkFailure !== null) break;
          const delivered = toBatch(messages.slice(i, i + opts.maxBatch));
          const prepared = await staged.prepare(delivered);
          const before = previous;
          const sink = (async () => {
            await before; // a failed predecessor fails this one unsunk
            await staged.sink(delivered, prepared);
            const commitAt = staged.commitOffset?.(delivered, prepared) ?? delivered.nextOffset;
            // Through the batch payload: kafkajs's consumer.commitOffsets silently skips the commit once
            // stop() has begun, and stop waits for this batch, which must be committed on the way out.
            await commit(payload, {
              topics: [
                {
                  topic: batch.topic,
                  partitions: [{ partition: batch.partition, offset: commitAt.toString() }],
                },
              ],
            });
            lastCommitted.set(batch.partition, commitAt);
            payload.resolveOffset((delivered.records.at(-1) as DeliveredRecord<V>).offset.toString());
            attempts = 0;
            await payload.heartbeat().catch(() => {});
          })();
          sink.catch((error: unknown) => {
            sinkFailure ??= { error };
          });
          previous = sink;
          // A plain handler waits for its commit; a staged one runs one sink ahead.
          if (typeof handler === "function") await sink;
        }
        await previous;
      } catch (error) {
        await previous.catch(() => {});
        const failed = sinkFailure as { error: unknown } | null;
        await onFailure(failed === null ? error : failed.error, payload, committedOf());
        return;
      }
      if (sinkFailure !== null)
        await onFailure((sinkFailure as { error: unknown }).error, payload, committedOf());
    };

    /**
     * A commit refused by a coordinator still loading is asked again (about 15 s). Any other failure (the
     * broker away, the group rebalancing) is retryable by the handler's rules: the batch comes again.
     */
    const commit = async (
      payload: EachBatchPayload,
      offsets: Parameters<EachBatchPayload["commitOffsetsIfNecessary"]>[0],
    ): Promise<void> => {
      try {
        await retry(() => payload.commitOffsetsIfNecessary(offsets), COORDINATOR_SETTLE);
      } catch (error) {
        throw new RetryableError(`Kafka commit failed: ${errorMessage(error)}`, { cause: error });
      }
    };

    const onFailure = async (error: unknown, payload: EachBatchPayload, committed: bigint) => {
      const { batch } = payload;
      attempts++;
      // The partition resumes at the last commit: the failed batch (and those after it) come again.
      try {
        kc.seek({ topic: batch.topic, partition: batch.partition, offset: committed.toString() });
      } catch (seekError) {
        // kafkajs refuses a seek once its consumer has stopped; the next consumer starts at the last
        // commit anyway. A seek refused while running is a failure of its own.
        if (!stopped) {
          failure ??= { error: seekError };
          void stopConsumer().then(ended);
          return;
        }
      }
      // kafkajs marks its transient errors (connection, coordinator, rebalance) `retriable`.
      const retriable = isRetryable(error) || (error as { retriable?: unknown } | null)?.retriable === true;
      if (retriable && attempts <= (opts.retries ?? 0)) {
        options.logger?.warn(
          { err: error, attempt: attempts, partition: batch.partition },
          "batch failed; retrying",
        );
        await sleep(opts.retryDelayMs ?? 0);
        return;
      }
      failure ??= { error };
      void stopConsumer().then(ended);
    };

    const runConsumer = () =>
      kc.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: opts.concurrency ?? 1,
        eachBatch,
      });
    const started = (async () => {
      await ensureTopic(prefix + topic.name);
      await kc.connect();
      // The consumer's own view of the cluster (another broker, in a cluster of several) may lag the admin's.
      await retry(() => kc.subscribe({ topic: prefix + topic.name, fromBeginning: true }), TOPIC_SETTLE);
      await runConsumer();
    })();
    const done = (async () => {
      try {
        await started;
      } catch (error) {
        failure ??= { error };
        await stopConsumer();
        ended();
      }
      await endSignal;
      const failed = failure as { error: unknown } | null;
      if (failed !== null) throw failed.error;
    })();
    done.finally(() => consumers.delete(consumer)).catch(() => {});
    // Callers await `done`; this only keeps an unobserved failure from crashing the process.
    done.catch(() => {});
    const consumer: Consumer = {
      async stop() {
        await started.catch(() => {});
        await stopConsumer();
        ended();
        await done.catch(() => {});
      },
      done,
    };
    consumers.add(consumer);
    return consumer;
  }

  return {
    produce,
    consume,
    async close() {
      closed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
      if (producer !== null) await (await producer.catch(() => null))?.disconnect();
      if (adminConnected !== null) await admin.disconnect().catch(() => {});
      // A consumer that lived through a broker restart may still hold a socket its disconnect missed:
      // kafkajs 2.2.4 reconnects the old group coordinator's connection for a heartbeat, and that broker
      // is no longer among those it disconnects. Nothing may keep the process alive after close. Ended
      // with an error, so that kafkajs's connection rejects what it has queued and drops its timers.
      for (const socket of sockets) socket.destroy(new Error(BUS_CLOSED));
    },
  };
}
