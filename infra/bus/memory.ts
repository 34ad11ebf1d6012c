/**
 * The in-process bus: a bounded log per partition, consumer groups with committed offsets, and the
 * Kafka semantics of ./types.ts.
 *
 * - Retention: a record stays until every group that ever consumed the topic has committed past it.
 *   A partition holding `capacity` records makes `produce` wait (back-pressure), including before any
 *   group exists, so a producer never runs ahead of a stopped consumer by more than the capacity.
 * - A group has at most one consumer; it handles all partitions, `concurrency` of them at a time. After
 *   a failure or stop, the next `consume` of the group resumes at the committed offsets, so uncommitted
 *   batches are delivered again.
 * - A staged handler (./types.ts) prepares a partition's next batch while the previous one sinks: at most
 *   one sink runs ahead per partition, and sinks, commits and failures stay in batch order.
 * - Values are passed through the topic's codec (encode on produce, decode on delivery) by default, so a
 *   consumer sees what Kafka would deliver, never an object shared with the producer.
 */
import { isRetryable, NonRetryableError } from "../errors.ts";
import { sleep } from "../retry.ts";
import { partitionOf } from "./partition.ts";
import type {
  Batch,
  BatchHandler,
  Bus,
  BusRecord,
  ConsumeOptions,
  Consumer,
  StagedBatchHandler,
  Topic,
} from "./types.ts";

export type MemoryBusOptions = {
  /** Partitions per topic (Kafka: the topic's partition count). */
  readonly partitions?: number;
  /** Records retained per partition before `produce` waits. */
  readonly capacity?: number;
  /** Encode/decode values with the topic codec (default true); false hands the same objects over. */
  readonly roundTrip?: boolean;
};

/** Wakes every waiter; a waiter can give up (timeout) without leaking. */
class Signal {
  private waiters = new Set<() => void>();
  wait(timeoutMs?: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }
  notify(): void {
    for (const w of [...this.waiters]) w();
  }
}

type Entry = { key: string; value: unknown };
class PartitionLog {
  entries: Entry[] = [];
  /** Offset of entries[0]. */
  start = 0;
  readonly data = new Signal();
  readonly space = new Signal();
  get end(): number {
    return this.start + this.entries.length;
  }
}
type Group = { committed: number[]; active: boolean };
type TopicState = { logs: PartitionLog[]; groups: Map<string, Group> };

export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const partitions = options.partitions ?? 4;
  const capacity = options.capacity ?? 10_000;
  const roundTrip = options.roundTrip ?? true;
  const topics = new Map<string, TopicState>();
  const consumers = new Set<Consumer>();
  let closed = false;

  const topicState = (name: string): TopicState => {
    let t = topics.get(name);
    if (t === undefined) {
      t = { logs: Array.from({ length: partitions }, () => new PartitionLog()), groups: new Map() };
      topics.set(name, t);
    }
    return t;
  };

  /** Drops records every group has committed; wakes producers waiting for space. */
  const trim = (t: TopicState, p: number) => {
    const log = t.logs[p] as PartitionLog;
    let min = log.end;
    for (const g of t.groups.values()) min = Math.min(min, g.committed[p] as number);
    if (min > log.start) {
      log.entries.splice(0, min - log.start);
      log.start = min;
      log.space.notify();
    }
  };

  async function produce<V>(topic: Topic<V>, records: readonly BusRecord<V>[]): Promise<void> {
    const t = topicState(topic.name);
    for (const r of records) {
      const log = t.logs[partitionOf(r.key, partitions)] as PartitionLog;
      while (log.entries.length >= capacity) {
        if (closed) break;
        log.data.notify(); // what is already appended must be consumable while we wait
        await log.space.wait();
      }
      if (closed) throw new NonRetryableError(`bus closed while producing to ${topic.name}`);
      log.entries.push({ key: r.key, value: roundTrip ? topic.codec.encode(r.value) : r.value });
    }
    for (const log of t.logs) log.data.notify();
  }

  function consume<V, P>(
    topic: Topic<V>,
    groupName: string,
    handler: BatchHandler<V> | StagedBatchHandler<V, P>,
    opts: ConsumeOptions,
  ): Consumer {
    if (closed) throw new NonRetryableError("bus closed");
    if (!(opts.maxBatch >= 1))
      throw new NonRetryableError(`maxBatch must be at least 1, got ${opts.maxBatch}`);
    const t = topicState(topic.name);
    let group = t.groups.get(groupName);
    if (group?.active) {
      throw new NonRetryableError(
        `group ${groupName} already has a consumer on ${topic.name}; the in-process bus runs one consumer per group`,
      );
    }
    group ??= { committed: t.logs.map((l) => l.start), active: false };
    t.groups.set(groupName, group);
    const g = group;
    g.active = true;
    // A plain handler is a `prepare` with nothing to sink: the next batch waits for its commit.
    const staged: StagedBatchHandler<V, unknown> =
      typeof handler === "function" ? { prepare: handler, sink: async () => {} } : handler;
    /** Sinks a partition may still be running when its next batch is prepared. */
    const ahead = typeof handler === "function" ? 0 : 1;

    let stopped = false;
    let failure: { error: unknown } | null = null;
    let slots = opts.concurrency ?? 1;
    const slotFreed = new Signal();
    const wakeAll = () => {
      for (const log of t.logs) log.data.notify();
      slotFreed.notify();
    };

    const decode = (e: Entry): V => (roundTrip ? topic.codec.decode(e.value as string) : (e.value as V));

    const batchOf = (p: number, log: PartitionLog, from: number, to: number): Batch<V> => ({
      topic: topic.name,
      partition: p,
      records: log.entries.slice(from - log.start, to - log.start).map((e, i) => ({
        key: e.key,
        value: decode(e),
        partition: p,
        offset: BigInt(from + i),
      })),
      nextOffset: BigInt(to),
      highWatermark: BigInt(log.start + log.entries.length),
    });

    const runPartition = async (p: number): Promise<void> => {
      const log = t.logs[p] as PartitionLog;
      let attempts = 0;
      /** Where the next batch starts: past the batches prepared so far (committed or still sinking). */
      let delivered = g.committed[p] as number;
      /** Sinks not finished yet, oldest first; each commits its batch when it resolves. */
      const sinking: Promise<void>[] = [];
      let sinkFailure: { error: unknown } | null = null;
      const settled = () => Promise.all(sinking.map((s) => s.catch(() => {})));
      const fail = async (error: unknown): Promise<void> => {
        await settled();
        sinkFailure = null;
        delivered = g.committed[p] as number;
        attempts++;
        if (!isRetryable(error) || attempts > (opts.retries ?? 0)) {
          failure ??= { error };
          stopped = true;
          wakeAll();
        } else {
          await sleep(opts.retryDelayMs ?? 0);
        }
      };
      while (!stopped) {
        while (sinking.length > ahead && sinkFailure === null) await Promise.race(sinking).catch(() => {});
        if (stopped) break;
        if (sinkFailure !== null) {
          await fail((sinkFailure as { error: unknown }).error);
          continue;
        }
        const available = () => log.end - delivered;
        if (available() === 0) {
          await log.data.wait();
          continue;
        }
        // Fill the batch: wait up to maxWaitMs for maxBatch records (or for space pressure to show).
        const deadline = Date.now() + opts.maxWaitMs;
        while (
          !stopped &&
          available() < opts.maxBatch &&
          log.entries.length < capacity &&
          Date.now() < deadline
        ) {
          await log.data.wait(deadline - Date.now());
        }
        if (stopped) break;
        while (slots === 0 && !stopped) await slotFreed.wait();
        if (stopped) break;
        slots--;
        const from = delivered;
        const to = Math.min(log.end, from + opts.maxBatch);
        let prepared: unknown;
        try {
          const batch = batchOf(p, log, from, to);
          prepared = await staged.prepare(batch);
          delivered = to;
          const previous = sinking.at(-1);
          const sink = (async () => {
            if (previous !== undefined) await previous; // a failed predecessor fails this one unsunk
            await staged.sink(batch, prepared);
            g.committed[p] = Number(staged.commitOffset?.(batch, prepared) ?? BigInt(to));
            trim(t, p);
            attempts = 0;
          })();
          sinking.push(sink);
          sink.then(
            () => void sinking.splice(sinking.indexOf(sink), 1),
            (error: unknown) => {
              sinking.splice(sinking.indexOf(sink), 1);
              sinkFailure ??= { error };
              wakeAll();
            },
          );
        } catch (error) {
          await fail(error);
        } finally {
          slots++;
          slotFreed.notify();
        }
      }
      await settled();
      if (sinkFailure !== null) failure ??= sinkFailure;
    };

    const done = Promise.all(t.logs.map((_, p) => runPartition(p))).then(() => {
      g.active = false;
      consumers.delete(consumer);
      if (failure !== null) throw failure.error;
    });
    // Callers await `done`; this only keeps an unobserved failure from crashing the process.
    done.catch(() => {});
    const consumer: Consumer = {
      async stop() {
        stopped = true;
        wakeAll();
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
      for (const t of topics.values()) for (const log of t.logs) log.space.notify();
    },
  };
}
