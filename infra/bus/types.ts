/**
 * The bus: a log of keyed records with Kafka semantics, so the in-process implementation (./memory.ts)
 * and the kafkajs one (later, ./kafka.ts) are interchangeable and processors never see either.
 *
 * - Topics are split into partitions by a hash of the key (Kafka's murmur2, ./partition.ts): records
 *   with the same key (the account) stay in order.
 * - `produce` awaits when the bus cannot take more (back-pressure), and resolves once the records are
 *   accepted.
 * - `consume` hands batches of one partition to the handler; the batch's offsets are committed only
 *   after the handler resolves (a staged handler: after its `sink` resolves). A batch whose handler failed is delivered again: after a retry delay for
 *   a retryable error, or to the next consumer of the group once this one has stopped.
 */

export type BusRecord<V> = { readonly key: string; readonly value: V };

export type DeliveredRecord<V> = BusRecord<V> & { readonly partition: number; readonly offset: bigint };

export type Batch<V> = {
  readonly topic: string;
  readonly partition: number;
  /** In offset order; never empty. */
  readonly records: readonly DeliveredRecord<V>[];
  /** Where this partition resumes once the batch is committed (last offset + 1). */
  readonly nextOffset: bigint;
  /** The partition's end (the offset its next record will get) when the batch was fetched: the consumer lag is this − `nextOffset`. */
  readonly highWatermark?: bigint;
};

/** How values cross the wire (a Kafka message value is text or bytes); decode validates. */
export type Codec<V> = { encode(value: V): string; decode(text: string): V };

export type Topic<V> = { readonly name: string; readonly codec: Codec<V> };

export type ConsumeOptions = {
  /** Most records in one batch. */
  readonly maxBatch: number;
  /** How long a partition with fewer than maxBatch records waits for more before delivering them. */
  readonly maxWaitMs: number;
  /** Re-deliveries of a failed batch when the error is retryable (infra/errors.ts). Default 0. */
  readonly retries?: number;
  readonly retryDelayMs?: number;
  /**
   * Partitions whose handlers may run at the same time (each partition stays in order). Default 1. For a
   * staged handler it bounds the `prepare` steps; a partition's `sink` runs beside them.
   */
  readonly concurrency?: number;
};

export type BatchHandler<V> = (batch: Batch<V>) => Promise<void>;

/**
 * A handler in two steps, so the slow acknowledgement of one batch overlaps the work on the next:
 * `prepare` runs batches one at a time, in order (it may keep state between them); `sink` of a batch
 * starts once its `prepare` and the previous batch's `sink` have finished, and the batch is committed
 * when its `sink` resolves. While batch N sinks, batch N + 1 of the same partition may be prepared; its
 * `sink` never runs if an earlier one failed. Nothing is committed that was not sunk, in order.
 */
export type StagedBatchHandler<V, P = unknown> = {
  prepare(batch: Batch<V>): Promise<P>;
  sink(batch: Batch<V>, prepared: P): Promise<void>;
  /**
   * The offset committed once the batch is sunk; default `batch.nextOffset`. A consumer that must re-read
   * recent records after a restart (the processor's trace window) commits less: its group's next consumer
   * starts there. This consumer keeps reading after the batch either way.
   */
  commitOffset?(batch: Batch<V>, prepared: P): bigint;
};

export type Consumer = {
  /** Stops fetching; resolves once the batches in flight have finished (and committed, if they succeeded). */
  stop(): Promise<void>;
  /**
   * Settles when the consumer ends: resolves after `stop()`, rejects with the handler's error when a
   * batch failed for good (nothing of it committed). Whoever runs a consumer awaits this.
   */
  readonly done: Promise<void>;
};

export interface Bus {
  produce<V>(topic: Topic<V>, records: readonly BusRecord<V>[]): Promise<void>;
  consume<V, P>(
    topic: Topic<V>,
    group: string,
    handler: BatchHandler<V> | StagedBatchHandler<V, P>,
    options: ConsumeOptions,
  ): Consumer;
  /** Stops every consumer and refuses further produces; blocked producers are rejected. */
  close(): Promise<void>;
}
